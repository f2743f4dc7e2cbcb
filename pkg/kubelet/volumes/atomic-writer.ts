// Upstream's AtomicWriter (pkg/volume/util/atomic_writer.go) for configMap, secret, downwardAPI and projected
// volumes: the files live in a timestamped directory `..2006_01_02_15_04_05.NNNN`, `..data` is a symlink to it, and
// each top-level entry the user sees is a symlink through `..data`. An update writes a new timestamped directory and
// renames a fresh `..data_tmp` link over `..data`, so a reader sees the old set of files or the new one, never a mix.
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface FileProjection { data: string | Buffer; mode: number }
export type Payload = Record<string, FileProjection>;

const DATA = '..data';
const DATA_TMP = '..data_tmp';

const stamp = (d: Date): string => {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `..${d.getUTCFullYear()}_${p(d.getUTCMonth() + 1)}_${p(d.getUTCDate())}_${p(d.getUTCHours())}_${p(d.getUTCMinutes())}_${p(d.getUTCSeconds())}.`;
};

/** Every file under dir, by path relative to it. */
const readTree = async (dir: string, prefix = ''): Promise<Map<string, { data: Buffer; mode: number }>> => {
  const out = new Map<string, { data: Buffer; mode: number }>();
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of await readTree(join(dir, e.name), rel)) out.set(k, v);
    else out.set(rel, { data: await readFile(join(dir, e.name)), mode: (await lstat(join(dir, e.name))).mode & 0o777 });
  }
  return out;
};

const samePayload = async (dir: string, payload: Payload): Promise<boolean> => {
  const current = await readTree(dir).catch(() => undefined);
  if (!current || current.size !== Object.keys(payload).length) return false;
  return Object.entries(payload).every(([path, f]) => {
    const c = current.get(path);
    return !!c && c.mode === f.mode && c.data.equals(typeof f.data === 'string' ? Buffer.from(f.data) : f.data);
  });
};

/** Makes dir hold exactly `payload`; returns false when it already did (nothing written). */
export async function writeAtomically(dir: string, payload: Payload, now = new Date()): Promise<boolean> {
  await mkdir(dir, { recursive: true });
  const old = await readlink(join(dir, DATA)).catch(() => undefined);
  if (old && await samePayload(join(dir, old), payload)) return false;
  const tsDir = await mkdtemp(join(dir, stamp(now)));
  for (const [path, f] of Object.entries(payload)) {
    const full = join(tsDir, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, f.data);
    await chmod(full, f.mode); // not subject to the umask, as upstream
  }
  await rm(join(dir, DATA_TMP), { force: true });
  await symlink(tsDir.slice(dir.length + 1), join(dir, DATA_TMP));
  await rename(join(dir, DATA_TMP), join(dir, DATA));
  const visible = new Set(Object.keys(payload).map((p) => p.split('/')[0]!));
  for (const name of visible) {
    const link = join(dir, name);
    const st = await lstat(link).catch(() => undefined);
    if (st?.isSymbolicLink()) continue;
    if (st) await rm(link, { recursive: true, force: true });
    await symlink(join(DATA, name), link);
  }
  for (const name of await readdir(dir)) {
    if (!name.startsWith('..') && !visible.has(name)) await rm(join(dir, name), { recursive: true, force: true });
  }
  if (old) await rm(join(dir, old), { recursive: true, force: true });
  return true;
}
