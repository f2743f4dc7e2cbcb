// The runtime's bookkeeping for its metrics (framework/metrics.ts), made once per framework: the series of every
// extension point and of every plugin at each point, aligned with the plugin lists, and the Filter plugin lists per
// skip set, whose runs give the Filter plugins' evaluations without an update per plugin call.
import type { CycleState, FilterList, FilterPlugin, Plugin } from './interface.js';
import type { FrameworkMetrics, MetricPoint, PluginMetrics, PointMetrics } from './metrics.js';

export type PointName = 'preEnqueue' | 'preFilter' | 'filter' | 'postFilter' | 'preScore' | 'score' | 'reserve' | 'unreserve' | 'permit' | 'preBind' | 'bind' | 'postBind';
export type PluginPoint = PointName | 'addPod' | 'removePod' | 'normalize';

const POINT_LABELS: Record<PointName, MetricPoint> = {
  preEnqueue: 'PreEnqueue', preFilter: 'PreFilter', filter: 'Filter', postFilter: 'PostFilter', preScore: 'PreScore', score: 'Score',
  reserve: 'Reserve', unreserve: 'Unreserve', permit: 'Permit', preBind: 'PreBind', bind: 'Bind', postBind: 'PostBind',
};
const PLUGIN_POINT_LABELS: Record<PluginPoint, MetricPoint> = {
  ...POINT_LABELS, addPod: 'PreFilterExtensionAddPod', removePod: 'PreFilterExtensionRemovePod', normalize: 'ScoreExtensionNormalize',
};

/** Each extension point's series. */
export const pointSeries = (m: FrameworkMetrics): Record<PointName, PointMetrics> =>
  Object.fromEntries(Object.entries(POINT_LABELS).map(([k, label]) => [k, m.point(label)])) as Record<PointName, PointMetrics>;

/** Each plugin's series at each point, aligned with the framework's plugin list of that point. */
export const pluginSeries = (m: FrameworkMetrics, lists: Record<PluginPoint, Plugin[]>): Record<PluginPoint, PluginMetrics[]> =>
  Object.fromEntries(Object.entries(lists).map(([k, list]) => [k, list.map((p) => m.plugin(PLUGIN_POINT_LABELS[k as PluginPoint], p.name))])) as Record<PluginPoint, PluginMetrics[]>;

/** The Filter plugins a cycle runs, one list per set of plugins PreFilter skipped, each made once. */
export class FilterLists {
  /** By a bit mask of the skipped positions, or their names past 30 plugins. */
  private readonly lists = new Map<number | string, FilterList>();

  constructor(private readonly filter: FilterPlugin[], private readonly series: PluginMetrics[]) {}

  of(state: CycleState): FilterList {
    const skip = state.skipFilter;
    let key: number | string = 0;
    if (skip.size && this.filter.length <= 30) {
      let mask = 0;
      for (let i = 0; i < this.filter.length; i++) if (skip.has(this.filter[i]!.name)) mask |= 1 << i;
      key = mask;
    } else if (skip.size) {
      key = this.filter.filter((p) => skip.has(p.name)).map((p) => p.name).join(',');
    }
    let list = this.lists.get(key);
    if (!list) {
      const slots = this.filter.flatMap((p, i) => (skip.has(p.name) ? [] : [i]));
      list = { plugins: slots.map((i) => this.filter[i]!), slots: Int32Array.from(slots), runs: new Float64Array(slots.length) };
      this.lists.set(key, list);
    }
    return list;
  }

  /**
   * scheduler_plugin_evaluation_total of the Filter plugins, from the runs counted by the last plugin they called
   * (a run that stopped at position i called the plugins at 0..i). Lists are never dropped: these are totals.
   */
  foldEvaluations(): void {
    const totals = new Float64Array(this.filter.length);
    for (const list of this.lists.values()) {
      let reached = 0;
      for (let j = list.runs.length - 1; j >= 0; j--) {
        reached += list.runs[j]!;
        totals[list.slots[j]!]! += reached;
      }
    }
    this.series.forEach((pm, i) => { pm.evaluations.value = totals[i]!; });
  }
}
