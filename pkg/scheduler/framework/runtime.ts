// The framework of one profile: its plugins per extension point, built from the configuration and the registry,
// and the code that runs each point (upstream's framework/runtime/framework.go), timing every point and, on the
// sampled cycles, every plugin call (framework/metrics.ts).
import { DEFAULT_PLUGINS, pluginArgs, pluginsFor, type ExtensionPoint, type Profile } from '../config.js';
import type { NodeInfo } from '../node-info.js';
import type { Pod } from '../types.js';
import {
  Code, MAX_NODE_SCORE, errorStatus, type BindPlugin, type ClusterEventWithHint, type CycleState, type FilterList, type FilterPlugin, type Handle,
  type PermitPlugin, type Plugin, type PluginFactory, type PostBindPlugin, type PostFilterPlugin, type PreBindPlugin, type PreEnqueuePlugin,
  type PreFilterPlugin, type PreScorePlugin, type QueueSortPlugin, type QueuedPodInfo, type ReservePlugin, type ScorePlugin, type Status,
} from './interface.js';
import { NO_FRAMEWORK_METRICS, type FrameworkMetrics, type PluginMetrics, type PointMetrics } from './metrics.js';
import { FilterLists, pluginSeries, pointSeries, type PluginPoint, type PointName } from './series.js';

const METHOD: Record<ExtensionPoint, string> = {
  preEnqueue: 'preEnqueue', queueSort: 'less', preFilter: 'preFilter', filter: 'filter', postFilter: 'postFilter',
  preScore: 'preScore', score: 'score', reserve: 'reserve', permit: 'permit', preBind: 'preBind', bind: 'bind', postBind: 'postBind',
};

/** Seconds since `t` (a performance.now()). */
const since = (t: number): number => (performance.now() - t) / 1000;
const codeOf = (s: Status | null | undefined): Code => s?.code ?? Code.Success;
/** When a plugin call starts, on a sampled cycle; 0 on the others. */
const start = (sampled: boolean): number => (sampled ? performance.now() : 0);
/** Records the duration of a plugin call that start() timed. */
const done = (t: number, pm: PluginMetrics, code: Code): void => { if (t > 0) pm.duration(code, since(t)); };

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
  readonly postBind: PostBindPlugin[];
  private readonly instances = new Map<string, Plugin>();
  private events?: ({ plugin: string } & ClusterEventWithHint)[];
  private readonly points: Record<PointName, PointMetrics>;
  /** Each plugin's series, aligned with the plugin lists above. */
  private readonly plugins: Record<PluginPoint, PluginMetrics[]>;
  private readonly filterLists: FilterLists;
  /** Durations of a sampled cycle's calls (ms), recorded once the calls are done: no bookkeeping between two readings. */
  private timings = new Float64Array(64);

  constructor(profile: Profile, registry: Record<string, PluginFactory>, handle: Handle, private readonly metrics: FrameworkMetrics = NO_FRAMEWORK_METRICS) {
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
    this.postBind = at('postBind');

    this.points = pointSeries(metrics);
    const scorePlugins = this.score.map((s) => s.plugin);
    this.plugins = pluginSeries(metrics, {
      preEnqueue: this.preEnqueue, preFilter: this.preFilter, addPod: this.preFilter, removePod: this.preFilter, filter: this.filter,
      postFilter: this.postFilter, preScore: this.preScore, score: scorePlugins, normalize: scorePlugins, reserve: this.reserve,
      unreserve: this.reserve, permit: this.permit, preBind: this.preBind, bind: this.bind, postBind: this.postBind,
    });
    this.filterLists = new FilterLists(this.filter, this.plugins.filter);
    metrics.beforeCollect(() => this.filterLists.foldEvaluations());
  }

  plugin(name: string): Plugin | undefined { return this.instances.get(name); }

  /** Every event some enabled plugin registered, with its hint and the plugin's name. */
  registeredEvents(): ({ plugin: string } & ClusterEventWithHint)[] {
    this.events ??= [...this.instances.values()].flatMap((p) => (p.events?.() ?? []).map((e) => ({ plugin: p.name, ...e })));
    return this.events;
  }

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean { return this.queueSort[0]!.less(a, b); }

  /** Whether a new cycle records each plugin's duration (upstream's SetRecordPluginMetrics). */
  sampleCycle(): boolean { return this.metrics.sample(); }

  runPreEnqueue(pod: Pod): Status | null {
    const t0 = performance.now();
    const timed = this.metrics.sample();
    let out: Status | null = null;
    for (let i = 0; i < this.preEnqueue.length; i++) {
      const p = this.preEnqueue[i]!;
      const t = start(timed);
      const s = p.preEnqueue(pod);
      done(t, this.plugins.preEnqueue[i]!, codeOf(s));
      if (s && s.code !== Code.Success) { out = { ...s, plugin: p.name }; break; }
    }
    this.points.preEnqueue.observe(codeOf(out), since(t0));
    return out;
  }

  /** Runs PreFilter; returns a rejection (with its plugin) and the intersection of the node names plugins allow. */
  runPreFilter(state: CycleState, pod: Pod, nodes: NodeInfo[]): { status: Status | null; nodeNames?: Set<string> } {
    const t0 = performance.now();
    const timed = state.recordPluginMetrics;
    let nodeNames: Set<string> | undefined;
    let status: Status | null = null;
    for (let i = 0; i < this.preFilter.length; i++) {
      const p = this.preFilter[i]!;
      const pm = this.plugins.preFilter[i]!;
      const t = start(timed);
      let out;
      try {
        out = p.preFilter(state, pod, nodes);
      } catch (e) {
        status = { ...errorStatus(e), plugin: p.name };
      }
      const s = status ?? (out && 'code' in out ? out : out?.status ?? null);
      done(t, pm, codeOf(s));
      if (s?.code === Code.Skip) { state.skipFilter.add(p.name); continue; }
      pm.evaluations.value++;
      if (s && s.code !== Code.Success) { status = { ...s, plugin: p.name }; break; }
      const result = out && !('code' in out) ? out.result : undefined;
      if (result?.nodeNames) nodeNames = nodeNames ? new Set([...nodeNames].filter((n) => result.nodeNames!.has(n))) : result.nodeNames;
    }
    if (!status) state.filters = this.filterLists.of(state);
    this.points.preFilter.observe(codeOf(status), since(t0));
    return status ? { status } : { status: null, nodeNames };
  }

  /** PreFilter's AddPod of every plugin that has it (upstream's RunPreFilterExtensionAddPod). */
  runPreFilterExtensionAddPod(state: CycleState, pod: Pod, added: Pod, node: NodeInfo): void { this.runPreFilterExtension('addPod', state, pod, added, node); }

  /** PreFilter's RemovePod of every plugin that has it (preemption's what-ifs). */
  runPreFilterExtensionRemovePod(state: CycleState, pod: Pod, removed: Pod, node: NodeInfo): void { this.runPreFilterExtension('removePod', state, pod, removed, node); }

  private runPreFilterExtension(which: 'addPod' | 'removePod', state: CycleState, pod: Pod, other: Pod, node: NodeInfo): void {
    for (let i = 0; i < this.preFilter.length; i++) {
      const p = this.preFilter[i]!;
      if (!p[which]) continue;
      const t = start(state.recordPluginMetrics);
      p[which](state, pod, other, node);
      done(t, this.plugins[which][i]!, Code.Success);
    }
  }

  /** Filters one node: the first plugin that rejects it decides. */
  runFilter(state: CycleState, pod: Pod, node: NodeInfo): Status | null {
    const list = state.filters ?? this.filterLists.of(state);
    if (state.recordPluginMetrics) return this.runFilterTimed(list, state, pod, node);
    const filters = list.plugins;
    const n = filters.length;
    for (let i = 0; i < n; i++) {
      const p = filters[i]!;
      const s = p.filter(state, pod, node);
      if (s && s.code !== Code.Success) {
        list.runs[i]!++;
        return { ...s, plugin: p.name };
      }
    }
    if (n) list.runs[n - 1]!++;
    return null;
  }

  /** runFilter on a sampled cycle: each call timed, one clock reading between two plugins. */
  private runFilterTimed(list: FilterList, state: CycleState, pod: Pod, node: NodeInfo): Status | null {
    const filters = list.plugins;
    const n = filters.length;
    const ms = this.timingsFor(n);
    let s: Status | null = null;
    let i = 0;
    let t = performance.now();
    for (; i < n; i++) {
      s = filters[i]!.filter(state, pod, node);
      const t1 = performance.now();
      ms[i] = t1 - t;
      t = t1;
      if (s && s.code !== Code.Success) break;
    }
    const last = i < n ? i : n - 1;
    for (let j = 0; j <= last; j++) this.plugins.filter[list.slots[j]!]!.duration(j === i ? s!.code : Code.Success, ms[j]! / 1000);
    if (n) list.runs[last]!++;
    return i < n ? { ...s!, plugin: filters[i]!.name } : null;
  }

  /** The scratch for `n` timings, grown as needed. */
  private timingsFor(n: number): Float64Array {
    if (this.timings.length < n) this.timings = new Float64Array(Math.max(n, this.timings.length * 2));
    return this.timings;
  }

  /** runFilter with the pods nominated to the node (of at least the pod's priority) counted there, as upstream. */
  runFilterWithNominatedPods(state: CycleState, pod: Pod, node: NodeInfo, nominated: Pod[]): Status | null {
    if (!nominated.length) return this.runFilter(state, pod, node);
    const clone = node.clone();
    const st = state.clone();
    for (const n of nominated) {
      clone.addPod(n);
      this.runPreFilterExtensionAddPod(st, pod, n, clone);
    }
    return this.runFilter(st, pod, clone) ?? this.runFilter(state, pod, node);
  }

  /** The Filter extension point's series: the scheduler times its whole pass over the nodes. */
  filterDone(code: Code, t0: number): void { this.points.filter.observe(code, since(t0)); }

  async runPostFilter(state: CycleState, pod: Pod, statuses: Map<string, Status>): Promise<{ status: Status | null; nominatedNodeName?: string }> {
    const t0 = performance.now();
    let last: { status: Status | null; nominatedNodeName?: string } = { status: { code: Code.Unschedulable, reasons: [] } };
    for (let i = 0; i < this.postFilter.length; i++) {
      const p = this.postFilter[i]!;
      const t = start(state.recordPluginMetrics);
      const r = await p.postFilter(state, pod, statuses);
      done(t, this.plugins.postFilter[i]!, codeOf(r.status));
      if (!r.status || r.status.code === Code.Success) { last = r; break; }
      last = { ...r, status: { ...r.status, plugin: p.name } };
      if (r.status.code !== Code.Unschedulable) break;
    }
    this.points.postFilter.observe(codeOf(last.status), since(t0));
    return last;
  }

  runPreScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): Status | null {
    const t0 = performance.now();
    let out: Status | null = null;
    for (let i = 0; i < this.preScore.length; i++) {
      const p = this.preScore[i]!;
      const pm = this.plugins.preScore[i]!;
      const t = start(state.recordPluginMetrics);
      const s = p.preScore(state, pod, nodes);
      done(t, pm, codeOf(s));
      if (s?.code === Code.Skip) { state.skipScore.add(p.name); continue; }
      pm.evaluations.value++;
      if (s && s.code !== Code.Success) { out = { ...s, plugin: p.name }; break; }
    }
    this.points.preScore.observe(codeOf(out), since(t0));
    return out;
  }

  /** Weighted sum of every score plugin's normalized score, per node. */
  runScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): number[] {
    const t0 = performance.now();
    const timed = state.recordPluginMetrics;
    const n = nodes.length;
    const totals = new Array<number>(n).fill(0);
    const scores = new Array<number>(n);
    for (let j = 0; j < this.score.length; j++) {
      const { plugin, weight } = this.score[j]!;
      if (state.skipScore.has(plugin.name)) continue;
      const pm = this.plugins.score[j]!;
      if (timed) {
        const ms = this.timingsFor(n);
        let t = performance.now();
        for (let i = 0; i < n; i++) {
          scores[i] = plugin.score(state, pod, nodes[i]!);
          const t1 = performance.now();
          ms[i] = t1 - t;
          t = t1;
        }
        for (let i = 0; i < n; i++) pm.duration(Code.Success, ms[i]! / 1000);
      } else {
        for (let i = 0; i < n; i++) scores[i] = plugin.score(state, pod, nodes[i]!);
      }
      pm.evaluations.value += n;
      if (plugin.normalizeScore) {
        const t = start(timed);
        plugin.normalizeScore(state, pod, nodes, scores);
        done(t, this.plugins.normalize[j]!, Code.Success);
      }
      for (let i = 0; i < n; i++) {
        const s = scores[i]!;
        totals[i]! += (s < 0 ? 0 : s > MAX_NODE_SCORE ? MAX_NODE_SCORE : s) * weight;
      }
    }
    this.points.score.observe(Code.Success, since(t0));
    return totals;
  }

  runReserve(state: CycleState, pod: Pod, node: string): Status | null {
    const t0 = performance.now();
    let out: Status | null = null;
    for (let i = 0; i < this.reserve.length; i++) {
      const p = this.reserve[i]!;
      const t = start(state.recordPluginMetrics);
      const s = p.reserve(state, pod, node);
      done(t, this.plugins.reserve[i]!, codeOf(s));
      if (s && s.code !== Code.Success) { out = { ...s, plugin: p.name }; break; }
    }
    this.points.reserve.observe(codeOf(out), since(t0));
    return out;
  }

  runUnreserve(state: CycleState, pod: Pod, node: string): void {
    const t0 = performance.now();
    for (let i = this.reserve.length - 1; i >= 0; i--) {
      const t = start(state.recordPluginMetrics);
      this.reserve[i]!.unreserve(state, pod, node);
      done(t, this.plugins.unreserve[i]!, Code.Success);
    }
    this.points.unreserve.observe(Code.Success, since(t0));
  }

  /** Permit: a rejection, or how long to wait (the longest any plugin asked) when one says Wait. */
  runPermit(state: CycleState, pod: Pod, node: string): { status: Status | null; waitMs?: number; waiting: string[] } {
    const t0 = performance.now();
    let waitMs: number | undefined;
    const waiting: string[] = [];
    let rejected: Status | null = null;
    for (let i = 0; i < this.permit.length; i++) {
      const p = this.permit[i]!;
      const t = start(state.recordPluginMetrics);
      const r = p.permit(state, pod, node);
      done(t, this.plugins.permit[i]!, codeOf(r.status));
      if (r.status?.code === Code.Wait) {
        waiting.push(p.name);
        waitMs = Math.max(waitMs ?? 0, Math.min(r.timeoutMs ?? 0, 15 * 60_000));
        continue;
      }
      if (r.status && r.status.code !== Code.Success) { rejected = { ...r.status, plugin: p.name }; break; }
    }
    this.points.permit.observe(rejected ? rejected.code : waiting.length ? Code.Wait : Code.Success, since(t0));
    return rejected ? { status: rejected, waiting } : { status: null, waitMs, waiting };
  }

  async runPreBind(state: CycleState, pod: Pod, node: string): Promise<Status | null> {
    const t0 = performance.now();
    let out: Status | null = null;
    for (let i = 0; i < this.preBind.length; i++) {
      const p = this.preBind[i]!;
      const t = start(state.recordPluginMetrics);
      const s = await p.preBind(state, pod, node);
      done(t, this.plugins.preBind[i]!, codeOf(s));
      if (s && s.code !== Code.Success && s.code !== Code.Skip) { out = { ...s, plugin: p.name }; break; }
    }
    this.points.preBind.observe(codeOf(out), since(t0));
    return out;
  }

  async runBind(state: CycleState, pod: Pod, node: string): Promise<Status | null> {
    const t0 = performance.now();
    let out: Status | null | undefined;
    for (let i = 0; i < this.bind.length; i++) {
      const p = this.bind[i]!;
      const t = start(state.recordPluginMetrics);
      const s = await p.bind(state, pod, node);
      done(t, this.plugins.bind[i]!, codeOf(s));
      if (s?.code === Code.Skip) continue;
      out = s && s.code !== Code.Success ? { ...s, plugin: p.name } : null;
      break;
    }
    if (out === undefined) out = { code: Code.Error, reasons: ['no bind plugin bound the pod'] };
    this.points.bind.observe(codeOf(out), since(t0));
    return out;
  }

  /** PostBind: told the pod is bound; always Success, as upstream. */
  runPostBind(state: CycleState, pod: Pod, node: string): void {
    const t0 = performance.now();
    for (let i = 0; i < this.postBind.length; i++) {
      const t = start(state.recordPluginMetrics);
      this.postBind[i]!.postBind(state, pod, node);
      done(t, this.plugins.postBind[i]!, Code.Success);
    }
    this.points.postBind.observe(Code.Success, since(t0));
  }
}
