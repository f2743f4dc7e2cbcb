// The framework of one profile: its plugins per extension point, built from the configuration and the registry,
// and the code that runs each point (upstream's framework/runtime/framework.go).
import { DEFAULT_PLUGINS, pluginArgs, pluginsFor, type ExtensionPoint, type Profile } from '../config.js';
import type { NodeInfo } from '../node-info.js';
import type { Pod } from '../types.js';
import {
  Code, MAX_NODE_SCORE, errorStatus, type BindPlugin, type ClusterEventWithHint, type CycleState, type FilterPlugin, type Handle,
  type PermitPlugin, type Plugin, type PluginFactory, type PostFilterPlugin, type PreBindPlugin, type PreEnqueuePlugin,
  type PreFilterPlugin, type PreScorePlugin, type QueueSortPlugin, type QueuedPodInfo, type ReservePlugin, type ScorePlugin, type Status,
} from './interface.js';

const METHOD: Record<ExtensionPoint, string> = {
  preEnqueue: 'preEnqueue', queueSort: 'less', preFilter: 'preFilter', filter: 'filter', postFilter: 'postFilter',
  preScore: 'preScore', score: 'score', reserve: 'reserve', permit: 'permit', preBind: 'preBind', bind: 'bind',
};

export class FrameworkError extends Error {
  override name = 'FrameworkError';
}

export class Framework {
  readonly profileName: string;
  readonly percentageOfNodesToScore?: number;
  readonly preEnqueue: PreEnqueuePlugin[];
  readonly queueSort: QueueSortPlugin[];
  readonly preFilter: PreFilterPlugin[];
  readonly filter: FilterPlugin[];
  readonly postFilter: PostFilterPlugin[];
  readonly preScore: PreScorePlugin[];
  readonly score: { plugin: ScorePlugin; weight: number }[];
  readonly reserve: ReservePlugin[];
  readonly permit: PermitPlugin[];
  readonly preBind: PreBindPlugin[];
  readonly bind: BindPlugin[];
  private readonly instances = new Map<string, Plugin>();
  private events?: ({ plugin: string } & ClusterEventWithHint)[];

  constructor(profile: Profile, registry: Record<string, PluginFactory>, handle: Handle) {
    this.profileName = profile.schedulerName;
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore;
    const instance = (name: string): Plugin => {
      let p = this.instances.get(name);
      if (!p) {
        const factory = registry[name];
        if (!factory) throw new FrameworkError(`plugin "${name}" does not exist`);
        p = factory(pluginArgs(profile, name), handle);
        this.instances.set(name, p);
      }
      return p;
    };
    const implementsPoint = (point: ExtensionPoint) => (name: string): boolean => {
      if (!registry[name]) throw new FrameworkError(`plugin "${name}" does not exist`);
      return typeof (instance(name) as unknown as Record<string, unknown>)[METHOD[point]] === 'function';
    };
    const at = <T extends Plugin>(point: ExtensionPoint): T[] =>
      pluginsFor(profile, point, implementsPoint(point)).map((r) => instance(r.name) as T);
    this.preEnqueue = at('preEnqueue');
    this.queueSort = at('queueSort');
    if (this.queueSort.length !== 1) throw new FrameworkError(`one queue sort plugin required for profile with scheduler name "${profile.schedulerName}"`);
    this.preFilter = at('preFilter');
    this.filter = at('filter');
    this.postFilter = at('postFilter');
    this.preScore = at('preScore');
    this.score = pluginsFor(profile, 'score', implementsPoint('score')).map((r) => ({
      plugin: instance(r.name) as ScorePlugin,
      weight: r.weight ?? profile.plugins?.multiPoint?.enabled?.find((m) => m.name === r.name)?.weight ?? DEFAULT_PLUGINS.find((d) => d.name === r.name)?.weight ?? 1,
    }));
    this.reserve = at('reserve');
    this.permit = at('permit');
    this.preBind = at('preBind');
    this.bind = at('bind');
    if (!this.bind.length) throw new FrameworkError(`at least one bind plugin is needed for profile with scheduler name "${profile.schedulerName}"`);
  }

  plugin(name: string): Plugin | undefined { return this.instances.get(name); }

  /** Every event some enabled plugin registered, with its hint and the plugin's name. */
  registeredEvents(): ({ plugin: string } & ClusterEventWithHint)[] {
    this.events ??= [...this.instances.values()].flatMap((p) => (p.events?.() ?? []).map((e) => ({ plugin: p.name, ...e })));
    return this.events;
  }

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean { return this.queueSort[0]!.less(a, b); }

  runPreEnqueue(pod: Pod): Status | null {
    for (const p of this.preEnqueue) {
      const s = p.preEnqueue(pod);
      if (s && s.code !== Code.Success) return { ...s, plugin: p.name };
    }
    return null;
  }

  /** Runs PreFilter; returns a rejection (with its plugin) and the intersection of the node names plugins allow. */
  runPreFilter(state: CycleState, pod: Pod, nodes: NodeInfo[]): { status: Status | null; nodeNames?: Set<string> } {
    let nodeNames: Set<string> | undefined;
    for (const p of this.preFilter) {
      let out;
      try {
        out = p.preFilter(state, pod, nodes);
      } catch (e) {
        return { status: { ...errorStatus(e), plugin: p.name } };
      }
      const s = out && 'code' in out ? out : out?.status ?? null;
      const result = out && !('code' in out) ? out.result : undefined;
      if (s?.code === Code.Skip) { state.skipFilter.add(p.name); continue; }
      if (s && s.code !== Code.Success) return { status: { ...s, plugin: p.name } };
      if (result?.nodeNames) nodeNames = nodeNames ? new Set([...nodeNames].filter((n) => result.nodeNames!.has(n))) : result.nodeNames;
    }
    state.filters = state.skipFilter.size ? this.filter.filter((p) => !state.skipFilter.has(p.name)) : this.filter;
    return { status: null, nodeNames };
  }

  /** Filters one node: the first plugin that rejects it decides. */
  runFilter(state: CycleState, pod: Pod, node: NodeInfo): Status | null {
    const filters = state.filters ?? this.filter.filter((p) => !state.skipFilter.has(p.name));
    for (let i = 0; i < filters.length; i++) {
      const p = filters[i]!;
      const s = p.filter(state, pod, node);
      if (s && s.code !== Code.Success) return { ...s, plugin: p.name };
    }
    return null;
  }

  /** runFilter with the pods nominated to the node (of at least the pod's priority) counted there, as upstream. */
  runFilterWithNominatedPods(state: CycleState, pod: Pod, node: NodeInfo, nominated: Pod[]): Status | null {
    if (!nominated.length) return this.runFilter(state, pod, node);
    const clone = node.clone();
    const st = state.clone();
    for (const n of nominated) {
      clone.addPod(n);
      for (const p of this.preFilter) p.addPod?.(st, pod, n, clone);
    }
    return this.runFilter(st, pod, clone) ?? this.runFilter(state, pod, node);
  }

  async runPostFilter(state: CycleState, pod: Pod, statuses: Map<string, Status>): Promise<{ status: Status | null; nominatedNodeName?: string }> {
    let last: { status: Status | null; nominatedNodeName?: string } = { status: { code: Code.Unschedulable, reasons: [] } };
    for (const p of this.postFilter) {
      const r = await p.postFilter(state, pod, statuses);
      if (!r.status || r.status.code === Code.Success) return r;
      last = { ...r, status: { ...r.status, plugin: p.name } };
      if (r.status.code !== Code.Unschedulable) return last;
    }
    return last;
  }

  runPreScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): Status | null {
    for (const p of this.preScore) {
      const s = p.preScore(state, pod, nodes);
      if (s?.code === Code.Skip) { state.skipScore.add(p.name); continue; }
      if (s && s.code !== Code.Success) return { ...s, plugin: p.name };
    }
    return null;
  }

  /** Weighted sum of every score plugin's normalized score, per node. */
  runScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): number[] {
    const n = nodes.length;
    const totals = new Array<number>(n).fill(0);
    const scores = new Array<number>(n);
    for (const { plugin, weight } of this.score) {
      if (state.skipScore.has(plugin.name)) continue;
      for (let i = 0; i < n; i++) scores[i] = plugin.score(state, pod, nodes[i]!);
      plugin.normalizeScore?.(state, pod, nodes, scores);
      for (let i = 0; i < n; i++) {
        const s = scores[i]!;
        totals[i]! += (s < 0 ? 0 : s > MAX_NODE_SCORE ? MAX_NODE_SCORE : s) * weight;
      }
    }
    return totals;
  }

  runReserve(state: CycleState, pod: Pod, node: string): Status | null {
    for (const p of this.reserve) {
      const s = p.reserve(state, pod, node);
      if (s && s.code !== Code.Success) return { ...s, plugin: p.name };
    }
    return null;
  }

  runUnreserve(state: CycleState, pod: Pod, node: string): void {
    for (const p of [...this.reserve].reverse()) p.unreserve(state, pod, node);
  }

  /** Permit: a rejection, or how long to wait (the longest any plugin asked) when one says Wait. */
  runPermit(state: CycleState, pod: Pod, node: string): { status: Status | null; waitMs?: number; waiting: string[] } {
    let waitMs: number | undefined;
    const waiting: string[] = [];
    for (const p of this.permit) {
      const r = p.permit(state, pod, node);
      if (r.status?.code === Code.Wait) {
        waiting.push(p.name);
        waitMs = Math.max(waitMs ?? 0, Math.min(r.timeoutMs ?? 0, 15 * 60_000));
        continue;
      }
      if (r.status && r.status.code !== Code.Success) return { status: { ...r.status, plugin: p.name }, waiting };
    }
    return { status: null, waitMs, waiting };
  }

  async runPreBind(state: CycleState, pod: Pod, node: string): Promise<Status | null> {
    for (const p of this.preBind) {
      const s = await p.preBind(state, pod, node);
      if (s && s.code !== Code.Success && s.code !== Code.Skip) return { ...s, plugin: p.name };
    }
    return null;
  }

  async runBind(state: CycleState, pod: Pod, node: string): Promise<Status | null> {
    for (const p of this.bind) {
      const s = await p.bind(state, pod, node);
      if (s?.code === Code.Skip) continue;
      return s && s.code !== Code.Success ? { ...s, plugin: p.name } : null;
    }
    return { code: Code.Error, reasons: ['no bind plugin bound the pod'] };
  }
}
