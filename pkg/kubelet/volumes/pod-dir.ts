// A pod's directory on the node (<root>/pods/<uid>) taken down as upstream's kubelet takes its own down:
// - its volumes once the pod has terminated (the volume manager's TearDown, then SyncTerminatedPod's
//   removeOrphanedPodVolumeDirs): what is mounted below volumes/ (a memory-backed emptyDir's tmpfs) is unmounted, then
//   each volume's directory goes with its content, as the emptyDir plugin's TearDownAt (configMap, secret,
//   downwardAPI and projected volumes, the service-account token among them, are emptyDirs underneath);
// - the rest (its containers' logs and termination messages, their $MINI_KUBE_ROOTFS links, the sandbox's /etc
//   files) once the pod is gone from the API and the runtime (housekeeping's cleanupOrphanedPodDirs).
// hostPath volumes and claims are node paths outside the pod's directory (a container reaches them through a link,
// which is removed, never followed), so the data on them stays. Nothing is removed through a mount point: a mount
// left below the directory (outside volumes/, or one that cannot be unmounted) stops the removal with an error, as
// upstream's RemoveAllOneFilesystem does, and the directory stays until a later housekeeping pass.
import { chmod, lstat, readdir, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { leaveMountPoints } from './mount-points.js';
import { mountsUnder, unmountUnder } from './mounts.js';

type Stats = Awaited<ReturnType<typeof lstat>>;

const notFound = (e: unknown): boolean => (e as NodeJS.ErrnoException).code === 'ENOENT';
const lstatIfThere = (p: string): Promise<Stats | undefined> => lstat(p).catch((e: unknown) => { if (notFound(e)) return undefined; throw e; });

/**
 * Removes `path` and everything below it without ever leaving its filesystem: it refuses (with upstream's error) when
 * a mount point is at or below it, before removing anything, and stops at a directory of another device (a mount in
 * a namespace whose mounts are not listed). Links are removed, not followed; a directory its owner made read-only
 * (a Go module cache) is made writable to be emptied.
 */
export async function removeAllOneFilesystem(path: string): Promise<void> {
  const top = await lstatIfThere(path);
  if (!top) return;
  const [mounted] = await mountsUnder(path);
  if (mounted !== undefined) throw new Error(`cannot delete directory ${mounted}: it is a mount point`);
  const remove = async (p: string, st: Stats): Promise<void> => {
    if (!st.isDirectory()) {
      await unlink(p).catch((e: unknown) => { if (!notFound(e)) throw e; });
      return;
    }
    if (st.dev !== top.dev) throw new Error(`cannot delete directory ${p}: it is a mount point`);
    if ((Number(st.mode) & 0o700) !== 0o700) await chmod(p, (Number(st.mode) & 0o7777) | 0o700);
    for (const name of await readdir(p)) {
      const child = join(p, name);
      const cs = await lstatIfThere(child);
      if (cs) await remove(child, cs);
    }
    await rmdir(p).catch((e: unknown) => { if (!notFound(e)) throw e; });
  };
  await remove(path, top);
}

/**
 * The pod's volumes torn down: the links its containers' layouts put inside other volumes made empty mount points
 * (volumes/mount-points.ts), their mounts taken off, then volumes/ removed with everything in it.
 */
export async function tearDownPodVolumes(podDir: string): Promise<void> {
  await leaveMountPoints(podDir);
  const volumes = join(podDir, 'volumes');
  if (!(await lstatIfThere(volumes))) return;
  await unmountUnder(volumes);
  await removeAllOneFilesystem(volumes);
}

/** The directory of a pod that is gone: its volumes torn down first, then the rest, then the directory itself. */
export async function removePodDir(podDir: string): Promise<void> {
  await tearDownPodVolumes(podDir);
  await removeAllOneFilesystem(podDir);
}

/** The uids of the pods that have a directory under `podsDir` (upstream's listPodsFromDisk). */
export async function podsOnDisk(podsDir: string): Promise<string[]> {
  const entries = await readdir(podsDir, { withFileTypes: true }).catch((e: unknown) => { if (notFound(e)) return []; throw e; });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}
