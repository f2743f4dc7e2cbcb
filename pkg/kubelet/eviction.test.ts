import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { crossed, evictionMessage, parseThresholds, pressureRejection, qosClass, rankForEviction } from './eviction.js';

const pod = (name: string, resources?: Record<string, unknown>, priority?: number): KubeObject => ({
  metadata: { name }, spec: { ...(priority !== undefined ? { priority } : {}), containers: [{ name: 'c', ...(resources ? { resources } : {}) }] },
});

describe('eviction', () => {
  it('parses thresholds and tells which are crossed', () => {
    const t = parseThresholds('memory.available<100Mi, nodefs.available<10%');
    expect(t).toEqual([{ signal: 'memory.available', quantity: '100Mi' }, { signal: 'nodefs.available', percentage: 10 }]);
    expect(() => parseThresholds('memory.free<1Gi')).toThrow(/invalid eviction threshold "memory.free<1Gi"/);
    expect(() => parseThresholds('nodefs.available<120%')).toThrow(/out of range/);
    const obs = { 'memory.available': { available: 50 * 2 ** 20, capacity: 2 ** 30 }, 'nodefs.available': { available: 20, capacity: 100 } };
    expect(crossed(t, obs).map((x) => x.signal)).toEqual(['memory.available']);
    expect(evictionMessage(t[0]!, obs['memory.available'])).toBe('The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. ');
  });

  it('ranks BestEffort, then Burstable, then Guaranteed, lower priority first; admission under pressure as upstream', () => {
    const be = pod('be');
    const burst = pod('burst', { requests: { memory: '1Gi' } });
    const guar = pod('guar', { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } });
    const lowBurst = pod('low', { limits: { memory: '1Gi' } }, -10);
    expect([be, burst, guar, lowBurst].map(qosClass)).toEqual(['BestEffort', 'Burstable', 'Guaranteed', 'Burstable']);
    expect(rankForEviction([guar, burst, be, lowBurst]).map((p) => p.metadata!.name)).toEqual(['be', 'low', 'burst', 'guar']);
    expect(pressureRejection(be, new Set(['MemoryPressure']))).toEqual({ reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' });
    expect(pressureRejection(burst, new Set(['MemoryPressure']))).toBeUndefined();
    expect(pressureRejection(guar, new Set(['MemoryPressure', 'DiskPressure']))?.message).toBe('The node had condition: [DiskPressure MemoryPressure]. ');
    expect(pressureRejection(pod('critical', undefined, 2_000_001_000), new Set(['DiskPressure']))).toBeUndefined();
  });
});
