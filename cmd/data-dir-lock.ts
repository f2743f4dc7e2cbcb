// A data dir serves one cluster at a time: its LevelDB store (DIR/store) is locked by the apiserver that opened it.
// A second `up` or `apiserver` on it is told so in these words, not in LevelDB's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const dataDirInUseMessage = (dataDir: string): string => `another mini-kube is using ${dataDir}; stop it or pass --data-dir`;

/** LevelDB's refusal of a store another process holds (LEVEL_LOCKED, as the cause of LEVEL_DATABASE_NOT_OPEN). */
export const isStoreLocked = (err: unknown): boolean => {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
    if (e.code === 'LEVEL_LOCKED') return true;
  }
  return false;
};

/**
 * Whether another process holds DIR/store: `up` asks before it claims anything for the cluster (its Service range, its
 * ports). Opened and closed at once, never created; any other failure is the apiserver's to report.
 */
export async function storeInUse(dataDir: string): Promise<boolean> {
  const dir = join(dataDir, 'store');
  if (!existsSync(dir)) return false;
  const { Level } = await import('level');
  const db = new Level(dir);
  try {
    await db.open({ createIfMissing: false });
  } catch (err) {
    return isStoreLocked(err);
  }
  await db.close();
  return false;
}
