import { describe, expect, it } from 'vitest';
import { FakeClock } from '../client/index.js';
import { SchedulerCache } from './cache.js';

const node = (name: string) => ({ metadata: { name }, status: { allocatable: { cpu: '2', memory: '4Gi', pods: '10' } } });
const pod = (name: string, cpu = '500m', nodeName?: string) => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', resources: { requests: { cpu } } }], initContainers: [{ name: 'i', resources: { requests: { cpu: '1' } } }] },
});

describe('SchedulerCache', () => {
  it('counts an assumed pod until it is confirmed, and drops it when the binding fails', () => {
    const cache = new SchedulerCache(new FakeClock());
    cache.addNode(node('n1'));
    const p = pod('a');
    cache.assumePod(p, 'n1');
    // init containers' max rule: max(500m, 1) = 1 cpu
    expect(cache.nodeInfo('n1')!.requested.cpu).toBe(1000);
    expect(cache.isAssumed(p)).toBe(true);
    cache.addPod(pod('a', '500m', 'n1'));
    expect(cache.isAssumed(p)).toBe(false);
    expect(cache.nodeInfo('n1')!.requested.cpu).toBe(1000);
    const q = pod('b');
    cache.assumePod(q, 'n1');
    expect(cache.nodeInfo('n1')!.pods.size).toBe(2);
    cache.forgetPod(q);
    expect(cache.nodeInfo('n1')!.pods.size).toBe(1);
  });

  it('expires an assumed pod whose binding finished but was never confirmed', async () => {
    const clock = new FakeClock();
    const cache = new SchedulerCache(clock, 30_000);
    cache.addNode(node('n1'));
    const p = pod('a');
    cache.assumePod(p, 'n1');
    await clock.advance(60_000);
    expect(cache.cleanupExpired()).toHaveLength(0); // binding not finished yet: never expires
    cache.finishBinding(p);
    await clock.advance(29_000);
    expect(cache.cleanupExpired()).toHaveLength(0);
    await clock.advance(2_000);
    expect(cache.cleanupExpired()).toHaveLength(1);
    expect(cache.nodeInfo('n1')!.pods.size).toBe(0);
  });

  it('keeps what a pod\'s last version worked out while only its status changes, and works it out again otherwise', () => {
    const cache = new SchedulerCache(new FakeClock());
    cache.addNode(node('n1'));
    const bound = pod('a', '500m', 'n1');
    cache.addPod(bound);
    const first = cache.nodeInfo('n1')!.pods.get('uid-a')!;
    const running = { ...pod('a', '500m', 'n1'), status: { phase: 'Running' } };
    cache.updatePod(bound, running);
    const second = cache.nodeInfo('n1')!.pods.get('uid-a')!;
    expect(second.pod).toBe(running);
    expect(second.requests).toBe(first.requests);
    // the init container (1 cpu) still sets the request; 1500m for the main container now does
    cache.updatePod(running, pod('a', '1500m', 'n1'));
    expect(cache.nodeInfo('n1')!.requested.cpu).toBe(1500);
    expect(cache.nodeInfo('n1')!.pods.size).toBe(1);
  });

  it('keeps pods of a deleted node accounted until they go', () => {
    const cache = new SchedulerCache(new FakeClock());
    cache.addNode(node('n1'));
    cache.addPod(pod('a', '500m', 'n1'));
    cache.removeNode(node('n1'));
    expect(cache.nodeInfos()).toHaveLength(0);
    cache.addNode(node('n1'));
    expect(cache.nodeInfo('n1')!.pods.size).toBe(1);
  });
});

describe('node order', () => {
  it('interleaves zones as upstream\'s nodeTree', () => {
    const cache = new SchedulerCache(new FakeClock());
    const zoned = (name: string, zone: string) => ({ ...node(name), metadata: { name, labels: { 'topology.kubernetes.io/zone': zone } } });
    for (const [n, z] of [['a1', 'a'], ['a2', 'a'], ['a3', 'a'], ['b1', 'b'], ['c1', 'c'], ['c2', 'c']] as const) cache.addNode(zoned(n, z));
    expect(cache.nodeInfos().map((n) => n.name)).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
  });
});
