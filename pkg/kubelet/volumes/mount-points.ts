// A mount whose path lies inside another volume's (a hostPath at /data, an emptyDir at /data/sub) has its
// $MINI_KUBE_ROOTFS link made inside that volume's directory, the only place the link can be reached through the
// outer one's. runc likewise makes a nested mount's target inside the outer bind mount, where it stays: an empty
// directory (an empty file for a file). So the links made there are recorded beside the container's rootfs, and when
// the pod's volumes are torn down each one still there becomes that empty mount point, not a link left dangling.
import { lstat, mkdir, readFile, readlink, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';

/** A link (or a subPath's copy) the layout put inside another volume. */
export interface MountPoint { path: string; source: string; dir: boolean; copy: boolean }

const RECORD = '.mount-points';

/** Where `link` lies on the host when that is inside another volume (outside `rootfs`), else undefined. */
export async function nestedMountPoint(rootfs: string, link: string): Promise<string | undefined> {
  const [root, parent] = await Promise.all([realpath(rootfs), realpath(dirname(link))]);
  return parent === root || parent.startsWith(root + sep) ? undefined : join(parent, basename(link));
}

/** Records the container's mount points in other volumes (none: no record). Container names hold no dots. */
export async function recordMountPoints(rootfs: string, points: MountPoint[]): Promise<void> {
  if (points.length) await writeFile(rootfs + RECORD, JSON.stringify(points));
  else await rm(rootfs + RECORD, { force: true });
}

/** Each recorded link or copy still in place made the empty mount point runc leaves; the records then removed. */
export async function leaveMountPoints(podDir: string): Promise<void> {
  const rootfsDir = join(podDir, 'rootfs');
  const records = (await readdir(rootfsDir).catch(() => [])).filter((n) => n.endsWith(RECORD));
  for (const name of records) {
    const file = join(rootfsDir, name);
    // a record cut short (the kubelet stopped while writing it) only leaves its links as they are
    const points = await readFile(file, 'utf8').then((t) => JSON.parse(t) as MountPoint[]).catch((): MountPoint[] => []);
    for (const p of points) {
      const st = await lstat(p.path).catch(() => undefined);
      const ours = st && (p.copy ? !st.isSymbolicLink() : st.isSymbolicLink() && (await readlink(p.path)) === p.source);
      if (!ours) continue;
      await rm(p.path, { recursive: true, force: true });
      if (p.dir) await mkdir(p.path);
      else await writeFile(p.path, '', { flag: 'wx' });
    }
    await rm(file, { force: true });
  }
}
