// The fake runtime: sandboxes and containers are records with the CRI state machine (created -> running -> exited),
// no processes. As kwok does, one kubelet process can stand in for many nodes with it. Pods steer it through
// annotations (the container's name after the dot):
//   fake.mini-kube.io/exit-code.<container>: "N"   the container exits with N after run-ms (default 100 ms)
//   fake.mini-kube.io/run-ms.<container>: "MS"     how long the container runs before it exits (with exit-code, else 0)
//   fake.mini-kube.io/start-error.<container>: "message"   StartContainer fails (RunContainerError)
//   fake.mini-kube.io/pull-error: "message"        PullImage fails for every image of the pod (ErrImagePull)
//   fake.mini-kube.io/readiness-fail.<container>: "message"   its readiness probe fails (also liveness-, startup-)
// Exec runs nothing: `echo ARGS` prints ARGS, `false` exits 1, anything else exits 0 with no output. Attach and
// port-forward have no process or socket to reach and fail with a message saying so.
import { createHash } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { PassThrough } from 'node:stream';
import { realClock, type Clock, type TimerHandle } from '../../client/index.js';
import {
  normalizeImage, type ContainerConfig, type ContainerStatus, type ContainerUsage, type DiskUsage, type ExecResult, type FsInfo, type ImageInfo,
  type InterfaceStats, type LogChunk, type LogCursor, type LogOptions, type Runtime,
  type RuntimeEvent, type SandboxConfig, type SandboxStatus, type StreamingOptions, type StreamingSession,
} from './types.js';
import { SIMULATED_USER } from './image-catalog.js';
import { IpPool } from './ip-pool.js';
import { rfc3339Nano } from './cri-time.js';
import { newId } from './ids.js';

/** A CRI log timestamp for a time in milliseconds (the fake clock has no finer one). */
const criTime = (ms: number): string => rfc3339Nano(BigInt(Math.round(ms)) * 1_000_000n);

export const FAKE_ANNOTATION_PREFIX = 'fake.mini-kube.io/';

export interface FakeRuntimeOptions {
  clock?: Clock;
  /** Time between StartContainer and the container running (default 0). */
  startLatencyMs?: number;
  /** Time a pull of an absent image takes (default 0). */
  pullLatencyMs?: number;
  /** The node's spec.podCIDR, where pod IPs come from (undefined while the node has none). */
  podCidr?: () => Promise<string | undefined> | string | undefined;
  /** Pod IPs while the node has no podCIDR (no node-ipam, or not yet), as kwok's --cidr (default 10.244.0.0/24). */
  fallbackCidr?: string;
}

interface FakeSandbox extends SandboxStatus {
  /** The range its address came from, until StopPodSandbox gives it back. */
  pool?: IpPool;
}

interface FakeContainer extends ContainerStatus {
  config: ContainerConfig;
  timer?: TimerHandle;
  log: string[];
}


export class FakeRuntime implements Runtime {
  readonly name = 'fake';
  private readonly clock: Clock;
  private readonly sandboxes = new Map<string, FakeSandbox>();
  private readonly containers = new Map<string, FakeContainer>();
  private readonly images = new Map<string, ImageInfo>();
  private readonly listeners = new Set<(ev: RuntimeEvent) => void>();
  private changes = 0;
  /** By CIDR: the node's podCIDR, and the fallback range used before it had one. */
  private readonly pools = new Map<string, IpPool>();

  constructor(private readonly o: FakeRuntimeOptions = {}) {
    this.clock = o.clock ?? realClock;
  }

  version(): { runtimeName: string; runtimeVersion: string; runtimeApiVersion: string } {
    return { runtimeName: 'fake', runtimeVersion: '0.1.0', runtimeApiVersion: 'v1' };
  }

  imageStatus(image: string): ImageInfo | undefined { return this.images.get(normalizeImage(image)); }

  async pullImage(image: string, signal?: AbortSignal): Promise<ImageInfo> {
    const name = normalizeImage(image);
    const have = this.images.get(name);
    if (have) return have;
    if (this.o.pullLatencyMs) await this.clock.sleep(this.o.pullLatencyMs, signal);
    const digest = createHash('sha256').update(name).digest('hex');
    const repo = name.replace(/@.*$/, '').replace(/:[^:/]*$/, '');
    // nothing runs here: every image is one of unknown content, whose user is the simulated images' non-root one (a
    // runAsNonRoot pod starts, as on kwok's nodes)
    const info: ImageInfo = {
      image: name, imageRef: `${repo}@sha256:${digest}`, size: 1_000_000 + (parseInt(digest.slice(0, 6), 16) % 50_000_000),
      user: { uid: SIMULATED_USER, gid: SIMULATED_USER },
    };
    this.images.set(name, info);
    return info;
  }

  async runPodSandbox(config: SandboxConfig): Promise<string> {
    const id = newId();
    const cidr = (await this.o.podCidr?.()) ?? this.o.fallbackCidr ?? '10.244.0.0/24';
    let pool = this.pools.get(cidr);
    if (!pool) this.pools.set(cidr, pool = new IpPool(cidr));
    const ip = pool.allocate();
    this.sandboxes.set(id, { id, config, state: 'ready', createdAt: this.clock.now(), ip, pool });
    this.emit({ podUid: config.uid, sandboxId: id });
    return id;
  }

  async stopPodSandbox(id: string): Promise<void> {
    const sb = this.sandboxes.get(id);
    if (!sb) return;
    for (const c of this.containers.values()) if (c.sandboxId === id && c.state === 'running') await this.stopContainer(c.id, 0);
    // the network is torn down with the sandbox (CNI DEL), its address free for the next pod; the status keeps it
    sb.pool?.release(sb.ip);
    sb.pool = undefined;
    if (sb.state === 'ready') {
      sb.state = 'notready';
      this.emit({ podUid: sb.config.uid, sandboxId: id });
    }
  }

  async removePodSandbox(id: string): Promise<void> {
    const sb = this.sandboxes.get(id);
    if (!sb) return;
    await this.stopPodSandbox(id);
    for (const c of [...this.containers.values()]) if (c.sandboxId === id) await this.removeContainer(c.id);
    this.sandboxes.delete(id);
  }

  podSandboxStatus(id: string): SandboxStatus | undefined {
    const sb = this.sandboxes.get(id);
    return sb && sandboxStatus(sb);
  }

  listPodSandboxes(podUid?: string): SandboxStatus[] {
    return [...this.sandboxes.values()].filter((s) => podUid === undefined || s.config.uid === podUid).map(sandboxStatus);
  }

  createContainer(sandboxId: string, config: ContainerConfig): Promise<string> {
    const sb = this.sandboxes.get(sandboxId);
    if (!sb) return Promise.reject(new Error(`sandbox ${sandboxId} not found`));
    if (sb.state !== 'ready') return Promise.reject(new Error(`sandbox ${sandboxId} is not ready`));
    const id = newId();
    const info = this.imageStatus(config.image);
    this.containers.set(id, {
      id, sandboxId, podUid: sb.config.uid, name: config.name, attempt: config.attempt, state: 'created',
      image: info?.image ?? normalizeImage(config.image), imageRef: info?.imageRef ?? '', createdAt: this.clock.now(), config, log: [],
    });
    this.emit({ podUid: sb.config.uid, containerId: id });
    return Promise.resolve(id);
  }

  async startContainer(id: string): Promise<void> {
    const c = this.mustGet(id);
    if (c.state !== 'created') throw new Error(`container ${id} is ${c.state}, not created`);
    const a = c.config.annotations ?? {};
    const startError = a[`${FAKE_ANNOTATION_PREFIX}start-error.${c.name}`];
    if (startError !== undefined) {
      // never started: containerd's zero start time, reported as the epoch
      Object.assign(c, { state: 'exited', exitCode: 128, reason: 'StartError', message: startError, finishedAt: this.clock.now(), startedAt: 0 });
      this.emit({ podUid: c.podUid, containerId: id });
      throw new Error(startError);
    }
    if (this.o.startLatencyMs) await this.clock.sleep(this.o.startLatencyMs);
    if (c.state !== 'created') return;
    c.state = 'running';
    c.startedAt = this.clock.now();
    c.log.push(`${criTime(c.startedAt)} stdout F fake container ${c.name} started`);
    const code = a[`${FAKE_ANNOTATION_PREFIX}exit-code.${c.name}`];
    const runMs = a[`${FAKE_ANNOTATION_PREFIX}run-ms.${c.name}`];
    if (code !== undefined || runMs !== undefined) {
      const exitCode = Number(code ?? 0) || 0;
      c.timer = this.clock.setTimer(() => this.exit(c, exitCode), Number(runMs ?? 100) || 0);
    }
    this.emit({ podUid: c.podUid, containerId: id });
  }

  stopContainer(id: string, _timeoutSeconds: number): Promise<void> {
    const c = this.containers.get(id);
    if (c && (c.state === 'running' || c.state === 'created')) this.exit(c, 0);
    return Promise.resolve();
  }

  removeContainer(id: string): Promise<void> {
    const c = this.containers.get(id);
    if (!c) return Promise.resolve();
    c.timer?.cancel();
    this.containers.delete(id);
    this.emit({ podUid: c.podUid, containerId: id });
    return Promise.resolve();
  }

  containerStatus(id: string): ContainerStatus | undefined {
    const c = this.containers.get(id);
    return c && publicStatus(c);
  }

  listContainers(podUid?: string): ContainerStatus[] {
    return [...this.containers.values()].filter((c) => podUid === undefined || c.podUid === podUid).map(publicStatus);
  }

  execSync(id: string, cmd: string[], _timeoutSeconds?: number, _signal?: AbortSignal): Promise<ExecResult> {
    const c = this.mustGet(id);
    if (c.state !== 'running') return Promise.reject(new Error(`container ${id} is not running`));
    return Promise.resolve({ stdout: cmd[0] === 'echo' ? `${cmd.slice(1).join(' ')}\n` : '', stderr: '', exitCode: cmd[0] === 'false' ? 1 : 0 });
  }

  async exec(id: string, cmd: string[], o: StreamingOptions): Promise<StreamingSession> {
    const r = await this.execSync(id, cmd);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stdout.end(r.stdout);
    stderr.end(r.stderr);
    return { stdin: o.stdin ? new PassThrough().resume() : undefined, stdout, stderr: o.tty ? undefined : stderr, exited: Promise.resolve(r.exitCode), resize: () => undefined, close: () => undefined };
  }

  attach(): Promise<StreamingSession> {
    return Promise.reject(new Error('attach is not supported by the fake runtime: its containers have no stdio'));
  }

  portForward(): Promise<Duplex> {
    return Promise.reject(new Error('port forwarding is not supported by the fake runtime: its pods have no network'));
  }

  /** Probes succeed unless the pod's annotation `fake.mini-kube.io/<kind>-fail.<container>` says otherwise. */
  probe(id: string, kind: 'startup' | 'readiness' | 'liveness', _probe: unknown): Promise<{ ok: boolean; message?: string }> {
    const c = this.mustGet(id);
    const fail = c.config.annotations?.[`${FAKE_ANNOTATION_PREFIX}${kind}-fail.${c.name}`];
    return Promise.resolve(fail === undefined ? { ok: true } : { ok: false, message: fail || 'simulated failure' });
  }

  /** The simulated lines; a cursor counts lines read. */
  logs(id: string, o: LogOptions = {}, cursor?: LogCursor): Promise<LogChunk> {
    const c = this.mustGet(id);
    let lines = c.log.slice(cursor ? Math.min(cursor.offset, c.log.length) : 0);
    if (!cursor && o.tailLines !== undefined) lines = o.tailLines <= 0 ? [] : lines.slice(-o.tailLines);
    const text = lines.map((l) => `${l.split(' ').slice(o.timestamps ? 0 : 3).join(' ')}\n`).join('');
    return Promise.resolve({ text, cursor: { file: 0, offset: c.log.length } });
  }

  /** Simulated: 1% of a core since the start and 4 MiB each, so that stats and metrics show plausible figures. */
  containerUsage(now: number): Map<string, ContainerUsage> {
    // as of the stats' own timestamp: usage read a millisecond later would make the rate between two reads wrong
    const out = new Map<string, ContainerUsage>();
    for (const [id, c] of this.containers) {
      if (c.state === 'running' && c.startedAt !== undefined) out.set(id, { cpuCoreNanoSeconds: (now - c.startedAt) * 10_000, memoryWorkingSetBytes: 4 * 1024 * 1024 });
    }
    return out;
  }

  /** Simulated: eth0 of the sandbox (or the node: all of them) received 2 KB and sent 1 KB a second per running container. */
  interfaceStats(sandboxId?: string): InterfaceStats[] {
    const now = this.clock.now();
    let ms = 0;
    for (const c of this.containers.values()) {
      if ((sandboxId === undefined || c.sandboxId === sandboxId) && c.startedAt !== undefined) ms += (c.finishedAt ?? now) - c.startedAt;
    }
    return [{ name: 'eth0', rxBytes: Math.round(ms * 2), rxErrors: 0, txBytes: Math.round(ms), txErrors: 0 }];
  }

  /** The log lines kept (as the CRI log file would hold them); nothing written besides. */
  containerDiskUsage(id: string): Promise<{ rootfs: DiskUsage; logs: DiskUsage }> {
    const c = this.mustGet(id);
    return Promise.resolve({ rootfs: { bytes: 0, inodes: 0 }, logs: { bytes: logBytes(c), inodes: 1 } });
  }

  /** Simulated: a 100 GiB disk holding the pulled images and the logs. */
  filesystem(): Promise<FsInfo> {
    let used = 0;
    for (const i of this.images.values()) used += i.size;
    for (const c of this.containers.values()) used += logBytes(c);
    const inodes = 6_553_600;
    const inodesUsed = this.images.size * 100 + this.containers.size;
    return Promise.resolve({ capacityBytes: FAKE_DISK_BYTES, availableBytes: FAKE_DISK_BYTES - used, usedBytes: used, inodes, inodesFree: inodes - inodesUsed });
  }

  changeCount(): number {
    return this.changes;
  }

  subscribe(fn: (ev: RuntimeEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  close(): Promise<void> {
    for (const c of this.containers.values()) c.timer?.cancel();
    this.listeners.clear();
    return Promise.resolve();
  }

  private exit(c: FakeContainer, exitCode: number): void {
    if (c.state === 'exited') return;
    c.timer?.cancel();
    c.state = 'exited';
    c.exitCode = exitCode;
    c.reason = exitCode === 0 ? 'Completed' : 'Error';
    c.finishedAt = this.clock.now();
    c.startedAt ??= c.finishedAt;
    c.log.push(`${criTime(c.finishedAt)} stdout F fake container ${c.name} exited with code ${exitCode}`);
    this.emit({ podUid: c.podUid, containerId: c.id });
  }

  private mustGet(id: string): FakeContainer {
    const c = this.containers.get(id);
    if (!c) throw new Error(`container ${id} not found`);
    return c;
  }

  private emit(ev: RuntimeEvent): void {
    this.changes++;
    for (const l of this.listeners) l(ev);
  }
}

const FAKE_DISK_BYTES = 100 * 2 ** 30;

const logBytes = (c: FakeContainer): number => c.log.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);

const sandboxStatus = (sb: FakeSandbox): SandboxStatus => {
  const { pool: _pool, ...status } = sb;
  return status;
};

const publicStatus = (c: FakeContainer): ContainerStatus => {
  const { config: _config, timer: _timer, log: _log, ...status } = c;
  return { ...status };
};
