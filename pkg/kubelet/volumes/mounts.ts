// The mount points of the kubelet's mount namespace (/proc/self/mountinfo), which the pod's volumes set up (a
// memory-backed emptyDir's tmpfs) and which their tear-down must take off before removing anything below them.
import { execFile } from 'node:child_process';
import { readFile, realpath } from 'node:fs/promises';

export const run = (cmd: string, args: string[]): Promise<void> => new Promise((resolve, reject) => {
  execFile(cmd, args, (err, _out, stderr) => (err ? reject(new Error(stderr.trim() || err.message)) : resolve()));
});

/**
 * The mount points at or below `dir` (its links resolved, as the kernel lists mounts by their real paths; octal
 * escapes of mountinfo undone); none where there is no /proc.
 */
export async function mountsUnder(dir: string): Promise<string[]> {
  const real = await realpath(dir).catch(() => dir);
  const info = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  return info.split('\n').map((l) => l.split(' ')[4] ?? '')
    .map((p) => p.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))))
    .filter((p) => p === real || p.startsWith(`${real}/`));
}

/** Whether `dir` itself is a mount point. */
export const isMountPoint = async (dir: string): Promise<boolean> =>
  (await mountsUnder(dir)).includes(await realpath(dir).catch(() => dir));

/** Unmounts what is mounted at or below `dir`, deepest first; only root can (else nothing is tried). */
export async function unmountUnder(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  for (const p of (await mountsUnder(dir)).sort((a, b) => b.length - a.length)) await run('umount', [p]).catch(() => undefined);
}
