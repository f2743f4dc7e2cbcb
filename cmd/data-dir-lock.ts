// A data dir serves one cluster at a time: `up` holds it for as long as it runs (its children come and go: an
// apiserver waiting out its restart back-off holds nothing), and its LevelDB store (DIR/store) is locked by the
// apiserver that opened it. A second `up` or `apiserver` on it is told so in these words, not in LevelDB's.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, realpath, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

export const dataDirInUseMessage = (dataDir: string, pid?: number): string =>
  `another mini-kube${pid === undefined ? '' : ` (pid ${pid})`} is using ${dataDir}; stop it or pass --data-dir`;

/**
 * Where `up` listens while it holds a data dir: on Linux a socket of the abstract namespace named for the directory's
 * real path, which the kernel frees when the process ends however it ends, and which no two processes can bind; else
 * a socket file in the directory, which a crash leaves behind (connecting to it is refused then).
 */
const claimAddress = async (dataDir: string): Promise<string> => {
  if (process.platform !== 'linux') return join(dataDir, 'up.sock');
  return `\0mini-kube-up/${createHash('sha256').update(await realpath(dataDir)).digest('hex').slice(0, 40)}`;
};

/** Listens at the address, the process's pid its answer to whoever connects; the socket keeps no process alive. */
const hold = (address: string): Promise<void> => new Promise((resolve, reject) => {
  const server = createServer((socket) => socket.end(`${process.pid}\n`));
  server.once('error', reject).listen(address, () => {
    server.off('error', reject).unref();
    resolve();
  });
});

/** The pid the holder of the address answers with; undefined when nobody answers. */
const holder = (address: string): Promise<number | undefined> => new Promise((resolve) => {
  let answer = '';
  connect(address).setEncoding('utf8')
    .on('data', (d: string) => { answer += d; })
    .on('end', () => resolve(Number.parseInt(answer, 10) || undefined))
    .on('error', () => resolve(undefined));
});

/**
 * Claims the data dir (created if missing) for this process, until it exits: undefined once it holds it, else the
 * pid of the `up` that does. Asked before anything is claimed for the cluster.
 */
export async function claimDataDir(dataDir: string): Promise<number | undefined> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const address = await claimAddress(dataDir);
  for (let attempt = 1; ; attempt++) {
    try {
      await hold(address);
      return undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 3) throw err;
    }
    const pid = await holder(address);
    if (pid !== undefined) return pid;
    // nobody answers: its holder was ending as we asked, or (a socket file) crashed
    if (process.platform !== 'linux') await rm(address, { force: true });
  }
}

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
