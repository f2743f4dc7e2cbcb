import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfiguration, pluginsFor } from './config.js';
import { fitErrorMessage } from './diagnosis.js';
import { Code } from './framework/interface.js';
import { numFeasibleNodesToFind } from './schedule-one.js';

const all = (): boolean => true;

describe('KubeSchedulerConfiguration', () => {
  it('defaults as upstream v1', () => {
    const c = parseConfiguration({});
    expect(c.profiles.map((p) => p.schedulerName)).toEqual(['default-scheduler']);
    expect(c.leaderElection).toMatchObject({ leaderElect: true, leaseDurationMs: 15_000, resourceNamespace: 'kube-system', resourceName: 'kube-scheduler' });
    expect(c.podInitialBackoffSeconds).toBe(1);
    expect(c.podMaxBackoffSeconds).toBe(10);
  });

  it('merges enabled and disabled plugins with the defaults', () => {
    const p = parseConfiguration({
      profiles: [{ schedulerName: 'x', plugins: { score: { enabled: [{ name: 'NodeResourcesFit', weight: 5 }], disabled: [{ name: 'ImageLocality' }] }, filter: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeName' }] } } }],
    }).profiles[0]!;
    const score = pluginsFor(p, 'score', all);
    expect(score[0]).toEqual({ name: 'NodeResourcesFit', weight: 5 });
    expect(score.map((s) => s.name)).not.toContain('ImageLocality');
    expect(pluginsFor(p, 'filter', all).map((s) => s.name)).toEqual(['NodeName']);
  });

  it('refuses other versions and duplicate scheduler names', () => {
    expect(() => parseConfiguration({ apiVersion: 'kubescheduler.config.k8s.io/v1beta3' })).toThrow(ConfigError);
    expect(() => parseConfiguration({ profiles: [{ schedulerName: 'a' }, { schedulerName: 'a' }] })).toThrow('Duplicate value: "a"');
  });

  it('defaults and validates extenders; their ignored managed resources become NodeResourcesFit ignoredResources', () => {
    const c = parseConfiguration({
      extenders: [{ urlPrefix: 'http://x/ext', prioritizeVerb: 'p', weight: 2, managedResources: [{ name: 'example.com/gpu', ignoredByScheduler: true }, { name: 'example.com/fpga' }] }],
      profiles: [{ schedulerName: 'a', pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } }] }],
    });
    expect(c.extenders[0]).toMatchObject({ urlPrefix: 'http://x/ext', weight: 2, httpTimeoutMs: 5000, nodeCacheCapable: false, ignorable: false });
    expect(c.profiles[0]!.pluginConfig).toEqual([{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' }, ignoredResources: ['example.com/gpu'] } }]);
    expect(() => parseConfiguration({ extenders: [{ urlPrefix: 'http://x', prioritizeVerb: 'p' }] })).toThrow('extenders[0].weight: Invalid value: 0: must have a positive weight applied to it');
    expect(() => parseConfiguration({ extenders: [{ urlPrefix: 'http://a', bindVerb: 'b' }, { urlPrefix: 'http://b', bindVerb: 'b' }] })).toThrow('only one extender can implement bind');
    expect(() => parseConfiguration({ extenders: [{ urlPrefix: 'http://a', managedResources: [{ name: 'r' }, { name: 'r' }] }] })).toThrow('duplicate extender managed resource name');
  });

  it('uses the adaptive percentage of nodes to score', () => {
    expect(numFeasibleNodesToFind(50, 0)).toBe(50);
    expect(numFeasibleNodesToFind(5000, 0)).toBe(500); // 50 - 5000/125 = 10%
    expect(numFeasibleNodesToFind(1000, 0)).toBe(420);
    expect(numFeasibleNodesToFind(100_000, 0)).toBe(5000); // floor of 5%
    expect(numFeasibleNodesToFind(5000, 100)).toBe(5000);
    expect(numFeasibleNodesToFind(200, 10)).toBe(100);
  });

  it('words a fit error as upstream', () => {
    const st = (r: string) => ({ code: Code.Unschedulable, reasons: [r] });
    const msg = fitErrorMessage(3, {
      nodeStatuses: new Map([['a', st('Insufficient cpu')], ['b', st('Insufficient cpu')], ['c', st('Insufficient cpu')]]),
      unschedulablePlugins: new Set(), postFilterMsg: 'preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    });
    expect(msg).toBe('0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.');
  });
});
