// A container's own root, so that its volumes are at their mountPath as in a real container (an in-cluster client
// finds /var/run/secrets/kubernetes.io/serviceaccount/token) without touching the host. In the container's mount
// namespace the host's "/" is bound recursively as the root its command runs chrooted in; a directory to make a path
// in is "mirrored" there: a tmpfs over it holds one entry per entry of the host's directory, each bound (directories
// recursively) to the host's, so what the container reads and writes there is the host's, live, while the paths it
// adds are its own; each volume is bound at its container path. Takes root and mount namespaces; the runtime probes
// for them once (canMakeRoots) and otherwise keeps the $MINI_KUBE_ROOTFS symlinks alone.
import { execFile } from 'node:child_process';
import { mkdir, realpath, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
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
 * The operations ROOT_SCRIPT performs, as its arguments: `m DIR` (mirror the host's directory, to make a path in it;
 * "/" first when a path is to be made there), `t` (a /tmp of the container's own, TMP_OP), `b SRC DST` and
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
/** ROOT_SCRIPT's operation for an empty /tmp (a tmpfs, sticky and writable by all, as an image's /tmp is). */
const TMP_OP = 't';

/**
 * Run in the container's mount namespace as `sh -c ROOT_SCRIPT mini-kube-root ROOT CWD OPS... -- ARGV...`: ROOT (a
 * host directory) gets at ROOT/root the host's "/" bound recursively, or its mirror when OPS start with `m /` (a
 * mirror is unbindable, so that binding a host directory holding it does not copy it in again); OPS follow; then,
 * with a byte to fd 3 (the shim's sign that the container has started: ShimSpec.startedByte), ARGV runs chrooted
 * there in CWD (made if missing). Anything failing stops the container with exit 126 and mount's message in its log.
 */
const IN_DIR = 'cd "$0" && exec "$@"';
const ROOT_SCRIPT = `R=$1; W=$2; shift 2
mirror() {
  s=$1; t=$2
  mount -t tmpfs -o "mode=$(stat -c %a "$s")" mini-kube-root "$t" && mount --make-unbindable "$t" || return 1
  set --
  for e in "$s"/* "$s"/.[!.]* "$s"/..?*; do [ -d "$e" ] && [ ! -L "$e" ] && set -- "$@" "$t/\${e##*/}"; done
  [ $# = 0 ] || mkdir "$@" || return 1
  for e in "$s"/* "$s"/.[!.]* "$s"/..?*; do
    [ -e "$e" ] || [ -L "$e" ] || continue
    n=$t/\${e##*/}
    if [ -L "$e" ]; then ln -s "$(readlink "$e")" "$n"
    elif [ -d "$e" ]; then mount --rbind "$e" "$n"
    else : > "$n" && mount --bind "$e" "$n"; fi || return 1
  done
}
mkdir -p "$R/root" || exit 126
if [ "$1" != m ] || [ "$2" != / ]; then mount --rbind / "$R/root" || exit 126; fi
while [ "$1" != -- ]; do
  case $1 in
    m) mirror "$2" "$R/root$2" || exit 126; shift 2 ;;
    p) mount -t proc proc "$R/root/proc" || exit 126; shift ;;
    t) mkdir -p "$R/root/tmp" && mount -t tmpfs -o mode=1777 mini-kube-tmp "$R/root/tmp" || exit 126; shift ;;
    b|r) d=$R/root$3
      if [ -d "$2" ]; then mkdir -p "$d"; else mkdir -p "\${d%/*}" && { [ -e "$d" ] || : > "$d"; }; fi || exit 126
      mount --bind "$2" "$d" || exit 126
      if [ "$1" = r ]; then mount -o remount,bind,ro "$d" || exit 126; fi
      shift 3 ;;
    *) echo "mini-kube-root: unknown operation $1" >&2; exit 126 ;;
  esac
done
shift
mkdir -p "$R/root$W" || exit 126
printf x >&3 && exec 3>&- || exit 126
exec chroot "$R/root" ${WRAPPER_SHELL} -c '${IN_DIR}' "$W" "$@"`;

/**
 * The operation that gives the root a /proc of the PID namespace it runs in (a pod sandbox's), as a container's is:
 * its processes and the pod's, not the node's.
 */
export const OWN_PROC = ['p'];

/** The argv that builds the container's root at `root` (an empty host directory) and runs `argv` in it, in `cwd`. */
export const rootedArgv = (root: string, cwd: string, ops: string[], argv: string[]): string[] =>
  wrapperArgv(ROOT_SCRIPT, 'mini-kube-root', root, cwd, ...ops, '--', ...argv);

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
    return await new Promise<boolean>((resolve) => {
      execFile('sh', ['-c', 'exec 3>/dev/null; exec "$@"', 'probe', 'unshare', '--mount', '--propagation', 'private', '--', ...rootedArgv(scratch, '/', ['m', '/'], ['true'])],
        (err) => resolve(!err));
    });
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * The host directory a container's root is mounted on, one per attempt: it stays an empty directory on the host
 * (the mounts are the container's namespace's alone) and goes with the pod's directory.
 */
export async function rootDirFor(podDir: string, container: string, attempt: number): Promise<string> {
  const dir = join(podDir, 'roots', `${container}-${attempt}`);
  await mkdir(dir, { recursive: true });
  return dir;
}
