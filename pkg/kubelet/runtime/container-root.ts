// A container's own root, so that its volumes are at their mountPath as in a real container (an in-cluster client
// finds /var/run/secrets/kubernetes.io/serviceaccount/token) without touching the host. In the container's mount
// namespace the host's "/" is bound recursively as the root its command runs chrooted in; a directory to make a path
// in is "mirrored" there: a directory of the container's over it holds one entry per entry of the host's directory,
// each bound (directories recursively) to the host's, so what the container reads and writes there is the host's,
// live, while the paths it adds are its own; each volume is bound at its container path. Takes root and mount
// namespaces; the runtime probes for them once (canMakeRoots) and otherwise keeps the $MINI_KUBE_ROOTFS symlinks alone.
import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, readlink, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Mount } from './types.js';
import { WRAPPER_SHELL, wrapperArgv } from './wrapper-shell.js';

/** How the host shows a path (a seam for tests). */
export interface HostView {
  /** The path with the symlinks of its existing part resolved, and how much of it exists. */
  resolve(path: string): Promise<{ path: string; existing: string }>;
}

export const hostView: HostView = {
  async resolve(path) {
    const parts = path.split('/').filter(Boolean);
    for (let n = parts.length; n >= 0; n--) {
      const prefix = `/${parts.slice(0, n).join('/')}`;
      const real = await realpath(prefix).catch(() => undefined);
      if (real !== undefined) return { path: join(real, ...parts.slice(n)), existing: real };
    }
    return { path, existing: '/' };
  },
};

const within = (path: string, dir: string): boolean => dir === '/' || path === dir || path.startsWith(dir + sep);
const depth = (path: string): number => path.split('/').filter(Boolean).length;

/**
 * The operations that build a container's root (rootFstab's): `m DIR` (mirror the host's directory, to make a path
 * in it; "/" first when a path is to be made there), `t` (a /tmp of the container's own, TMP_OP), `b SRC DST` and
 * `r SRC DST` (bind read-write / read-only), and `p` (OWN_PROC). The read-only volumes are also bound read-only over
 * themselves, so that what $MINI_KUBE_ROOTFS links reach is read-only too. The working dir is made in the root too
 * (not in the host's directory): returned as the path to make, its links resolved.
 *
 * `privateTmp` gives the container an empty /tmp, as an image's is (unless a volume is mounted at /tmp), in which
 * the host directories it names that lie under /tmp stay where they are (the kubelet's own directory, holding the
 * pod's files and the built-in images' programs, when the node keeps it there), and so do the volumes' host paths.
 */
export async function rootOperations(mounts: Mount[], cwd: string, host: HostView = hostView, privateTmp?: { keep: string[] }): Promise<{ ops: string[]; cwd: string }> {
  const placed = await Promise.all(mounts.map(async (m) => ({
    op: m.readOnly ? 'r' : 'b', src: await realpath(m.hostPath).catch(() => m.hostPath), dst: await host.resolve(m.containerPath),
  })));
  const own = placed.filter((p) => p.op === 'r').map((p) => [p.op, p.src, p.src]);
  placed.sort((a, b) => depth(a.dst.path) - depth(b.dst.path));
  const wd = await host.resolve(cwd);
  const ownTmp = privateTmp !== undefined && !placed.some((p) => p.dst.path === TMP);
  // a path to make, not inside a volume, is made in a mirror of the directory it is to be made in (in a private /tmp,
  // where anything can be made, as it is)
  const mirrors = new Set([...placed.map((p) => p.dst), wd]
    .filter((dst) => dst.path !== dst.existing && !placed.some((p) => p.dst !== dst && within(dst.path, p.dst.path)))
    .map((dst) => dst.existing)
    .filter((dir) => !(ownTmp && within(dir, TMP))));
  // the volumes' host paths there too: $MINI_KUBE_ROOTFS links to them (a bound directory shows those inside it)
  const kept = ownTmp ? [...new Set([...privateTmp.keep, ...placed.map((p) => p.src)])]
    .filter((dir, _, all) => within(dir, TMP) && dir !== TMP && !all.some((other) => other !== dir && within(dir, other))) : [];
  return {
    ops: [
      ...[...mirrors].sort((a, b) => depth(a) - depth(b)).flatMap((d) => ['m', d]),
      ...(ownTmp ? [TMP_OP, ...kept.flatMap((dir) => ['b', dir, dir])] : []),
      ...own.flat(),
      ...placed.flatMap((p) => [p.op, p.src, p.dst.path]),
    ],
    cwd: wd.path,
  };
}

const TMP = '/tmp';
/** The operation for an empty /tmp of the container's own (sticky and writable by all, as an image's /tmp is). */
const TMP_OP = 't';

/**
 * Run in the container's mount namespace as `sh -c ROOT_SCRIPT ROOT FSTAB CWD ARGV...`: makes the mounts FSTAB lists
 * (rootFstab's, beside the root), in its order, with one `mount -a` (a process per mount took most of a container's
 * start); then, with a byte to fd 3 (the shim's sign that the container has started: ShimSpec.startedByte), ARGV runs
 * chrooted in ROOT/root in CWD (made if missing). Anything failing stops the container with exit 126 and mount's
 * message in its log. It sets no variable: the container's environment passes through it (one named F was the fstab).
 */
const IN_DIR = 'cd "$0" && exec "$@"';
const ROOT_SCRIPT = `mount -a -T "$1" || exit 126
shift
[ -d "$0/root$1" ] || mkdir -p "$0/root$1" || exit 126
printf x >&3 && exec 3>&- || exit 126
exec chroot "$0/root" ${WRAPPER_SHELL} -c '${IN_DIR}' "$@"`;

/** A path as an fstab field: octal escapes for what separates fields and lines (fstab(5)). */
const fstabField = (path: string): string => path.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);

/**
 * Writes `root`/mounts.fstab, the mounts of `operations` (rootOperations') on `root`/root, and prepares on the host
 * what they mount, so that one `mount -a` makes them all: it reads the mount table once, before the first, so that
 * none is taken for "already mounted" (as /proc is once the host's "/" is bound), and needs nothing made between two.
 *
 * The host's "/" is bound recursively there, or its mirror when the operations start with `m /`. A mirror is a
 * directory of the root's (`mirror-N`, with the mode of the host's) bound over the host's directory, unbindable so
 * that binding a host directory holding it does not copy it in again; it holds one entry per entry of the host's
 * directory: each directory bound recursively to the host's (`nofail`: one gone meanwhile is left out), each file
 * bound too, each link made again. `t` binds `tmp` of the root at /tmp (sticky, writable by all), as an image's /tmp
 * is on its container's own disk. `b`/`r` bind read-write / read-only: a directory's mount point is made as it is
 * mounted (X-mount.mkdir), a file's is made here in what will hold it (a mirror, the root's /tmp, a volume).
 * `p` mounts a proc.
 */
export async function rootFstab(root: string, operations: string[]): Promise<string> {
  const top = join(root, 'root');
  await mkdir(top, { recursive: true });
  // what a run of the same attempt left (the attempts of init containers start over in a new sandbox)
  for (const name of await readdir(root)) if (name !== 'root') await rm(join(root, name), { recursive: true, force: true });
  const lines: string[] = [];
  /** What is mounted where so far, latest last: a container path and the host path holding what it shows. */
  const mounted: { path: string; host: string }[] = [];
  const mount = (src: string, dst: string, type: string, options: string, host?: string): void => {
    lines.push(`${fstabField(src)} ${fstabField(dst === '/' ? top : join(top, dst))} ${type} ${options} 0 0`);
    if (host !== undefined) mounted.push({ path: dst, host });
  };
  /** Where on the host a path of the root will be once the mounts so far are made (the host's own path under "/"). */
  const hostOf = (path: string): { host: string; own: boolean } => {
    const m = [...mounted].reverse().find((x) => within(path, x.path));
    return m ? { host: join(m.host, relative(m.path, path)), own: false } : { host: path, own: true };
  };
  /** A directory of the root's with the host directory's entries as mount points and links, as a mirror holds them. */
  const mirror = async (dir: string, n: number): Promise<void> => {
    const made = join(root, `mirror-${n}`);
    await mkdir(made, { recursive: true });
    await chmod(made, (await stat(dir)).mode & 0o7777);
    mount(made, dir, 'none', 'bind,unbindable', made);
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const [path, at] = [join(dir, e.name), join(made, e.name)];
      if (e.isSymbolicLink()) {
        const target = await readlink(path).catch(() => undefined);
        if (target !== undefined) await symlink(target, at);
      } else if (e.isDirectory()) {
        await mkdir(at);
        mount(path, path, 'none', 'rbind,nofail', path);
      } else {
        await writeFile(at, '');
        mount(path, path, 'none', 'bind,nofail', path);
      }
    }
  };
  const ops = [...operations];
  if (ops[0] !== 'm' || ops[1] !== '/') mount('/', '/', 'none', 'rbind');
  for (let mirrors = 0; ops.length;) {
    const op = ops.shift()!;
    if (op === 'm') {
      await mirror(ops.shift()!, ++mirrors);
    } else if (op === TMP_OP) {
      const tmp = join(root, 'tmp');
      await mkdir(tmp, { recursive: true });
      await chmod(tmp, 0o1777);
      mount(tmp, TMP, 'none', 'bind,X-mount.mkdir', tmp);
    } else if (op === OWN_PROC[0]) {
      mount('proc', '/proc', 'proc', 'defaults');
    } else if (op === 'b' || op === 'r') {
      const [src, dst] = [ops.shift()!, ops.shift()!];
      const options = op === 'r' ? 'bind,ro' : 'bind';
      if ((await stat(src).catch(() => undefined))?.isDirectory()) {
        mount(src, dst, 'none', `${options},X-mount.mkdir`, src);
        continue;
      }
      // a file's mount point, where it is not the host's own path (a missing one there is mirrored: see rootOperations)
      const at = hostOf(dst);
      if (!at.own && !(await stat(at.host).catch(() => undefined))) {
        await mkdir(dirname(at.host), { recursive: true });
        await writeFile(at.host, '', { flag: 'a' });
      }
      mount(src, dst, 'none', options, src);
    } else {
      throw new Error(`unknown container root operation ${op}`);
    }
  }
  const fstab = join(root, 'mounts.fstab');
  await writeFile(fstab, `${lines.join('\n')}\n`);
  return fstab;
}

/**
 * The operation that gives the root a /proc of the PID namespace it runs in (a pod sandbox's), as a container's is:
 * its processes and the pod's, not the node's.
 */
export const OWN_PROC = ['p'];

/** The argv that builds the container's root at `root` (an empty host directory) and runs `argv` in it, in `cwd`. */
export const rootedArgv = async (root: string, cwd: string, ops: string[], argv: string[]): Promise<string[]> =>
  wrapperArgv(ROOT_SCRIPT, root, await rootFstab(root, ops), cwd, ...argv);

/** The argv that runs `cmd` in a running container's root (entered with nsenter --root), in the container's working dir. */
export const inRootArgv = (cwd: string, cmd: string[]): string[] => wrapperArgv(IN_DIR, cwd, ...cmd);

/** Where a path inside the container is on the host (through the volume mounted there), for looking commands up. */
export const hostPathOf = (path: string, mounts: Mount[]): string => {
  const m = mounts.filter((x) => within(path, x.containerPath)).sort((a, b) => b.containerPath.length - a.containerPath.length)[0];
  return m ? join(m.hostPath, relative(m.containerPath, path)) : path;
};

/** Whether roots can be built here: root, a mount namespace, tmpfs and bind mounts (a mirror of "/" tried once in `scratch`). */
export async function canMakeRoots(scratch: string): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  await mkdir(scratch, { recursive: true });
  try {
    const argv = await rootedArgv(scratch, '/', ['m', '/'], ['true']);
    return await new Promise<boolean>((resolve) => {
      execFile('sh', ['-c', 'exec 3>/dev/null; exec "$@"', 'probe', 'unshare', '--mount', '--propagation', 'private', '--', ...argv],
        (err) => resolve(!err));
    });
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * The host directory a container's root is built in, one per attempt: on the host it holds the fstab of its mounts,
 * the empty directory `root` they are made on (the mounts are the container's namespace's alone), its mirrors and
 * its /tmp; it goes with the pod's directory.
 */
export async function rootDirFor(podDir: string, container: string, attempt: number): Promise<string> {
  const dir = join(podDir, 'roots', `${container}-${attempt}`);
  await mkdir(dir, { recursive: true });
  return dir;
}
