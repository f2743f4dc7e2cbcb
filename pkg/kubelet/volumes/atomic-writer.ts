// Upstream's AtomicWriter (pkg/volume/util/atomic_writer.go) for configMap, secret, downwardAPI and projected
// volumes: the files live in a timestamped directory `..2006_01_02_15_04_05.NNNN`, `..data` is a symlink to it, and
// each top-level entry the user sees is a symlink through `..data`. An update writes a new timestamped directory and
// renames a fresh `..data_tmp` link over `..data`, so a reader sees the old set of files or the new one, never a mix.
// With an fsGroup (and a kubelet that may chown), everything written is the group's as upstream's SetVolumeOwnership
// leaves a read-only volume: files readable by the group (mode | 0440), directories setgid and open to it (| 02550).
import { chmod, chown, lchown, lstat, mkdir, mkdtemp, readFile, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** `uid`: the file's owner (upstream's FsUser, for service-account tokens); root's otherwise. */
export interface FileProjection { data: string | Buffer; mode: number; uid?: number }
export type Payload = Record<string, FileProjection>;

const GROUP_READ = 0o440;
const GROUP_DIR = 0o2550;
/** Upstream's tsDir mode: others must traverse it (containers may run as any user). */
const DIR_MODE = 0o755;

const fileMode = (f: FileProjection, fsGroup: number | undefined): number => (fsGroup === undefined ? f.mode : f.mode | GROUP_READ);

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

const samePayload = async (dir: string, payload: Payload, fsGroup: number | undefined): Promise<boolean> => {
  const current = await readTree(dir).catch(() => undefined);
  if (!current || current.size !== Object.keys(payload).length) return false;
  return Object.entries(payload).every(([path, f]) => {
    const c = current.get(path);
    return !!c && c.mode === fileMode(f, fsGroup) && c.data.equals(typeof f.data === 'string' ? Buffer.from(f.data) : f.data);
  });
};

/** A directory of the volume: traversable by anyone, and the fsGroup's when there is one. */
const ownDir = async (path: string, fsGroup: number | undefined): Promise<void> => {
  if (fsGroup !== undefined) await chown(path, -1, fsGroup);
  await chmod(path, fsGroup === undefined ? DIR_MODE : DIR_MODE | GROUP_DIR);
};

/**
 * Makes dir hold exactly `payload`; returns false when it already did (nothing written). `fsGroup`: the group that
 * owns the volume (the caller passes it only when it may chown).
 */
export async function writeAtomically(dir: string, payload: Payload, now = new Date(), fsGroup?: number): Promise<boolean> {
  await mkdir(dir, { recursive: true });
  const old = await readlink(join(dir, DATA)).catch(() => undefined);
  if (old && await samePayload(join(dir, old), payload, fsGroup)) return false;
  if (fsGroup !== undefined) await ownDir(dir, fsGroup);
  const tsDir = await mkdtemp(join(dir, stamp(now)));
  await ownDir(tsDir, fsGroup);
  for (const [path, f] of Object.entries(payload)) {
    const full = join(tsDir, path);
    const missing: string[] = [];
    for (let d = dirname(full); d !== tsDir && !(await lstat(d).catch(() => undefined)); d = dirname(d)) missing.unshift(d);
    for (const d of missing) {
      await mkdir(d);
      await ownDir(d, fsGroup);
    }
    await writeFile(full, f.data);
    if (f.uid !== undefined || fsGroup !== undefined) await chown(full, f.uid ?? -1, fsGroup ?? -1);
    await chmod(full, fileMode(f, fsGroup)); // not subject to the umask, as upstream
  }
  await rm(join(dir, DATA_TMP), { force: true });
  await symlink(tsDir.slice(dir.length + 1), join(dir, DATA_TMP));
  if (fsGroup !== undefined) await lchown(join(dir, DATA_TMP), -1, fsGroup);
  await rename(join(dir, DATA_TMP), join(dir, DATA));
  const visible = new Set(Object.keys(payload).map((p) => p.split('/')[0]!));
  for (const name of visible) {
    const link = join(dir, name);
    const st = await lstat(link).catch(() => undefined);
    if (st?.isSymbolicLink()) continue;
    if (st) await rm(link, { recursive: true, force: true });
    await symlink(join(DATA, name), link);
    if (fsGroup !== undefined) await lchown(link, -1, fsGroup);
  }
  for (const name of await readdir(dir)) {
    if (!name.startsWith('..') && !visible.has(name)) await rm(join(dir, name), { recursive: true, force: true });
  }
  if (old) await rm(join(dir, old), { recursive: true, force: true });
  return true;
}
