// The scheduling framework's contract, as upstream's framework/interface.go: statuses, the cycle state and one
// interface per extension point. A plugin implements any subset; the runtime calls it where it is enabled.
import type { Client, KubeObject, Lister } from '../../client/index.js';
import type { SchedulerCache } from '../cache.js';
import type { HttpExtender } from '../extender.js';
import type { NodeInfo } from '../node-info.js';
import type { Pod } from '../types.js';
import type { PreemptionMetrics } from './metrics.js';

export enum Code {
  Success = 0,
  Error = 1,
  Unschedulable = 2,
  UnschedulableAndUnresolvable = 3,
  Wait = 4,
  Skip = 5,
  Pending = 6,
}

export interface Status {
  code: Code;
  reasons: string[];
  /** The plugin that returned it (filled in by the runtime). */
  plugin?: string;
  error?: unknown;
}

export const status = (code: Code, ...reasons: string[]): Status => ({ code, reasons });
export const unschedulable = (...reasons: string[]): Status => status(Code.Unschedulable, ...reasons);
export const unresolvable = (...reasons: string[]): Status => status(Code.UnschedulableAndUnresolvable, ...reasons);
export const errorStatus = (error: unknown): Status => ({ code: Code.Error, reasons: [error instanceof Error ? error.message : String(error)], error });
export const SKIP: Status = { code: Code.Skip, reasons: [] };
export const isRejection = (s: Status | null | undefined): boolean =>
  !!s && (s.code === Code.Unschedulable || s.code === Code.UnschedulableAndUnresolvable);

/** Per-pod scratch space shared by a pod's plugins during one cycle. */
export class CycleState {
  private readonly data = new Map<string, unknown>();
  /** Plugins that returned Skip at PreFilter / PreScore: their Filter / Score are not called. */
  readonly skipFilter = new Set<string>();
  readonly skipScore = new Set<string>();
  /** The Filter plugins left to run this cycle once PreFilter is done (no per-node skip lookups). */
  filters?: FilterList;
  /** This cycle records each plugin's duration (upstream samples PLUGIN_METRICS_SAMPLE_PERCENT of the cycles). */
  recordPluginMetrics = false;
  read<T>(key: string): T | undefined { return this.data.get(key) as T | undefined; }
  write(key: string, value: unknown): void { this.data.set(key, value); }
  clone(): CycleState {
    const c = new CycleState();
    for (const [k, v] of this.data) c.data.set(k, v && typeof v === 'object' && 'clone' in v && typeof v.clone === 'function' ? (v as { clone(): unknown }).clone() : v);
    for (const s of this.skipFilter) c.skipFilter.add(s);
    for (const s of this.skipScore) c.skipScore.add(s);
    c.filters = this.filters;
    c.recordPluginMetrics = this.recordPluginMetrics;
    return c;
  }
}

/** The Filter plugins a cycle runs (those PreFilter did not skip), one list per skip set, kept by the runtime. */
export interface FilterList {
  plugins: FilterPlugin[];
  /** Each plugin's position among the framework's Filter plugins. */
  slots: Int32Array;
  /** Filter runs by the position of the last plugin they called: the plugins' evaluations, one update per run. */
  runs: Float64Array;
}

/** Which cluster changes may make a rejected pod schedulable (upstream's ClusterEvent). */
export type EventResource = 'Node' | 'Pod' | 'AssignedPod' | 'PersistentVolume' | 'PersistentVolumeClaim' | 'StorageClass' | 'CSINode' | 'CSIDriver' | 'Namespace' | '*';
export type ActionType = 'Add' | 'Delete' | 'Update' | 'All';
export interface ClusterEvent { resource: EventResource; action: ActionType; label?: string }

export const eventMatches = (registered: ClusterEvent, ev: ClusterEvent): boolean =>
  (registered.resource === '*' || registered.resource === ev.resource) && (registered.action === 'All' || registered.action === ev.action);

/** Upstream's QueueingHint: whether an event may make a pod a plugin rejected schedulable. */
export enum QueueingHint { QueueSkip = 0, Queue = 1 }

/**
 * Upstream's QueueingHintFn: for a pod the plugin rejected, what an event did (oldObj undefined on Add, newObj
 * undefined on Delete) means for it. A hint that throws counts as Queue.
 */
export type QueueingHintFn = (pod: Pod, oldObj: KubeObject | undefined, newObj: KubeObject | undefined) => QueueingHint;

/** An event a plugin registers, with the hint that decides per pod (none: every such event requeues). */
export interface ClusterEventWithHint { event: ClusterEvent; hint?: QueueingHintFn }

/** A cluster event as it happened: what changed, before and after. */
export interface ClusterEventObjects { event: ClusterEvent; oldObj?: KubeObject; newObj?: KubeObject }

/** PreFilter may narrow the nodes to look at (NodeName, NodeAffinity). */
export interface PreFilterResult { nodeNames?: Set<string> }

export interface Plugin {
  readonly name: string;
  /** Events that may make a pod this plugin rejected schedulable (upstream's EventsToRegister). */
  events?(): ClusterEventWithHint[];
}

export interface QueueSortPlugin extends Plugin { less(a: QueuedPodInfo, b: QueuedPodInfo): boolean }
export interface PreEnqueuePlugin extends Plugin { preEnqueue(pod: Pod): Status | null }
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod, nodes: NodeInfo[]): { status?: Status | null; result?: PreFilterResult } | Status | null;
  /** For preemption's what-ifs (upstream's PreFilterExtensions). */
  addPod?(state: CycleState, pod: Pod, added: Pod, node: NodeInfo): void;
  removePod?(state: CycleState, pod: Pod, removed: Pod, node: NodeInfo): void;
}
export interface FilterPlugin extends Plugin { filter(state: CycleState, pod: Pod, node: NodeInfo): Status | null }
export interface PostFilterPlugin extends Plugin {
  postFilter(state: CycleState, pod: Pod, statuses: Map<string, Status>): Promise<{ status: Status | null; nominatedNodeName?: string }>;
}
export interface PreScorePlugin extends Plugin { preScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): Status | null }
export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: Pod, node: NodeInfo): number;
  /** Rewrites scores (aligned with `nodes`) into 0..100. */
  normalizeScore?(state: CycleState, pod: Pod, nodes: NodeInfo[], scores: number[]): void;
}
export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, node: string): Status | null;
  unreserve(state: CycleState, pod: Pod, node: string): void;
}
export interface PermitPlugin extends Plugin { permit(state: CycleState, pod: Pod, node: string): { status: Status | null; timeoutMs?: number } }
export interface PreBindPlugin extends Plugin { preBind(state: CycleState, pod: Pod, node: string): Promise<Status | null> }
export interface BindPlugin extends Plugin { bind(state: CycleState, pod: Pod, node: string): Promise<Status | null> }
/** Told once the pod is bound; what it does cannot fail the binding. */
export interface PostBindPlugin extends Plugin { postBind(state: CycleState, pod: Pod, node: string): void }

export const MAX_NODE_SCORE = 100;

/** A pod in the scheduling queue. */
export interface QueuedPodInfo {
  pod: Pod;
  key: string;
  /** When it entered the queue (activeQ ordering), ms. */
  timestamp: number;
  /** When it first entered activeQ (past its scheduling gates), ms: the start of the pod scheduling SLI. */
  initialAttemptTimestamp?: number;
  attempts: number;
  /** Plugins that rejected it in its last attempt: only their events requeue it. */
  unschedulablePlugins: Set<string>;
  /** Kept out of the active queue by a PreEnqueue plugin (schedulingGates). */
  gated: boolean;
  /** Set when the pod last failed with an error (goes to backoff, not unschedulable). */
  backoffExpiry?: number;
}

/** What plugins can reach: the cluster as the scheduler sees it. */
export interface Handle {
  client: Client;
  cache: SchedulerCache;
  listers: {
    pvcs: Lister<KubeObject>;
    pvs: Lister<KubeObject>;
    storageClasses: Lister<KubeObject>;
    pdbs: Lister<KubeObject>;
    namespaces: Lister<KubeObject>;
    /** What selects a pod (PodTopologySpread's default constraints). */
    services: Lister<KubeObject>;
    replicationControllers: Lister<KubeObject>;
    replicaSets: Lister<KubeObject>;
    statefulSets: Lister<KubeObject>;
    csiNodes: Lister<KubeObject>;
    csiDrivers: Lister<KubeObject>;
  };
  /** Pods nominated to a node (by preemption), waiting for victims to go. */
  nominatedPods(node: string): Pod[];
  /** The running framework of the pod's profile (preemption re-runs filters). */
  framework(): import('./runtime.js').Framework;
  /** An events.k8s.io/v1 event of the running profile: `action` on `regarding`, `related` the other object in it. */
  recordEvent(regarding: KubeObject, related: KubeObject | undefined, type: 'Normal' | 'Warning', reason: string, action: string, note: string): void;
  now(): number;
  /** A pod a Permit plugin holds (Wait), by uid: the plugins that still have to allow it decide when it binds. */
  waitingPod(uid: string): WaitingPod | undefined;
  /** The configured extenders (preemption lets those with a preemptVerb trim its victims). */
  extenders: HttpExtender[];
  /** DefaultPreemption's series. */
  metrics: PreemptionMetrics;
}

export interface WaitingPod {
  pod: Pod;
  /** Plugins that have not allowed it yet. */
  pending(): string[];
  allow(plugin: string): void;
  reject(plugin: string, message: string): void;
}

export type PluginFactory = (args: Record<string, any>, handle: Handle) => Plugin;
