// The container runtime as the kubelet sees it: a small CRI (RunPodSandbox ... ExecSync, logs) behind which the
// `fake` runtime simulates containers and the `process` runtime runs real local processes.
import type { Duplex } from 'node:stream';

export type ContainerState = 'created' | 'running' | 'exited' | 'unknown';
export type SandboxState = 'ready' | 'notready';

/** Who a sandbox belongs to (CRI PodSandboxMetadata) plus what the runtime may read from the pod. */
export interface SandboxConfig {
  name: string;
  namespace: string;
  uid: string;
  attempt: number;
  /** The pod's hostname; none for a host-network pod, which has the node's. */
  hostname?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  logDirectory?: string;
  /** The pod uses the node's network (no network namespace, the node's IP). */
  hostNetwork?: boolean;
  /** What the sandbox's resolv.conf says (CRI DNSConfig); none: the runtime's default. */
  dnsConfig?: DnsConfig;
  /**
   * What the pod's /etc/hosts adds (upstream's kubelet writes that file itself; here the sandbox holds it): the pod's
   * FQDN when it has a subdomain, and its spec's hostAliases.
   */
  hosts?: HostsEntries;
  /**
   * The pod's containers share one PID namespace (spec.shareProcessNamespace, CRI NamespaceMode POD): the pause is
   * its init. Else each container's process is the init of a namespace of its own, which a signal reaches only
   * when the process handles it (the kernel drops others, SIGKILL aside).
   */
  sharedPidNamespace?: boolean;
}

/** The pod's own lines in its managed /etc/hosts (`hostname`: the pod's short one, when the kernel's is its FQDN). */
export interface HostsEntries { hostname?: string; fqdn?: string; hostAliases?: { ip: string; hostnames?: string[] }[] }

/** CRI's DNSConfig. */
export interface DnsConfig { servers: string[]; searches: string[]; options: string[] }

/** CRI's LinuxContainerResources, as the kubelet computes them from the container's requests and limits. */
export interface LinuxContainerResources {
  cpuShares?: number;
  cpuQuota?: number;
  cpuPeriod?: number;
  memoryLimitBytes?: number;
}

export interface SandboxStatus {
  id: string;
  config: SandboxConfig;
  state: SandboxState;
  createdAt: number;
  ip: string;
}

/** The user a container's processes run as. */
export interface ContainerUser { uid: number; gid: number; groups: number[] }

/** A volume mount as CRI's Mount: the host path is what the container sees at containerPath (read-only if asked). */
export interface Mount { containerPath: string; hostPath: string; readOnly?: boolean }

export interface ContainerConfig {
  /** The container's name in the pod spec. */
  name: string;
  /** How many times this container was created before (CRI metadata.attempt). */
  attempt: number;
  image: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value: string }[];
  workingDir?: string;
  /** The pod's annotations (the fake runtime reads its behaviour from them). */
  annotations?: Record<string, string>;
  logPath?: string;
  /** Keep the container's stdin open for `kubectl attach -i` (spec stdin); closed after the first attach with stdinOnce. */
  stdin?: boolean;
  stdinOnce?: boolean;
  /** Run on a pseudo-terminal (spec tty): its output is stdout alone, attach can resize it. */
  tty?: boolean;
  /** Its volumes, as CRI's mounts: the process runtime binds each at its container path where it can build roots. */
  mounts?: Mount[];
  /** CRI's run_as_user, run_as_group and supplemental_groups; none: the image's user (root). */
  user?: ContainerUser;
  resources?: LinuxContainerResources;
}

export interface ContainerStatus {
  id: string;
  sandboxId: string;
  podUid: string;
  name: string;
  attempt: number;
  state: ContainerState;
  image: string;
  imageRef: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  /** CRI's reason: Completed, Error, OOMKilled, StartError ... */
  reason?: string;
  message?: string;
}

export interface ImageInfo {
  /** The image's name as the runtime reports it (docker.io/library/nginx:latest). */
  image: string;
  /** The digest reference (docker.io/library/nginx@sha256:...). */
  imageRef: string;
  size: number;
  /** Not in the process runtime's image catalog: pulled as a stand-in (its container runs the pod's command, or idles). */
  simulated?: boolean;
  /** The image's numeric USER and its primary group (CRI ImageStatus' uid); none for root. */
  user?: { uid: number; gid: number };
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** The command was killed at its timeout (CRI's DeadlineExceeded). */
  timedOut?: boolean;
}

/** What a client asked to be connected to (CRI ExecRequest / AttachRequest). */
export interface StreamingOptions {
  stdin: boolean;
  tty: boolean;
}

/**
 * A command run by exec, or a running container's stdio by attach, joined to a client's streams (CRI's streaming
 * server). With a tty, stderr is merged into stdout and absent.
 */
export interface StreamingSession {
  /** Where the client's stdin goes; absent when not asked for (or the container keeps no stdin open). */
  stdin?: NodeJS.WritableStream;
  stdout: NodeJS.ReadableStream;
  stderr?: NodeJS.ReadableStream;
  /** The exec'd command's exit code (128+N for signal N); for attach, the container's when it exits. */
  exited: Promise<number>;
  /** The terminal's new size (honoured only where a pty exists). */
  resize(width: number, height: number): void;
  /** The client went away: exec kills its command, attach detaches. */
  close(): void;
}

export interface LogOptions {
  tailLines?: number;
  timestamps?: boolean;
  sinceMs?: number;
}

/** How far a reader of a container's log has got: the file (a rotation starts another) and what was read of it. */
export interface LogCursor { file: number; offset: number }

/** Log text as `kubectl logs` shows it, and where it ends. */
export interface LogChunk { text: string; cursor: LogCursor }

/** What a running container has used so far (CRI's ContainerStats). */
export interface ContainerUsage {
  /** CPU time of its processes, in nanoseconds. */
  cpuCoreNanoSeconds: number;
  /** Resident memory of its processes, in bytes. */
  memoryWorkingSetBytes: number;
}

/** Disk use of a directory or file: allocated bytes and inodes. */
export interface DiskUsage { bytes: number; inodes: number }

/** A filesystem's size and free space (statfs). */
export interface FsInfo {
  capacityBytes: number;
  availableBytes: number;
  /** Used by anything on the filesystem. */
  usedBytes: number;
  inodes: number;
  inodesFree: number;
}

/** Counters of one network interface (stats/v1alpha1 InterfaceStats). */
export interface InterfaceStats { name: string; rxBytes: number; rxErrors: number; txBytes: number; txErrors: number }

/** A change the runtime noticed (for the PLEG: the pod with this uid needs a look). */
export interface RuntimeEvent {
  podUid: string;
  containerId?: string;
  sandboxId?: string;
}

export interface Runtime {
  readonly name: string;
  version(): { runtimeName: string; runtimeVersion: string; runtimeApiVersion: string };
  imageStatus(image: string): ImageInfo | undefined;
  pullImage(image: string, signal?: AbortSignal): Promise<ImageInfo>;
  /** The images the node holds (CRI ListImages), for the Node's status; a simulated node of many reports none. */
  listImages?(): ImageInfo[];

  runPodSandbox(config: SandboxConfig): Promise<string>;
  stopPodSandbox(id: string): Promise<void>;
  removePodSandbox(id: string): Promise<void>;
  podSandboxStatus(id: string): SandboxStatus | undefined;
  listPodSandboxes(podUid?: string): SandboxStatus[];

  createContainer(sandboxId: string, config: ContainerConfig): Promise<string>;
  startContainer(id: string): Promise<void>;
  /** Stops a container: SIGTERM, then SIGKILL after `timeoutSeconds`. */
  stopContainer(id: string, timeoutSeconds: number): Promise<void>;
  removeContainer(id: string): Promise<void>;
  containerStatus(id: string): ContainerStatus | undefined;
  listContainers(podUid?: string): ContainerStatus[];
  /** Runs `cmd` in the container; ended (killed) at `timeoutSeconds` (0: none) or when `signal` aborts. */
  execSync(id: string, cmd: string[], timeoutSeconds?: number, signal?: AbortSignal): Promise<ExecResult>;
  /**
   * The container's log as `o` asks; given `cursor`, only the complete lines written since (after a rotation, from
   * the new file's start), for `kubectl logs -f`.
   */
  logs(id: string, o?: LogOptions, cursor?: LogCursor): Promise<LogChunk>;
  /** Where a running container's log is written (a runtime that keeps files); rotated copies are `<path>.<time>`. */
  logPath?(id: string): string | undefined;
  /** Where a pod's files are on the node (a runtime that keeps files: volumes, logs, termination messages). */
  podDir?(uid: string): string;
  /** CRI's ReopenContainerLog: the container writes to a new file at its log path. */
  reopenContainerLog?(id: string): Promise<void>;
  /** Runs `cmd` in the container's environment, joined to the client's streams (kubectl exec). */
  exec(id: string, cmd: string[], o: StreamingOptions): Promise<StreamingSession>;
  /** Joins the client to the running container's stdio (kubectl attach). */
  attach(id: string, o: StreamingOptions): Promise<StreamingSession>;
  /** A TCP connection to `port` in the sandbox's network (kubectl port-forward). */
  portForward(sandboxId: string, port: number): Promise<Duplex>;

  /** The usage of every running container, by id (CRI's ListContainerStats); a simulated one's as of `now` (ms). */
  containerUsage(now: number): Map<string, ContainerUsage>;
  /** The network interfaces of a sandbox (its network namespace; the node's for one on the host network), or of the node. */
  interfaceStats?(sandboxId?: string): InterfaceStats[];
  /** Disk use of a container's writable files and of its log files (CRI ContainerStats.writable_layer, the log dir). */
  containerDiskUsage?(id: string): Promise<{ rootfs: DiskUsage; logs: DiskUsage }>;
  /** The filesystem containers, logs and images are kept on (the node's fs and imageFs). */
  filesystem?(): Promise<FsInfo | undefined>;
  /** Calls `fn` on every change of a sandbox or container; returns the unsubscribe. */
  subscribe(fn: (ev: RuntimeEvent) => void): () => void;
  /**
   * A runtime that notifies every change of its own (no process can exit behind its back) counts them: the PLEG
   * relists only when the count moved, as upstream's evented PLEG relists rarely.
   */
  changeCount?(): number;
  close(): Promise<void>;
}

/** What a container ID looks like in pod status: `<runtime>://<id>`. */
export const containerIdUri = (runtime: string, id: string): string => `${runtime}://${id}`;

/** docker.io normalisation, as containerd reports image names: nginx -> docker.io/library/nginx:latest. */
export const normalizeImage = (image: string): string => {
  let name = image;
  let digest = '';
  const at = name.indexOf('@');
  if (at >= 0) { digest = name.slice(at); name = name.slice(0, at); }
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const hasRegistry = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) name = `docker.io/${slash < 0 ? `library/${name}` : name}`;
  const lastSlash = name.lastIndexOf('/');
  if (!digest && !name.slice(lastSlash + 1).includes(':')) name += ':latest';
  return name + digest;
};
