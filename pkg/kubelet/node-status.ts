// The Node object a kubelet registers and the status it keeps posting, as upstream's kubelet_node_status.go and
// nodestatus setters: capacity/allocatable, the four conditions with their reasons and messages, addresses,
// daemonEndpoints and nodeInfo. Heartbeat times alone are not a change (the Lease carries liveness).
import { readFileSync } from 'node:fs';
import { arch, cpus, hostname, networkInterfaces, platform, release, totalmem } from 'node:os';
import { formatQuantity, parseQuantity, quantityValue, subQuantity, type Quantity } from '../apimachinery/quantity.js';
import type { KubeObject } from '../client/index.js';
import { formatTime, KUBERNETES_RELEASE } from '../client/index.js';
import { parseThresholds, type Threshold } from './eviction.js';

/** The release the node reports, the same as the apiserver's (kubectl warns on version skew). */
export const KUBELET_VERSION = KUBERNETES_RELEASE;
/** The User-Agent of HTTP and gRPC probes, kube-probe/<major>.<minor> of the kubelet's version (upstream's prober). */
export const PROBE_USER_AGENT = `kube-probe/${KUBELET_VERSION.replace(/^v(\d+)\.(\d+).*$/, '$1.$2')}`;
export const KUBELET_PORT = 10250;

/** The node's ephemeral-storage capacity when none is given. */
export const DEFAULT_EPHEMERAL_STORAGE = '102400Mi';

export interface NodeResources {
  cpu: string;
  memory: string;
  pods: number;
  ephemeralStorage?: string;
}

export interface NodeIdentity {
  name: string;
  /** InternalIP. */
  ip: string;
  resources: NodeResources;
  runtimeVersion: string;
  labels?: Record<string, string>;
  kubeletPort?: number;
  /** The node's pod range (--pod-cidr), registered as spec.podCIDR(s). */
  podCidr?: string;
  /** The images the node holds, when its runtime lists them. */
  images?: () => { imageRef: string; image: string; size: number }[];
  /** --eviction-hard, reserved from allocatable; undefined: upstream's default (DEFAULT_EVICTION_HARD). */
  evictionHard?: readonly Threshold[];
}

/** The kubelet's default --eviction-hard (upstream's on Linux, less the inode and imagefs signals, which reserve nothing). */
export const DEFAULT_EVICTION_HARD = 'memory.available<100Mi,nodefs.available<10%';
const defaultThresholds = parseThresholds(DEFAULT_EVICTION_HARD);

/** upstream's nodeStatusMaxImages default and MaxNamesPerImageInNodeStatus. */
const MAX_IMAGES = 50;
const MAX_NAMES_PER_IMAGE = 5;

/** status.images as upstream's Images setter writes it: the largest first, digests then tags as names. */
const imagesOf = (id: NodeIdentity): Record<string, unknown>[] | undefined => {
  const list = id.images?.();
  if (!list?.length) return undefined;
  return [...list].sort((a, b) => b.size - a.size).slice(0, MAX_IMAGES)
    .map((i) => ({ names: [i.imageRef, i.image].slice(0, MAX_NAMES_PER_IMAGE), sizeBytes: i.size }));
};

interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
}

const goArch = (): string => ({ x64: 'amd64', arm64: 'arm64', arm: 'arm', ia32: '386', ppc64: 'ppc64le', s390x: 's390x' }[arch()] ?? arch());
const goOs = (): string => (platform() === 'win32' ? 'windows' : platform());

/** The machine's resources, as cAdvisor would report them. */
export const machineResources = (): NodeResources => ({
  cpu: String(cpus().length || 1),
  memory: `${Math.floor(totalmem() / 1024)}Ki`,
  pods: 110,
  ephemeralStorage: DEFAULT_EPHEMERAL_STORAGE,
});

/** The first non-internal IPv4 address of the machine, else 127.0.0.1. */
export const machineIp = (): string => {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
};

const readOr = <T>(path: string, fallback: T): string | T => {
  try { return readFileSync(path, 'utf8').trim(); } catch { return fallback; }
};

interface HostFacts { machineId?: string; systemUuid?: string; bootId: string; kernelVersion: string; osImage: string }
let facts: HostFacts | undefined;

/** What the machine says about itself, read once per process (10,000 simulated nodes post statuses). */
const hostFacts = (): HostFacts => {
  facts ??= {
    machineId: readOr('/etc/machine-id', undefined),
    systemUuid: readOr('/sys/class/dmi/id/product_uuid', undefined),
    bootId: readOr('/proc/sys/kernel/random/boot_id', ''),
    kernelVersion: release(),
    osImage: /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readOr('/etc/os-release', ''))?.[1] ?? `${goOs()} ${release()}`,
  };
  return facts;
};

export const nodeLabels = (name: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'beta.kubernetes.io/arch': goArch(),
  'beta.kubernetes.io/os': goOs(),
  'kubernetes.io/arch': goArch(),
  'kubernetes.io/hostname': name,
  'kubernetes.io/os': goOs(),
  ...extra,
});

/** The Node as first registered (what upstream's initialNode builds). */
export const initialNode = (id: NodeIdentity): KubeObject => ({
  apiVersion: 'v1', kind: 'Node',
  metadata: {
    name: id.name,
    labels: nodeLabels(id.name, id.labels),
    annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
  },
  spec: id.podCidr ? { podCIDR: id.podCidr, podCIDRs: [id.podCidr] } : {},
});

const resourceList = (r: NodeResources): Record<string, string> => ({
  cpu: r.cpu,
  'ephemeral-storage': r.ephemeralStorage ?? DEFAULT_EPHEMERAL_STORAGE,
  'hugepages-1Gi': '0',
  'hugepages-2Mi': '0',
  memory: r.memory,
  pods: String(r.pods),
});

/** What a hard eviction threshold keeps back of its resource: its quantity, or its share of the capacity. */
const reservation = (t: Threshold, capacity: Quantity): Quantity => {
  if (t.quantity !== undefined) return parseQuantity(t.quantity);
  // upstream parses the percentage as a float32 and truncates capacity × it to whole bytes
  const share = Math.fround(Math.fround(t.percentage ?? 0) / 100);
  return { nanos: BigInt(Math.trunc(quantityValue(capacity) * share)) * 1_000_000_000n, format: 'BinarySI' };
};

const RESERVED_BY: Record<Threshold['signal'], string> = { 'memory.available': 'memory', 'nodefs.available': 'ephemeral-storage' };

/**
 * status.allocatable as upstream's MachineInfo setter: the capacity less the node allocatable reservation, here the
 * hard eviction thresholds (memory.available from memory, nodefs.available from ephemeral-storage), never below 0,
 * in the capacity's format (a share of a byte count that is no multiple of 1024 prints as plain bytes).
 */
export const allocatableOf = (capacity: Record<string, string>, thresholds: readonly Threshold[]): Record<string, string> => {
  const out = { ...capacity };
  for (const t of thresholds) {
    const name = RESERVED_BY[t.signal];
    if (capacity[name] === undefined) continue;
    const cap = parseQuantity(capacity[name]);
    const left = subQuantity(parseQuantity(out[name]!), reservation(t, cap));
    out[name] = formatQuantity(left.nanos < 0n ? { nanos: 0n, format: left.format } : left);
  }
  return out;
};

/** The node's allocatable (capacity less the hard eviction thresholds), as its status reports it. */
export const nodeAllocatableOf = (id: Pick<NodeIdentity, 'resources' | 'evictionHard'>): Record<string, string> => resourceLists(id).allocatable;

/** Capacity and allocatable, worked out once per resources and thresholds (thousands of simulated nodes post statuses). */
const listsCache = new WeakMap<NodeResources, { thresholds: readonly Threshold[]; capacity: Record<string, string>; allocatable: Record<string, string> }>();
const resourceLists = (id: Pick<NodeIdentity, 'resources' | 'evictionHard'>): { capacity: Record<string, string>; allocatable: Record<string, string> } => {
  const thresholds = id.evictionHard ?? defaultThresholds;
  let lists = listsCache.get(id.resources);
  if (lists?.thresholds !== thresholds) {
    const capacity = resourceList(id.resources);
    lists = { thresholds, capacity, allocatable: allocatableOf(capacity, thresholds) };
    listsCache.set(id.resources, lists);
  }
  // copies: the nodes sharing the resources each get lists of their own
  return { capacity: { ...lists.capacity }, allocatable: { ...lists.allocatable } };
};

const condition = (type: string, ok: boolean, okReason: string, okMessage: string, badReason: string, badMessage: string, positive: boolean) =>
  ({ type, status: (ok === positive ? 'True' : 'False') as 'True' | 'False', reason: ok ? okReason : badReason, message: ok ? okMessage : badMessage });

export interface NodeHealth {
  ready: boolean;
  notReadyMessage?: string;
  /** Conditions the eviction manager raised (MemoryPressure, DiskPressure). */
  pressure?: Set<string>;
}

/** The status the kubelet posts; conditions keep their lastTransitionTime while their status holds. */
export const nodeStatus = (id: NodeIdentity, health: NodeHealth, previous: KubeObject | undefined, now: number): Record<string, unknown> => {
  const ts = formatTime(now);
  const prev = (previous?.status?.conditions ?? []) as Condition[];
  const conds = [
    condition('MemoryPressure', !health.pressure?.has('MemoryPressure'), 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available', false),
    condition('DiskPressure', !health.pressure?.has('DiskPressure'), 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', 'KubeletHasDiskPressure', 'kubelet has disk pressure', false),
    condition('PIDPressure', true, 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', 'KubeletHasInsufficientPID', 'kubelet has insufficient PID available', false),
    condition('Ready', health.ready, 'KubeletReady', 'kubelet is posting ready status', 'KubeletNotReady', health.notReadyMessage ?? 'container runtime is down', true),
  ].map((c): Condition => {
    const old = prev.find((p) => p.type === c.type);
    return { ...c, lastHeartbeatTime: ts, lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : ts };
  });
  const { capacity, allocatable } = resourceLists(id);
  const host = hostFacts();
  const images = imagesOf(id);
  return {
    capacity,
    allocatable,
    conditions: conds,
    addresses: [{ type: 'InternalIP', address: id.ip }, { type: 'Hostname', address: id.name }],
    daemonEndpoints: { kubeletEndpoint: { Port: id.kubeletPort ?? KUBELET_PORT } },
    nodeInfo: {
      machineID: host.machineId ?? id.name,
      systemUUID: host.systemUuid ?? id.name,
      bootID: host.bootId,
      kernelVersion: host.kernelVersion,
      osImage: host.osImage,
      containerRuntimeVersion: id.runtimeVersion,
      kubeletVersion: KUBELET_VERSION,
      // DisableNodeKubeProxyVersion is deprecated and off in 1.32: the kubelet still reports its own version here
      kubeProxyVersion: KUBELET_VERSION,
      operatingSystem: goOs(),
      architecture: goArch(),
    },
    ...(images ? { images } : {}),
  };
};

/** Whether two statuses differ in anything but heartbeat times. */
export const statusChanged = (a: Record<string, unknown> | undefined, b: Record<string, unknown>): boolean => {
  if (!a) return true;
  const strip = (s: Record<string, unknown>): string => JSON.stringify({
    ...s, conditions: ((s.conditions ?? []) as Condition[]).map(({ lastHeartbeatTime: _h, ...c }) => c),
  });
  return strip(a) !== strip(b);
};

/** Whether the Node's conditions (as the apiserver has them) say other than `status` of any condition's status. */
export const conditionsDiffer = (node: Record<string, unknown> | undefined, status: Record<string, unknown>): boolean => {
  if (!node) return false;
  const stored = new Map(((node.conditions ?? []) as Condition[]).map((c) => [c.type, c.status]));
  return ((status.conditions ?? []) as Condition[]).some((c) => stored.get(c.type) !== c.status);
};

export const defaultHostname = (): string => hostname().toLowerCase();
