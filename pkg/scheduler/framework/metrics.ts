// What the framework runtime reports of its runs, as upstream's framework/runtime does: how long every extension
// point took and with what status, each plugin's duration on the sampled cycles, and how often the PreFilter,
// Filter, PreScore and Score plugins ran. The Prometheus series behind it are in ../metrics.ts; without them every
// call is a no-op. Callers resolve their series once (point(), plugin()) and keep them.
import type { Code } from './interface.js';

/** Percentage of scheduling cycles that record per-plugin durations (upstream's pluginMetricsSamplePercent). */
export const PLUGIN_METRICS_SAMPLE_PERCENT = 10;

/** upstream's extension_point label values. */
export type MetricPoint = 'PreEnqueue' | 'PreFilter' | 'PreFilterExtensionAddPod' | 'PreFilterExtensionRemovePod' | 'Filter' | 'PostFilter'
  | 'PreScore' | 'Score' | 'ScoreExtensionNormalize' | 'Reserve' | 'Unreserve' | 'Permit' | 'PreBind' | 'Bind' | 'PostBind';

/** One extension point's runs: scheduler_framework_extension_point_duration_seconds. */
export interface PointMetrics { observe(code: Code, seconds: number): void }

/** One plugin at one extension point. */
export interface PluginMetrics {
  /** Calls of the plugin (scheduler_plugin_evaluation_total; PreFilter, Filter, PreScore and Score only). */
  readonly evaluations: { value: number };
  /** One call's duration (scheduler_plugin_execution_duration_seconds), on sampled cycles. */
  duration(code: Code, seconds: number): void;
}

/** The series of one profile's framework. */
export interface FrameworkMetrics {
  /** Whether a cycle (or one PreEnqueue run) records per-plugin durations: PLUGIN_METRICS_SAMPLE_PERCENT of them. */
  sample(): boolean;
  point(point: MetricPoint): PointMetrics;
  plugin(point: MetricPoint, plugin: string): PluginMetrics;
  /** Runs before every scrape: counts the runtime keeps its own way are brought into the series. */
  beforeCollect(fn: () => void): void;
}

/** DefaultPreemption's series (scheduler_preemption_attempts_total, scheduler_preemption_victims). */
export interface PreemptionMetrics {
  attempt(): void;
  victims(count: number): void;
}

const NO_POINT: PointMetrics = { observe: () => undefined };

export const NO_FRAMEWORK_METRICS: FrameworkMetrics = {
  sample: () => false,
  point: () => NO_POINT,
  plugin: () => ({ evaluations: { value: 0 }, duration: () => undefined }),
  beforeCollect: () => undefined,
};

export const NO_PREEMPTION_METRICS: PreemptionMetrics = { attempt: () => undefined, victims: () => undefined };
