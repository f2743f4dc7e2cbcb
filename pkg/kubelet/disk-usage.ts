// What a directory takes on disk, as upstream's volume metrics (`du`) count it: allocated blocks and inodes of
// everything under it, hard links once, without following symlinks or crossing into other filesystems; and a
// filesystem's size and free space (statfs), for the FsStats of /stats/summary.
import { lstat, readdir, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiskUsage, FsInfo } from './runtime/types.js';

export const NO_USAGE: DiskUsage = { bytes: 0, inodes: 0 };

/** Blocks (as bytes) and inodes under `path`; none when it is not there. */
export async function diskUsage(path: string, skip?: (name: string) => boolean): Promise<DiskUsage> {
  const root = await lstat(path).catch(() => undefined);
  if (!root) return { ...NO_USAGE };
  const seen = new Set<string>();
  const total = { ...NO_USAGE };
  const walk = async (p: string, st: Awaited<ReturnType<typeof lstat>>): Promise<void> => {
    if (st.dev !== root.dev) return;
    const key = `${st.ino}`;
    if (st.nlink > 1 && seen.has(key)) return;
    if (st.nlink > 1) seen.add(key);
    total.bytes += Number(st.blocks) * 512;
    total.inodes++;
    if (!st.isDirectory()) return;
    const names = await readdir(p).catch(() => [] as string[]);
    for (const name of names) {
      if (skip?.(name)) continue;
      const child = join(p, name);
      const cs = await lstat(child).catch(() => undefined);
      if (cs) await walk(child, cs);
    }
  };
  await walk(path, root);
  return total;
}

/** The filesystem holding `path`; undefined when it cannot be read (the path is not there yet). */
export async function filesystemOf(path: string): Promise<FsInfo | undefined> {
  try {
    const fs = await statfs(path);
    return {
      capacityBytes: fs.blocks * fs.bsize, availableBytes: fs.bavail * fs.bsize, usedBytes: (fs.blocks - fs.bfree) * fs.bsize,
      inodes: fs.files, inodesFree: fs.ffree,
    };
  } catch {
    return undefined;
  }
}
