import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Clock, KubeObject } from '../client/index.js';
import { crossed, emptyDirOverLimit, EvictionManager, evictionMessage, parseThresholds, pressureRejection, qosClass, rankForEviction } from './eviction.js';

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

describe('emptyDir sizeLimit eviction', () => {
  const withCache = (name: string, sizeLimit?: string): KubeObject => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' },
    spec: { volumes: [{ name: 'cfg', configMap: { name: 'c' } }, { name: 'cache', emptyDir: sizeLimit ? { sizeLimit } : {} }] },
  });

  it('says which emptyDir holds more than its sizeLimit, in upstream\'s words', () => {
    expect(emptyDirOverLimit(withCache('a', '10Mi'), new Map([['cache', 11 * 2 ** 20]]))).toBe('Usage of EmptyDir volume "cache" exceeds the limit "10Mi". ');
    // the quantity as its String() gives it
    expect(emptyDirOverLimit(withCache('a', '10485760'), new Map([['cache', 11 * 2 ** 20]]))).toBe('Usage of EmptyDir volume "cache" exceeds the limit "10485760". ');
    expect(emptyDirOverLimit(withCache('a', '1024Ki'), new Map([['cache', 11 * 2 ** 20]]))).toBe('Usage of EmptyDir volume "cache" exceeds the limit "1Mi". ');
    expect(emptyDirOverLimit(withCache('a', '10Mi'), new Map([['cache', 10 * 2 ** 20]]))).toBeUndefined();
    expect(emptyDirOverLimit(withCache('a'), new Map([['cache', 2 ** 40]]))).toBeUndefined();
  });

  it('evicts every pod past its limit before looking at the node', async () => {
    const evicted: [string, string][] = [];
    let observed = 0;
    const manager = new EvictionManager({
      thresholds: parseThresholds('memory.available<100Mi'), clock: undefined as unknown as Clock, logger: pino({ level: 'silent' }),
      observe: () => { observed++; return Promise.resolve({ 'memory.available': { available: 2 ** 40, capacity: 2 ** 40 } }); },
      activePods: () => [withCache('over', '1Mi'), withCache('under', '1Gi'), withCache('unlimited')],
      evict: (pod, message) => { evicted.push([pod.metadata!.name!, message]); },
      onPressureChange: () => undefined,
      emptyDirUsage: () => Promise.resolve(new Map([['cache', 5 * 2 ** 20]])),
    });
    await manager.check();
    expect(evicted).toEqual([['over', 'Usage of EmptyDir volume "cache" exceeds the limit "1Mi". ']]);
    expect(observed).toBe(0);
  });
});
