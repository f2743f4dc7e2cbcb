// The process runtime: every container is a real local process (its command and args, env, working dir) in its own
// process group, owned by a shim (shim.ts) that writes its stdout/stderr to a log file in the CRI format
// ("<RFC3339Nano> stdout|stderr F|P <line>") and records its exit (128+N for signal N); stop is SIGTERM, then SIGKILL
// after the grace period. A container runs its command or its image's entrypoint from the image catalog
// (config/images.json; an image outside it idles, as user 65532: image-catalog.ts). Pods share the host network, so
// a pod's IP is the node's, unless the runtime is given pod sandboxes (sandbox/pod-sandbox.ts): then each pod not on
// the host network gets its namespaces, address and cgroups, and its containers run inside them. Sandboxes and containers are recorded under <root>/runtime
// (process-state.ts), so a kubelet that restarts finds them again, running containers included.
import { execFile } from 'node:child_process';
import { execToEnd } from './exec-to-end.js';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { access, constants as fsConstants, lstat, mkdir, readdir, readlink, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { constants as osConstants, hostname as nodeHostname, tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { realClock } from '../../client/index.js';
import { forkedChild, type PodSandbox, type PodSandboxes } from '../sandbox/pod-sandbox.js';
import { BUILTINS, TOOLS } from './builtins.js';
import { imageArgv, imageRepository, imageUser, loadImageCatalog, type ImageCatalog } from './image-catalog.js';
import { RuntimeState, type ContainerRecord } from './process-state.js';
import { AttachHub, dialInNetns, dialPod, execNotFoundMessage, execStreaming, PTY_AVAILABLE, resizePty } from './process-streams.js';
import { diskUsage, filesystemOf, NO_USAGE } from '../disk-usage.js';
import { cgroupUsage, handlesSignal, killSessionTree, netDev, processGroupUsage, processRunning } from './procfs.js';
import { readCriLog } from './cri-log.js';
import { newId } from './ids.js';
import { ShimHandle } from './shim-client.js';
import { WRAPPER_SHELL, wrapperArgv } from './wrapper-shell.js';
import { canMakeRoots, hostPathOf, hostView, inRootArgv, OWN_PROC, rootDirFor, rootedArgv, rootOperations } from './container-root.js';
import { notFoundMessage, type ShimExit } from './shim-protocol.js';
import {
  normalizeImage, type ContainerConfig, type ContainerStatus, type ContainerUser, type ContainerUsage, type DiskUsage, type ExecResult, type FsInfo, type ImageInfo,
  type InterfaceStats, type LogChunk, type LogCursor, type LogOptions, type Mount, type Runtime, type RuntimeEvent, type SandboxConfig, type SandboxStatus, type StreamingOptions,
  type StreamingSession,
} from './types.js';

export interface ProcessRuntimeOptions {
  rootDir: string;
  /** The node's address: the IP of pods on the host network. */
  hostIp: string;
  catalog?: ImageCatalog;
  /** Pods get sandboxes of their own (root on Linux); without, every pod is on the host network. */
  sandboxes?: PodSandboxes;
  /** The command that runs a container's shim, given its state directory (default: this package's `mini-kube container-shim`). */
  shim?: string[];
  logger?: Logger;
  /**
   * close() stops every container and sandbox (default: a node going away, as `mini-kube up` ends its cluster);
   * false leaves them to their shims, as a stopped upstream kubelet leaves its containers to the container runtime,
   * and the next kubelet on the same root dir adopts them.
   */
  stopContainersOnClose?: boolean;
  /**
   * An image the catalog does not know: pulled as a stand-in (`simulate`, the default: `kubectl create deployment
   * --image=anything` runs) or not found (`fail`: ErrImagePull, then ImagePullBackOff, as a registry would answer).
   */
  unknownImages?: 'simulate' | 'fail';
}

interface ProcContainer extends ContainerStatus, ContainerRecord {
  /** The shim that owns the process, once started. */
  shim?: ShimHandle;
  /** Resolves when the container has exited and its state says so. */
  exited?: Promise<void>;
  /** The running process's stdio for attached clients. */
  hub?: AttachHub;
  /** The most CPU time reported, which the next report never goes below (a counter, as a cgroup's). */
  cpuNs?: number;
  /** Kills each exec still running in the container. */
  execs?: Set<() => void>;
}

/** `mini-kube container-shim` of this package: the bundle next to this chunk, or dist/bin from the compiled tree or the sources. */
/** util-linux setsid (-c: the terminal on stdin made the new session's; -w: its child's exit code), where there is one. */
const SIGTERM = osConstants.signals.SIGTERM;
const SETSID = ['/usr/bin/setsid', '/bin/setsid'].find((p) => existsSync(p));
/** argv as the leader of a session its terminal belongs to (see execArgv), where setsid is there. */
const leadingItsTerminal = (argv: string[]): string[] => (SETSID ? [SETSID, '-c', '-w', ...argv] : argv);

const defaultShim = (): string[] => {
  const here = dirname(fileURLToPath(import.meta.url));
  const main = [join(here, 'mini-kube.mjs'), join(here, '../../../bin/mini-kube.mjs'), join(here, '../../../dist/bin/mini-kube.mjs')].find((p) => existsSync(p));
  if (!main) throw new Error('cannot find the mini-kube bundle that runs container shims: run "npm run build"');
  return [process.execPath, main, 'container-shim'];
};


/** Whether `cmd` names an executable as execvp would find it (a wrapper runs it later, so spawn cannot tell). */
const findExecutable = async (cmd: string, path: string, cwd: string): Promise<boolean> => {
  const candidates = cmd.includes('/') ? [isAbsolute(cmd) ? cmd : resolve(cwd, cmd)] : path.split(delimiter).filter(Boolean).map((d) => join(d, cmd));
  for (const c of candidates) {
    try { await access(c, fsConstants.X_OK); return true; } catch { /* next */ }
  }
  return false;
};

/** Whether the container finds `cmd` (its PATH, its working dir; through the volumes of a root of its own). */
/**
 * As containerd's CRI at CreateContainer: a mount's host path that does not exist is made, a directory (0755), so a
 * hostPath volume of no type (or a hostPath PV) at a missing path is an empty directory, not a failed mount.
 */
async function makeMissingSources(mounts: Mount[]): Promise<void> {
  for (const m of mounts) {
    const missing = await stat(m.hostPath).then(() => false, (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return true;
      throw new Error(`failed to stat ${JSON.stringify(m.hostPath)}: ${e.message}`);
    });
    if (missing) await mkdir(m.hostPath, { recursive: true, mode: 0o755 }).catch((e: Error) => { throw new Error(`failed to mkdir ${JSON.stringify(m.hostPath)}: ${e.message}`); });
  }
}

const commandFound = (c: ContainerRecord, cmd: string, mounts: Mount[]): Promise<boolean> =>
  findExecutable(hostPathOf(cmd, mounts), c.env.PATH ?? '', hostPathOf(c.cwd, mounts));

/** The PATH the wrappers around a container's command find their tools with (mount, chroot, nsenter, setpriv). */
const NODE_PATH = process.env.PATH ?? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * A wrapped command's argv and env, as runc runs a container's process: the container's PATH serves only to find its
 * command (one without /usr/sbin must not lose the wrappers' chroot), so the wrappers run with the node's, and the
 * innermost one gives the command the container's back.
 */
const wrappedEnv = (env: Record<string, string>): Record<string, string> => ({ ...env, PATH: NODE_PATH });
const withOwnPath = (env: Record<string, string>, argv: string[]): string[] => wrapperArgv('PATH=$0 && exec "$@"', env.PATH ?? '', ...argv);

/** Unix socket paths are short (108 bytes): a long root dir puts its shims' sockets under the temp dir instead. */
const socketDir = (rootDir: string): string => {
  const own = join(rootDir, 'run');
  return own.length + 22 <= 107 ? own : join(tmpdir(), `mini-kube-${createHash('sha256').update(rootDir).digest('hex').slice(0, 12)}`);
};

export class ProcessRuntime implements Runtime {
  readonly name = 'process';
  private readonly catalog: ImageCatalog;
  private readonly sandboxes = new Map<string, SandboxStatus>();
  private readonly containers = new Map<string, ProcContainer>();
  private readonly images = new Map<string, ImageInfo>();
  private readonly listeners = new Set<(ev: RuntimeEvent) => void>();
  /** The namespaces, address and pause process of each sandboxed pod, by sandbox id. */
  private readonly pods = new Map<string, PodSandbox>();
  private builtinsWritten?: Promise<void>;
  private reclaimed?: Promise<void>;
  private readonly state: RuntimeState;
  private readonly sockets: string;
  private shimCommand?: string[];
  private bindable?: Promise<boolean>;
  private rootable?: Promise<boolean>;
  /** What stays visible in a container's own /tmp: the kubelet's directory (its links resolved) and Node's. */
  private keptInTmp?: Promise<string[]>;

  constructor(private readonly o: ProcessRuntimeOptions) {
    this.catalog = o.catalog ?? loadImageCatalog();
    this.state = new RuntimeState(join(o.rootDir, 'runtime'));
    this.sockets = socketDir(o.rootDir);
    this.recover();
  }

  /**
   * What an earlier kubelet on this root dir left: its sandboxes (ready while their pause lives) and containers
   * (running while their shim does, else exited as the shim recorded), so that running pods are not restarted.
   */
  private recover(): void {
    for (const { status, pod } of this.state.sandboxes()) {
      if (pod) this.pods.set(status.id, pod);
      this.sandboxes.set(status.id, status);
    }
    this.noticeDeadPauses();
    for (const rec of this.state.containers()) {
      const c: ProcContainer = { ...rec, state: 'created' };
      this.containers.set(c.id, c);
      this.track(c, ShimHandle.adopt(this.state.containerDir(c.id), this.socketPath(c.id)));
    }
  }

  version(): { runtimeName: string; runtimeVersion: string; runtimeApiVersion: string } {
    return { runtimeName: 'process', runtimeVersion: '0.1.0', runtimeApiVersion: 'v1' };
  }

  imageStatus(image: string): ImageInfo | undefined { return this.images.get(normalizeImage(image)); }

  listImages(): ImageInfo[] { return [...this.images.values()]; }

  pullImage(image: string): Promise<ImageInfo> {
    const name = normalizeImage(image);
    let info = this.images.get(name);
    if (!info) {
      const known = Object.hasOwn(this.catalog, imageRepository(image));
      if (!known && this.o.unknownImages === 'fail') {
        // containerd's answer for an image its registry does not have
        return Promise.reject(new Error(`rpc error: code = NotFound desc = failed to pull and unpack image "${name}": failed to resolve reference "${name}": ${name}: not found`));
      }
      const digest = createHash('sha256').update(name).digest('hex');
      const user = imageUser(this.catalog, image);
      info = {
        image: name, imageRef: `${name.replace(/@.*$/, '').replace(/:[^:/]*$/, '')}@sha256:${digest}`, size: 4_000_000,
        ...(known ? {} : { simulated: true }), ...(user ? { user } : {}),
      };
      this.images.set(name, info);
    }
    return Promise.resolve(info);
  }

  async runPodSandbox(config: SandboxConfig): Promise<string> {
    const id = newId();
    // the one probe of containers' roots (~30 execs) runs beside the first sandbox's set-up, not in its first container's start
    void this.canRoot().catch(() => false);
    const podDir = this.podDir(config.uid);
    await mkdir(podDir, { recursive: true });
    let ip = this.o.hostIp;
    const sandboxes = this.o.sandboxes;
    if (sandboxes && !config.hostNetwork) {
      this.reclaimed ??= sandboxes.reclaim();
      await this.reclaimed;
      const pod = await sandboxes.create({
        id, podUid: config.uid, hostname: config.hostname ?? config.name, dns: config.dnsConfig, hosts: config.hosts, podDir,
      });
      this.pods.set(id, pod);
      ip = pod.ip;
    }
    const status: SandboxStatus = { id, config, state: 'ready', createdAt: Date.now(), ip };
    this.sandboxes.set(id, status);
    this.state.saveSandbox(status, this.pods.get(id));
    this.emit({ podUid: config.uid, sandboxId: id });
    return id;
  }

  async stopPodSandbox(id: string): Promise<void> {
    const sb = this.sandboxes.get(id);
    if (!sb) return;
    await Promise.all([...this.containers.values()].filter((c) => c.sandboxId === id && c.state === 'running').map((c) => this.stopContainer(c.id, 0)));
    const pod = this.pods.get(id);
    if (pod) {
      this.pods.delete(id);
      await this.o.sandboxes!.stop(pod);
    }
    const wasReady = sb.state === 'ready';
    sb.state = 'notready';
    // recorded without its namespaces once they are gone (one whose pause died kept them until now)
    if (wasReady || pod) this.state.saveSandbox(sb);
    if (wasReady) this.emit({ podUid: sb.config.uid, sandboxId: id });
  }

  async removePodSandbox(id: string): Promise<void> {
    const sb = this.sandboxes.get(id);
    if (!sb) return;
    await this.stopPodSandbox(id);
    for (const c of [...this.containers.values()]) if (c.sandboxId === id) await this.removeContainer(c.id);
    await this.o.sandboxes?.cgroups?.removePod(sb.config.uid).catch(() => undefined);
    this.sandboxes.delete(id);
    this.state.removeSandbox(id);
  }

  /**
   * A sandbox whose pause process is gone (killed, OOM) is NOTREADY, as containerd reports one whose pause task
   * exited: the PLEG's next relist sees it and the kubelet makes the pod a new one. Its network stays until
   * StopPodSandbox. A pause that has begun to exit counts as gone: the pod's processes die with it, and one may be
   * reported exited (its parent, outside the namespace, reaps it) while the pause still waits for that to end its
   * exit; the kubelet must not take the sandbox for a ready one and restart the container in it.
   */
  private noticeDeadPauses(): void {
    for (const [id, pod] of this.pods) {
      const sb = this.sandboxes.get(id);
      if (sb?.state !== 'ready' || processRunning(pod.pausePid)) continue;
      sb.state = 'notready';
      this.state.saveSandbox(sb, pod);
      this.emit({ podUid: sb.config.uid, sandboxId: id });
    }
  }

  podSandboxStatus(id: string): SandboxStatus | undefined { this.noticeDeadPauses(); const s = this.sandboxes.get(id); return s && { ...s }; }

  listPodSandboxes(podUid?: string): SandboxStatus[] {
    this.noticeDeadPauses();
    return [...this.sandboxes.values()].filter((s) => podUid === undefined || s.config.uid === podUid).map((s) => ({ ...s }));
  }

  async createContainer(sandboxId: string, config: ContainerConfig): Promise<string> {
    const sb = this.sandboxes.get(sandboxId);
    if (!sb || sb.state !== 'ready') throw new Error(`sandbox ${sandboxId} is not ready`);
    const id = newId();
    const dir = join(this.podDir(sb.config.uid), config.name);
    await mkdir(dir, { recursive: true });
    await makeMissingSources(config.mounts ?? []);
    const info = this.imageStatus(config.image);
    await this.writeBuiltins();
    const env: Record<string, string> = {
      PATH: `${process.env.PATH ?? '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'}:${this.toolsDir()}`,
      // containerd's: the sandbox's hostname, the node's for a sandbox without one (a host-network pod's)
      HOSTNAME: sb.config.hostname ?? nodeHostname(), HOME: dir,
      // containerd's WithTTY: a terminal container has TERM=xterm unless its image or its spec say otherwise
      ...(config.tty ? { TERM: 'xterm' } : {}),
    };
    for (const e of this.catalog[imageRepository(config.image)]?.env ?? []) { const i = e.indexOf('='); if (i > 0) env[e.slice(0, i)] = e.slice(i + 1); }
    for (const e of config.env ?? []) env[e.name] = e.value;
    const pod = this.pods.get(sandboxId);
    if (pod && env.MINI_KUBE_ROOTFS) await linkEtc(env.MINI_KUBE_ROOTFS, pod.etcDir);
    const rec: ContainerRecord = {
      id, sandboxId, podUid: sb.config.uid, name: config.name, attempt: config.attempt,
      image: info?.image ?? normalizeImage(config.image), imageRef: info?.imageRef ?? '', createdAt: Date.now(), config,
      logPath: join(dir, `${config.attempt}.log`), env, cwd: config.workingDir ?? dir,
    };
    this.state.saveContainer(rec);
    this.containers.set(id, { ...rec, state: 'created' });
    this.emit({ podUid: sb.config.uid, containerId: id });
    return id;
  }

  async startContainer(id: string): Promise<void> {
    const c = this.mustGet(id);
    if (c.state !== 'created') throw new Error(`container ${id} is ${c.state}, not created`);
    const own = imageArgv(this.catalog, c.config.image, c.config, builtinArgv);
    const pod = this.pods.get(c.sandboxId);
    const mounts = c.config.mounts ?? [];
    // in a sandbox every container gets a root, for a /proc of the pod's PID namespace (ps in an ephemeral container
    // or one without volumes showed the node's processes)
    const rooted = (mounts.length > 0 || pod !== undefined) && (await this.canRoot());
    if (c.config.workingDir && !rooted) await mkdir(c.config.workingDir, { recursive: true }).catch(() => undefined);
    const binds = rooted || !(await this.canBind()) ? [] : [...new Set(await Promise.all(mounts.filter((m) => m.readOnly).map((m) => realpath(m.hostPath).catch(() => m.hostPath))))];
    const wrapped = pod !== undefined || binds.length > 0 || rooted || switchesUser(c.config.user);
    // behind a wrapper, a missing command would be the wrapper's failure: it is looked for first
    if (wrapped && !(await commandFound(c, own[0]!, rooted ? mounts : []))) {
      const exit = { exitCode: 128, finishedAt: Date.now(), startError: notFoundMessage(own[0]!) };
      this.state.saveExit(id, exit);
      this.exitedWith(c, exit);
      throw new Error(exit.startError);
    }
    let argv = asUser(c.config.user, wrapped ? withOwnPath(c.env, own) : own);
    // a tty container's process leads the terminal's session inside the pod's PID namespace (see execArgv)
    if (pod && c.config.tty && PTY_AVAILABLE) argv = leadingItsTerminal(argv);
    if (rooted) {
      // a file mounted in /dev (the termination log) gets its mount point made on the node, once: else the root
      // would mirror the node's /dev, a mount per device, for every container
      for (const m of mounts) {
        if (dirname(m.containerPath) === '/dev' && (await stat(m.hostPath).catch(() => undefined))?.isFile()) await writeFile(m.containerPath, '', { flag: 'wx' }).catch(() => undefined);
      }
      c.root = await rootDirFor(this.podDir(c.podUid), c.name, c.attempt);
      // a /tmp of its own, as a container has, in which the kubelet's directory stays (the pod's files, the tools)
      this.keptInTmp ??= realpath(this.o.rootDir).catch(() => this.o.rootDir).then((dir) => [dir, dirname(process.execPath)]);
      const root = await rootOperations(mounts, c.cwd, hostView, { keep: await this.keptInTmp });
      argv = await rootedArgv(c.root, root.cwd, [...root.ops, ...(pod ? OWN_PROC : [])], argv);
    } else if (binds.length) {
      argv = readOnlyBinds(binds, argv);
    }
    // in a sandbox `ip netns exec` already gives the container a mount namespace of its own; else unshare makes one
    if ((rooted || binds.length) && !pod) argv = ['unshare', '--mount', '--propagation', 'private', '--', ...argv];
    if (pod) {
      c.cgroup = await this.o.sandboxes!.containerCgroup(pod, id, c.config.resources ?? {});
      argv = this.o.sandboxes!.wrap(pod, argv, c.cgroup);
    }
    this.state.saveContainer(c);
    await mkdir(this.sockets, { recursive: true });
    this.shimCommand ??= this.o.shim ?? defaultShim();
    const shim = await ShimHandle.start(this.shimCommand, this.state.containerDir(id), {
      argv, env: wrapped ? wrappedEnv(c.env) : c.env, cwd: hostCwd(c), logPath: c.logPath, socket: this.socketPath(id), stdin: c.config.stdin === true, tty: c.config.tty === true,
      ...(c.root ? { startedByte: true } : {}),
    });
    this.track(c, shim);
    this.emit({ podUid: c.podUid, containerId: id });
    if (shim.exit?.startError !== undefined) throw new Error(shim.exit.startError);
  }

  /** Follows the container through its shim: running once started (attach joins its stdio), exited at its exit. */
  private track(c: ProcContainer, shim: ShimHandle): void {
    c.shim = shim;
    const started = shim.started;
    if (started) Object.assign(c, { state: 'running', startedAt: started.startedAt });
    if (shim.exit) { this.exitedWith(c, shim.exit); c.exited = Promise.resolve(); return; }
    if (started) {
      const tty = c.config.tty === true && PTY_AVAILABLE;
      c.hub = new AttachHub(c.config.stdin ? shim.stdin() : undefined, c.config.stdinOnce === true, shim.exited.then((e) => e.exitCode),
        tty ? (w, h) => { resizePty(started.pid, w, h).catch(() => undefined); } : undefined);
      const hub = c.hub;
      shim.output = { stdout: (b) => hub.stdout(b), stderr: (b) => hub.stderr(b) };
    }
    c.exited = shim.exited.then((exit) => {
      if (c.state === 'exited') return;
      this.exitedWith(c, exit);
    });
  }

  private exitedWith(c: ProcContainer, exit: ShimExit): void {
    c.hub?.end();
    for (const kill of c.execs ?? []) kill();
    c.execs?.clear();
    if (exit.startError !== undefined) {
      // never started: containerd's zero start time, which the kubelet reports as the epoch (1970-01-01T00:00:00Z)
      Object.assign(c, { state: 'exited', exitCode: 128, reason: 'StartError', message: exit.startError, finishedAt: exit.finishedAt, startedAt: 0 });
    } else {
      const oom = exit.signal === 'SIGKILL' && (c.message === 'OOMKilled' || (c.cgroup !== undefined && oomKilled(c.cgroup)));
      Object.assign(c, { state: 'exited', exitCode: exit.exitCode, reason: exit.exitCode === 0 ? 'Completed' : oom ? 'OOMKilled' : 'Error', finishedAt: exit.finishedAt });
    }
    this.emit({ podUid: c.podUid, containerId: c.id });
  }

  async stopContainer(id: string, timeoutSeconds: number): Promise<void> {
    const c = this.containers.get(id);
    const pid = c?.shim?.started?.pid;
    if (!c || c.state !== 'running' || pid === undefined) return;
    const signal = (s: NodeJS.Signals, target: number): void => { try { process.kill(target, s); } catch { /* gone */ } };
    // SIGTERM goes to the container's own process alone (as a runtime signals a container's init), SIGKILL to all it
    // started, in whatever group or session (a tty container's command leads a session of its own). Upstream that
    // process is PID 1 of a namespace of its own unless the pod shares one: SIGTERM is then lost on a process
    // without a handler for it (a `sleep`, a shell without a trap), which runs until the grace period's SIGKILL
    // (exit code 137).
    const { top, main } = await this.processesOf(c, pid);
    const ownInit = !this.sandboxes.get(c.sandboxId)?.config.sharedPidNamespace;
    if (!ownInit || handlesSignal(main ?? top, SIGTERM)) signal('SIGTERM', main ?? -top);
    // the clock's timer: a grace period past setTimeout's ~24.8 days would otherwise fire at once
    const killer = realClock.setTimer(() => killSessionTree(pid), Math.max(0, timeoutSeconds) * 1000);
    await c.exited;
    killer.cancel();
  }

  async removeContainer(id: string): Promise<void> {
    const c = this.containers.get(id);
    if (!c) return;
    if (c.state === 'running') await this.stopContainer(id, 0);
    c.shim?.detach();
    if (c.cgroup) await this.o.sandboxes?.cgroups?.remove(c.cgroup).catch(() => undefined);
    this.containers.delete(id);
    await this.state.removeContainer(id);
    await rm(this.socketPath(id), { force: true });
    this.emit({ podUid: c.podUid, containerId: id });
  }

  containerStatus(id: string): ContainerStatus | undefined { const c = this.containers.get(id); return c && publicStatus(c); }

  listContainers(podUid?: string): ContainerStatus[] {
    return [...this.containers.values()].filter((c) => podUid === undefined || c.podUid === podUid).map(publicStatus);
  }

  async execSync(id: string, cmd: string[], timeoutSeconds = 0, signal?: AbortSignal): Promise<ExecResult> {
    const c = this.mustGet(id);
    // containerd's error, as the kubelet gets it over the CRI
    if (c.state !== 'running') throw new Error(`rpc error: code = Unknown desc = failed to exec in container: container is in CONTAINER_${c.state.toUpperCase()} state`);
    let run: { argv: string[]; env: Record<string, string> };
    try { run = await this.execArgv(c, cmd); } catch (err) { return { stdout: '', stderr: (err as Error).message, exitCode: 126 }; }
    const ended = new AbortController();
    const result = execToEnd(run.argv, { cwd: hostCwd(c), env: run.env, timeoutSeconds, signal: signal ? AbortSignal.any([signal, ended.signal]) : ended.signal });
    this.endsWithContainer(c, () => ended.abort(), result);
    return result;
  }

  async exec(id: string, cmd: string[], o: StreamingOptions): Promise<StreamingSession> {
    const c = this.mustGet(id);
    if (c.state !== 'running') throw new Error(`container ${id} is not running`);
    const { argv, env } = await this.execArgv(c, cmd, o.tty === true && PTY_AVAILABLE);
    const session = await execStreaming(argv, env, hostCwd(c), o);
    this.endsWithContainer(c, () => session.close(), session.exited);
    return session;
  }

  /**
   * An exec lives no longer than its container: its processes are killed when the container exits, as the kernel
   * kills what is left in a PID namespace whose init has exited (runc kills what is left in the container's cgroup
   * when the namespace is shared). Its client sees exit code 137.
   */
  private endsWithContainer(c: ProcContainer, kill: () => void, done: Promise<unknown>): void {
    if (c.state !== 'running') { kill(); return; }
    (c.execs ??= new Set()).add(kill);
    const forget = (): void => { c.execs?.delete(kill); };
    done.then(forget, forget);
  }

  attach(id: string, o: StreamingOptions): Promise<StreamingSession> {
    const c = this.mustGet(id);
    if (c.state !== 'running' || !c.hub) return Promise.reject(new Error(`container ${id} is not running`));
    return Promise.resolve(c.hub.attach(o));
  }

  portForward(sandboxId: string, port: number): Promise<Duplex> {
    const sb = this.sandboxes.get(sandboxId);
    if (!sb || sb.state !== 'ready') return Promise.reject(new Error(`sandbox ${sandboxId} is not ready`));
    const pod = this.pods.get(sandboxId);
    return pod ? dialInNetns(pod.netns, port) : dialPod(sb.ip, port);
  }

  logs(id: string, o: LogOptions = {}, cursor?: LogCursor): Promise<LogChunk> {
    return readCriLog(this.mustGet(id).logPath, o, cursor);
  }

  /** CRI's ReopenContainerLog: the shim writes to a new file at the log path (the old one was rotated away). */
  async reopenContainerLog(id: string): Promise<void> {
    const c = this.mustGet(id);
    if (c.state !== 'running' || !c.shim) throw new Error(`container ${id} is not running`);
    await c.shim.reopenLog();
  }

  /**
   * A container's processes behind its wrappers: `top` leads its process group (a tty container's is the session
   * `script` made on the pty); in a sandbox, `main` is what nsenter forked and waits for, the container's own.
   */
  private async processesOf(c: ProcContainer, pid: number): Promise<{ top: number; main?: number }> {
    const top = c.config.tty && PTY_AVAILABLE ? (await forkedChild(pid, 1_000)) ?? pid : pid;
    return { top, main: this.pods.has(c.sandboxId) ? await forkedChild(top, 1_000) : undefined };
  }

  /**
   * The argv that runs `cmd` where the container runs, as runc exec does: in the namespaces of the container's own
   * process, so that it sees the container's mounts (its root, read-only binds, the sandbox's /etc) when it has a
   * mount namespace of its own; else in its pod's namespaces when it has a sandbox, or as it is.
   */
  private async execArgv(c: ProcContainer, cmd: string[], tty = false): Promise<{ argv: string[]; env: Record<string, string> }> {
    const pod = this.pods.get(c.sandboxId);
    const pid = c.shim?.started?.pid;
    let enter: ((run: string[]) => string[]) | undefined;
    if (pid !== undefined) {
      const { top, main } = await this.processesOf(c, pid);
      const target = main ?? top;
      const [mine, theirs] = await Promise.all([readlink('/proc/self/ns/mnt').catch(() => ''), readlink(`/proc/${target}/ns/mnt`).catch(() => '')]);
      if (theirs && theirs !== mine) {
        enter = (run) => ['nsenter', `--target=${target}`, '--mount', ...(c.root ? ['--root', '--wd'] : []), ...(pod ? ['--pid', '--ipc', '--uts', '--net'] : []), '--',
          ...(c.root ? inRootArgv(c.cwd, run) : run)];
      }
    }
    if (!enter && pod) enter = (run) => this.o.sandboxes!.wrap(pod, run);
    if (!enter && !switchesUser(c.config.user)) return { argv: cmd, env: c.env };
    // behind a wrapper, a missing command would be the wrapper's failure: it is looked for first
    if (!(await commandFound(c, cmd[0] ?? '', c.root ? c.config.mounts ?? [] : []))) throw new Error(execNotFoundMessage(cmd[0] ?? ''));
    // as runc exec, as the container's user; on a tty, as the leader of a session of its own that the terminal
    // belongs to, as runc makes it: entering a PID namespace forks, and a shell whose terminal's process group it
    // cannot see fails to give the terminal back when it exits ("Cannot set tty process group", exit code 2)
    const own = asUser(c.config.user, withOwnPath(c.env, cmd));
    const run = tty && pod ? leadingItsTerminal(own) : own;
    return { argv: enter ? enter(run) : run, env: wrappedEnv(c.env) };
  }

  /** The log file of a container. */
  logPath(id: string): string | undefined { return this.containers.get(id)?.logPath; }

  /** A sandbox's interfaces as its pause process sees them (its netns); the node's for one on the host network. */
  interfaceStats(sandboxId?: string): InterfaceStats[] {
    const pod = sandboxId === undefined ? undefined : this.pods.get(sandboxId);
    return pod ? netDev(`/proc/${pod.pausePid}/net/dev`) : netDev();
  }

  /** The container's directory (its home and working dir: what it writes) and its log files there, all attempts'. */
  async containerDiskUsage(id: string): Promise<{ rootfs: DiskUsage; logs: DiskUsage }> {
    const c = this.mustGet(id);
    const dir = dirname(c.logPath);
    const isLog = (name: string): boolean => name.endsWith('.log');
    const logs = { ...NO_USAGE };
    for (const name of (await readdir(dir).catch(() => [] as string[])).filter(isLog)) {
      const u = await diskUsage(join(dir, name));
      logs.bytes += u.bytes;
      logs.inodes += u.inodes;
    }
    return { rootfs: await diskUsage(dir, isLog), logs };
  }

  filesystem(): Promise<FsInfo | undefined> { return filesystemOf(this.o.rootDir); }

  subscribe(fn: (ev: RuntimeEvent) => void): () => void { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  containerUsage(): Map<string, ContainerUsage> {
    const running = [...this.containers.values()].filter((c) => c.state === 'running' && c.shim?.started?.pid !== undefined);
    // a container in its own cgroup is measured as cadvisor does; the others by their process group
    const usage = processGroupUsage(new Set(running.filter((c) => !c.cgroup).map((c) => c.shim!.started!.pid)));
    const out = new Map<string, ContainerUsage>();
    for (const c of running) {
      const u = c.cgroup ? cgroupUsage(c.cgroup) : usage.get(c.shim!.started!.pid);
      // a process group's sum can dip (a reaped child's time is kept in whole clock ticks only)
      if (u) out.set(c.id, { cpuCoreNanoSeconds: (c.cpuNs = Math.max(c.cpuNs ?? 0, u.cpuNs)), memoryWorkingSetBytes: u.rssBytes });
    }
    return out;
  }

  async close(): Promise<void> {
    if (this.o.stopContainersOnClose !== false) {
      await Promise.all([...this.containers.values()].filter((c) => c.state === 'running').map((c) => this.stopContainer(c.id, 2)));
      for (const id of [...this.pods.keys()]) await this.stopPodSandbox(id);
    }
    for (const c of this.containers.values()) c.shim?.detach();
    this.listeners.clear();
  }

  /**
   * Whether read-only paths can be bind mounts in a mount namespace of the container's own: that takes root and a
   * kernel that lets it (not an unprivileged container); else they stay writable, with one warning.
   */
  private canBind(): Promise<boolean> {
    this.bindable ??= (process.getuid?.() !== 0 ? Promise.resolve(false) : new Promise<boolean>((resolve) => {
      execFile('unshare', ['--mount', '--propagation', 'private', '--', 'sh', '-c', 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0"', this.o.rootDir], (err) => resolve(!err));
    })).then((ok) => {
      if (!ok) this.o.logger?.warn('read-only volume mounts are not enforced: no mount namespace can be made (root and CAP_SYS_ADMIN needed)');
      return ok;
    });
    return this.bindable;
  }

  /** Whether containers with volumes get roots of their own (container-root.ts); else one warning, and links alone. */
  private canRoot(): Promise<boolean> {
    this.rootable ??= canMakeRoots(join(this.o.rootDir, 'run', 'root-probe')).then((ok) => {
      if (!ok) this.o.logger?.warn('volumes are not mounted at their mountPath (root and mount namespaces needed): containers find them under $MINI_KUBE_ROOTFS');
      return ok;
    });
    return this.rootable;
  }

  /** The Unix socket of a container's shim. */
  private socketPath(id: string): string { return join(this.sockets, `${id.slice(0, 16)}.sock`); }

  /** Where the pod's files live (volumes, container dirs, logs). */
  podDir(uid: string): string { return join(this.o.rootDir, 'pods', uid); }

  /** Once per kubelet run, each tool's program and a command for it in the directory containers' PATH ends with. */
  private writeBuiltins(): Promise<void> {
    const dir = join(this.o.rootDir, 'bin');
    const tools = this.toolsDir();
    this.builtinsWritten ??= mkdir(tools, { recursive: true }).then(() => Promise.all([
      ...TOOLS.map((n) => writeFile(join(dir, `${n}.mjs`), BUILTINS[n]!)),
      ...TOOLS.map((n) => writeFile(join(tools, n), `#!${WRAPPER_SHELL === 'sh' ? '/bin/sh' : WRAPPER_SHELL}\nexec '${process.execPath}' '${join(dir, `${n}.mjs`)}' "$@"\n`, { mode: 0o755 })),
    ])).then(() => undefined);
    return this.builtinsWritten;
  }

  private toolsDir(): string {
    return join(this.o.rootDir, 'bin', 'tools');
  }

  private mustGet(id: string): ProcContainer {
    const c = this.containers.get(id);
    if (!c) throw new Error(`container ${id} not found`);
    return c;
  }

  private emit(ev: RuntimeEvent): void { for (const l of this.listeners) l(ev); }
}

/**
 * argv that first binds each path read-only over itself (in the mount namespace it runs in), then execs `argv`; a
 * bind that fails stops the container (exit 126, mount's message in its log).
 */
const readOnlyBinds = (paths: string[], argv: string[]): string[] => [
  ...wrapperArgv('while [ "$1" != -- ]; do mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 126; shift; done; shift; exec "$@"',
    'mini-kube-mounts', ...paths, '--', ...argv),
];

/** Where a container's processes start on the host: its working dir, or its own directory when that is in its own root. */
const hostCwd = (c: ContainerRecord): string => (c.root ? dirname(c.logPath) : c.cwd);

/**
 * A builtin program's argv: its source given to this Node binary, not its file, which the container's volumes can
 * hide (an emptyDir at /tmp over a kubelet dir under /tmp) or its user be unable to read (a dir of mode 0700);
 * arguments follow `--`.
 */
const builtinArgv = (name: string): string[] => {
  if (!Object.hasOwn(BUILTINS, name)) throw new Error(`unknown builtin image program "${name}"`);
  return [process.execPath, '--input-type=module', '-e', BUILTINS[name]!, '--'];
};

/** Whether the kernel OOM-killed a process of this cgroup (read at exit, so synchronously). */
const oomKilled = (cgroup: string): boolean => {
  try { return /^oom_kill [1-9]/m.test(readFileSync(join(cgroup, 'memory.events'), 'utf8')); } catch { return false; }
};

/**
 * `argv` run as the container's user (setpriv switches after the wrappers, which need root, have done their work); as
 * it is when the runtime is not root itself, which cannot switch users.
 */
const switchesUser = (user: ContainerUser | undefined): user is ContainerUser => user !== undefined && process.getuid?.() === 0;
const asUser = (user: ContainerUser | undefined, argv: string[]): string[] =>
  switchesUser(user)
    ? ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, user.groups.length ? `--groups=${user.groups.join(',')}` : '--clear-groups', '--', ...argv]
    : argv;

/** The sandbox's /etc files under the container's $MINI_KUBE_ROOTFS (unless a volume is mounted at /etc). */
const linkEtc = async (rootfs: string, etcDir: string): Promise<void> => {
  const etc = join(rootfs, 'etc');
  if ((await lstat(etc).catch(() => undefined))?.isSymbolicLink()) return;
  await mkdir(etc, { recursive: true });
  for (const name of ['resolv.conf', 'hosts', 'hostname']) {
    if (!existsSync(join(etcDir, name))) continue;
    await rm(join(etc, name), { force: true });
    await symlink(join(etcDir, name), join(etc, name));
  }
};

const publicStatus = (c: ProcContainer): ContainerStatus => {
  const { config: _c, shim: _s, exited: _e, hub: _h, cpuNs: _cpu, env: _env, cwd: _cwd, logPath: _l, cgroup: _cg, root: _r, ...status } = c;
  return { ...status };
};
