import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FakeClock, type Client, type KubeObject, type Lister } from '../client/index.js';
import { SchedulerCache } from './cache.js';
import { parseConfiguration } from './config.js';
import { Code, type Handle } from './framework/interface.js';
import { Framework } from './framework/runtime.js';
import { CounterVec, HistogramVec } from './metric-vectors.js';
import { registerSchedulerMetrics, type QueueReader, type SchedulingObserver } from './metrics.js';
import { inTreeRegistry } from './plugins/index.js';
import { SchedulingQueue } from './queue.js';
import { schedulePod } from './schedule-one.js';

const empty = { list: () => [], get: () => undefined, namespace: () => ({ list: () => [], get: () => undefined }) } as unknown as Lister<KubeObject>;
const listers = Object.fromEntries(['pvcs', 'pvs', 'storageClasses', 'pdbs', 'namespaces', 'services', 'replicationControllers', 'replicaSets', 'statefulSets', 'csiNodes', 'csiDrivers']
  .map((k) => [k, empty])) as Handle['listers'];

const node = (name: string, cpu: string) => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu, memory: '8Gi', pods: '110' } },
});
const pod = (name: string, cpu: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: name },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu } } }], ...extra },
});

/** A profile's framework over `nodes`, reporting to a fresh registry; `random` decides which cycles are sampled. */
const setup = (random: () => number, nodes: KubeObject[] = [node('small', '1'), node('big1', '4'), node('big2', '4')]) => {
  const clock = new FakeClock(1_000_000);
  const cache = new SchedulerCache(clock);
  for (const n of nodes) cache.addNode(n);
  let queue: QueueReader | undefined;
  const registry = new Registry();
  const observer: SchedulingObserver = registerSchedulerMetrics(registry, () => queue!);
  const handle = {
    client: {} as Client, cache, listers, nominatedPods: () => [], framework: () => fw, recordEvent: () => undefined, now: () => clock.now(),
    waitingPod: () => undefined, extenders: [], metrics: observer.preemption,
  } as Handle;
  const fw: Framework = new Framework(parseConfiguration({}).profiles[0]!, inTreeRegistry, handle, observer.framework('default-scheduler', random));
  const q = new SchedulingQueue({ clock, frameworkFor: () => fw });
  queue = q;
  const run = (p: KubeObject) => schedulePod(fw, p, { nodes: cache.nodeInfos(), nominatedPods: () => [], percentageOfNodesToScore: 0, random: () => 0.5, nextStartIndex: { value: 0 }, extenders: [] });
  /** The value of one sample line (name with labels, as printed), or undefined. */
  const value = async (series: string): Promise<number | undefined> => {
    const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  return { registry, observer, fw, queue: q, clock, run, value };
};

const P = 'profile="default-scheduler"';

describe('scheduler metrics', () => {
  it('serves metric-vectors\' histograms and counters in the Prometheus text format', async () => {
    const registry = new Registry();
    const h = new HistogramVec({ name: 'test_seconds', help: 'A test.', labelNames: ['kind'], buckets: [0.1, 1], registers: [registry] });
    const c = new CounterVec({ name: 'test_total', help: 'Counted.', labelNames: ['kind', 'side'], registers: [registry] });
    const a = h.labels('a');
    expect(h.labels('a')).toBe(a);
    a.observe(0.05);
    a.observe(0.1);
    a.observe(5);
    c.labels('x', 'left').inc(2);
    expect((await registry.metrics()).trim().split('\n')).toEqual([
      '# HELP test_seconds A test.',
      '# TYPE test_seconds histogram',
      'test_seconds_bucket{kind="a",le="0.1"} 2',
      'test_seconds_bucket{kind="a",le="1"} 2',
      'test_seconds_bucket{kind="a",le="+Inf"} 3',
      'test_seconds_sum{kind="a"} 5.15',
      'test_seconds_count{kind="a"} 3',
      '',
      '# HELP test_total Counted.',
      '# TYPE test_total counter',
      'test_total{kind="x",side="left"} 2',
    ]);
    expect(() => h.labels('a', 'b')).toThrow('1 label values expected, got 2');
  });

  it('times each extension point once per cycle, every plugin call on a sampled cycle, and counts evaluations', async () => {
    const m = setup(() => 0); // every cycle sampled
    const res = await m.run(pod('p', '2'));
    expect(res.ok && res.node).toMatch(/^big/);
    for (const point of ['PreFilter', 'Filter', 'PreScore', 'Score']) {
      expect(await m.value(`scheduler_framework_extension_point_duration_seconds_count{extension_point="${point}",status="Success",${P}}`)).toBe(1);
    }
    // NodeResourcesFit ran on the 3 nodes and rejected the small one; the Filter plugins after it saw the 2 others
    const filters = m.fw.filter.map((f) => f.name);
    const fit = filters.indexOf('NodeResourcesFit');
    expect(await m.value(`scheduler_plugin_evaluation_total{plugin="NodeResourcesFit",extension_point="Filter",${P}}`)).toBe(3);
    expect(await m.value(`scheduler_plugin_execution_duration_seconds_count{plugin="NodeResourcesFit",extension_point="Filter",status="Success"}`)).toBe(2);
    expect(await m.value(`scheduler_plugin_execution_duration_seconds_count{plugin="NodeResourcesFit",extension_point="Filter",status="Unschedulable"}`)).toBe(1);
    expect(await m.value(`scheduler_plugin_evaluation_total{plugin="${filters[0]}",extension_point="Filter",${P}}`)).toBe(3);
    const text = await m.registry.metrics();
    for (const later of filters.slice(fit + 1)) {
      // skipped at PreFilter (no volumes, no spread constraints, ...) or run on the two nodes that fit
      const n = await m.value(`scheduler_plugin_evaluation_total{plugin="${later}",extension_point="Filter",${P}}`);
      const timed = await m.value(`scheduler_plugin_execution_duration_seconds_count{plugin="${later}",extension_point="Filter",status="Success"}`);
      expect([n, timed ?? 0]).toEqual(n === 0 ? [0, 0] : [2, 2]);
    }
    // Score: every plugin that ran scored both feasible nodes
    expect(await m.value(`scheduler_plugin_evaluation_total{plugin="NodeResourcesBalancedAllocation",extension_point="Score",${P}}`)).toBe(2);
    expect(await m.value(`scheduler_plugin_execution_duration_seconds_count{plugin="NodeResourcesBalancedAllocation",extension_point="Score",status="Success"}`)).toBe(2);
    // a PreFilter plugin that skips is timed (status Skip) but not counted as evaluated, as upstream's
    expect(await m.value(`scheduler_plugin_evaluation_total{plugin="NodeAffinity",extension_point="PreFilter",${P}}`)).toBe(0);
    expect(await m.value('scheduler_plugin_execution_duration_seconds_count{plugin="NodeAffinity",extension_point="PreFilter",status="Skip"}')).toBe(1);
    expect(await m.value(`scheduler_plugin_evaluation_total{plugin="TaintToleration",extension_point="PreScore",${P}}`)).toBe(1);
    expect(text).toContain('scheduler_plugin_execution_duration_seconds_bucket{plugin="NodeAffinity",extension_point="PreFilter",status="Skip",le="0.00001"}');
    expect(text).toContain('# HELP scheduler_framework_extension_point_duration_seconds [STABLE] Latency for running all plugins of a specific extension point.');
    expect(text).toContain(`scheduler_framework_extension_point_duration_seconds_bucket{extension_point="Filter",status="Success",${P},le="0.0001"}`);

    // the binding side: Reserve, Permit, Unreserve, PreBind, PostBind
    const state = res.state;
    expect(m.fw.runReserve(state, pod('p', '2'), 'big1')).toBeNull();
    expect(m.fw.runPermit(state, pod('p', '2'), 'big1').status).toBeNull();
    m.fw.runUnreserve(state, pod('p', '2'), 'big1');
    expect(await m.fw.runPreBind(state, pod('p', '2'), 'big1')).toBeNull();
    m.fw.runPostBind(state, pod('p', '2'), 'big1');
    for (const point of ['Reserve', 'Permit', 'Unreserve', 'PreBind', 'PostBind']) {
      expect(await m.value(`scheduler_framework_extension_point_duration_seconds_count{extension_point="${point}",status="Success",${P}}`)).toBe(1);
    }
    expect(await m.value('scheduler_plugin_execution_duration_seconds_count{plugin="VolumeBinding",extension_point="Reserve",status="Success"}')).toBe(1);
    expect(await m.value('scheduler_plugin_execution_duration_seconds_count{plugin="VolumeBinding",extension_point="Unreserve",status="Success"}')).toBe(1);
  });

  it('records no plugin durations on a cycle that is not sampled, and a rejection\'s status', async () => {
    const m = setup(() => 0.5);
    const res = await m.run(pod('huge', '64'));
    expect(res.ok).toBe(false);
    expect(await m.value(`scheduler_framework_extension_point_duration_seconds_count{extension_point="Filter",status="Success",${P}}`)).toBe(1);
    expect(await m.value(`scheduler_framework_extension_point_duration_seconds_count{extension_point="PreScore",status="Success",${P}}`)).toBeUndefined();
    expect(await m.value(`scheduler_plugin_evaluation_total{plugin="NodeResourcesFit",extension_point="Filter",${P}}`)).toBe(3);
    expect(await m.registry.metrics()).not.toContain('scheduler_plugin_execution_duration_seconds_count');
    // a pod held by a scheduling gate: PreEnqueue says UnschedulableAndUnresolvable
    expect(m.fw.runPreEnqueue(pod('gated', '1', { schedulingGates: [{ name: 'wait' }] }))?.plugin).toBe('SchedulingGates');
    expect(await m.value(`scheduler_framework_extension_point_duration_seconds_count{extension_point="PreEnqueue",status="UnschedulableAndUnresolvable",${P}}`)).toBe(1);
  });

  it('counts unschedulable pods per rejecting plugin while they wait, and not once they are tried again', async () => {
    const m = setup(() => 0.5);
    m.queue.add(pod('a', '64'));
    m.queue.add(pod('gated', '1', { schedulingGates: [{ name: 'wait' }] }));
    const a = (await m.queue.pop())!;
    a.unschedulablePlugins = new Set(['NodeResourcesFit', 'TaintToleration']);
    m.queue.addUnschedulable(a);
    const gauge = (plugin: string) => m.value(`scheduler_unschedulable_pods{plugin="${plugin}",${P}}`);
    expect(await gauge('NodeResourcesFit')).toBe(1);
    expect(await gauge('TaintToleration')).toBe(1);
    expect(await gauge('SchedulingGates')).toBe(1);
    expect(await m.value('scheduler_pending_pods{queue="unschedulable"}')).toBe(1);
    m.queue.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Add' }, undefined, node('n', '64'));
    await m.clock.advance(2000);
    m.queue.flushBackoffCompleted();
    expect(await gauge('NodeResourcesFit')).toBe(1); // back in activeQ, not tried yet
    expect((await m.queue.pop())!.unschedulablePlugins.size).toBe(0);
    expect(await gauge('NodeResourcesFit')).toBe(0);
    expect(await gauge('TaintToleration')).toBe(0);
  });

  it('observes the SLI by attempts, capped at 15+, and preemption', async () => {
    const m = setup(() => 0.5);
    m.observer.scheduled(1, 0.02);
    m.observer.scheduled(20, 3);
    m.observer.scheduled(2, undefined);
    m.observer.preemption.attempt();
    m.observer.preemption.victims(3);
    m.observer.permitWait(Code.Unschedulable, 1.5);
    expect(await m.value('scheduler_pod_scheduling_sli_duration_seconds_count{attempts="1"}')).toBe(1);
    expect(await m.value('scheduler_pod_scheduling_sli_duration_seconds_count{attempts="15+"}')).toBe(1);
    expect(await m.value('scheduler_pod_scheduling_attempts_count')).toBe(3);
    expect(await m.value('scheduler_preemption_attempts_total')).toBe(1);
    expect(await m.value('scheduler_preemption_victims_bucket{le="2"}')).toBe(0);
    expect(await m.value('scheduler_preemption_victims_bucket{le="4"}')).toBe(1);
    expect(await m.value('scheduler_permit_wait_duration_seconds_count{result="Unschedulable"}')).toBe(1);
  });
});
