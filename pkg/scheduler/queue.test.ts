import { describe, expect, it } from 'vitest';
import { FakeClock, type Client } from '../client/index.js';
import { SchedulerCache } from './cache.js';
import { parseConfiguration } from './config.js';
import type { Handle } from './framework/interface.js';
import { NO_PREEMPTION_METRICS } from './framework/metrics.js';
import { Framework } from './framework/runtime.js';
import { inTreeRegistry } from './plugins/index.js';
import { SchedulingQueue } from './queue.js';

const clock = new FakeClock(1_000_000);
const handle = { client: {} as Client, cache: new SchedulerCache(clock), listers: {} as Handle['listers'], nominatedPods: () => [], framework: () => fw, recordEvent: () => undefined, now: () => clock.now(), waitingPod: () => undefined, extenders: [], metrics: NO_PREEMPTION_METRICS } as Handle;
const fw: Framework = new Framework(parseConfiguration({}).profiles[0]!, inTreeRegistry, handle);

const pod = (name: string, priority = 0, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: name }, spec: { priority, containers: [{ name: 'c' }], ...extra },
});

const node = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { disk: 'ssd' } },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } }, ...extra,
});

const newQueue = (): SchedulingQueue => new SchedulingQueue({ clock, frameworkFor: () => fw });

describe('SchedulingQueue', () => {
  it('pops by priority, then by arrival', async () => {
    const q = newQueue();
    q.add(pod('a', 0));
    await clock.advance(1);
    q.add(pod('b', 10));
    await clock.advance(1);
    q.add(pod('c', 0));
    const order = [];
    for (let i = 0; i < 3; i++) order.push((await q.pop())!.key);
    expect(order).toEqual(['default/b', 'default/a', 'default/c']);
  });

  it('keeps unschedulable pods until an event their plugins registered, then backs off 1 s doubling to 10 s', async () => {
    const incoming: string[] = [];
    const q = new SchedulingQueue({ clock, frameworkFor: () => fw, incoming: (queue, event) => incoming.push(`${queue} ${event}`) });
    q.run();
    q.add(pod('p'));
    const info = (await q.pop())!;
    info.unschedulablePlugins = new Set(['NodeResourcesFit']);
    q.addUnschedulable(info);
    expect(q.stats()).toMatchObject({ active: 0, unschedulable: 1 });
    q.moveAllToActiveOrBackoff({ resource: 'PersistentVolume', action: 'Add' });
    expect(q.stats().unschedulable).toBe(1);
    q.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Add' }, undefined, node('n'));
    // attempts 1: backoff 1 s from the failure, not over yet
    expect(q.stats()).toMatchObject({ backoff: 1, unschedulable: 0 });
    await clock.advance(1000);
    expect(q.stats().active).toBe(1);
    const again = (await q.pop())!;
    expect(again.attempts).toBe(2);
    q.addUnschedulable(again, { error: true });
    expect(q.stats().backoff).toBe(1);
    // each move, as scheduler_queue_incoming_pods_total counts them
    expect(incoming).toEqual(['active PodAdd', 'unschedulable ScheduleAttemptFailure', 'backoff NodeAdd', 'active BackoffComplete', 'backoff ScheduleAttemptFailure']);
    await clock.advance(1000);
    expect(q.stats().backoff).toBe(1); // 2 s for the second attempt
    await clock.advance(1000);
    expect(q.stats().active).toBe(1);
    q.close();
  });

  it('retries an unschedulable pod after 5 minutes without events', async () => {
    const q = newQueue();
    q.run();
    q.add(pod('slow'));
    const info = (await q.pop())!;
    info.unschedulablePlugins = new Set(['NodeAffinity']);
    q.addUnschedulable(info);
    await clock.advance(4 * 60_000);
    expect(q.stats().unschedulable).toBe(1);
    await clock.advance(90_000);
    expect(q.stats()).toMatchObject({ unschedulable: 0, active: 1 });
    q.close();
  });

  it('sends a pod that failed while a relevant event happened to backoff, not to the unschedulable pods', async () => {
    const q = newQueue();
    q.add(pod('racy'));
    const info = (await q.pop())!;
    q.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Add' }, undefined, node('n'));
    info.unschedulablePlugins = new Set(['NodeResourcesFit']);
    q.addUnschedulable(info);
    expect(q.stats()).toMatchObject({ backoff: 1, unschedulable: 0 });
  });

  it('holds pods with schedulingGates until an update removes them', async () => {
    const q = newQueue();
    const gated = pod('gated', 0, { schedulingGates: [{ name: 'x' }] });
    q.add(gated);
    expect(q.stats()).toMatchObject({ active: 0, gated: 1 });
    q.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Add' });
    expect(q.stats().gated).toBe(1);
    q.update(gated, pod('gated'));
    expect(q.stats()).toMatchObject({ active: 1, gated: 0 });
  });

  it('moves a pod only when a hint of a plugin that rejected it says Queue', async () => {
    const q = newQueue();
    const reject = async (p: ReturnType<typeof pod>, plugin: string): Promise<void> => {
      q.add(p);
      const info = (await q.pop())!;
      info.unschedulablePlugins = new Set([plugin]);
      q.addUnschedulable(info);
    };
    const big = pod('big', 0, { containers: [{ name: 'c', resources: { requests: { cpu: '8' } } }] });
    const picky = pod('picky', 0, { nodeSelector: { disk: 'nvme' } });
    const tainted = pod('tainted');
    const ported = pod('ported', 0, { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 8080 }] }] });
    await reject(big, 'NodeResourcesFit');
    await reject(picky, 'NodeAffinity');
    await reject(tainted, 'TaintToleration');
    await reject(ported, 'NodePorts');
    const unschedulable = (): number => q.stats().unschedulable;
    expect(unschedulable()).toBe(4);
    // unrelated to all of them: a node too small, without nvme and tainted; a PV
    q.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Update' }, node('small'), node('small', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }));
    q.moveAllToActiveOrBackoff({ resource: 'PersistentVolume', action: 'Add' }, undefined, { metadata: { name: 'pv' } });
    expect(unschedulable()).toBe(4);
    // a deleted assigned pod without host ports frees cpu: only NodeResourcesFit's pod moves
    q.moveAllToActiveOrBackoff({ resource: 'AssignedPod', action: 'Delete' }, { ...pod('other'), spec: { nodeName: 'n1', containers: [{ name: 'c' }] } });
    expect(unschedulable()).toBe(3);
    expect(q.stats().backoff).toBe(1);
    // a node that gains nvme: only NodeAffinity's pod moves; a node losing its taint: TaintToleration's
    q.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Update' }, node('n1'), node('n1', { metadata: { name: 'n1', labels: { disk: 'nvme' } } }));
    expect(unschedulable()).toBe(2);
    const taintedNode = node('n2', { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } });
    q.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Update' }, taintedNode, node('n2', { metadata: { name: 'n2', labels: { disk: 'nvme' } }, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }));
    expect(unschedulable()).toBe(2);
    q.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Update' }, taintedNode, node('n2'));
    expect(unschedulable()).toBe(1);
    // a deleted pod holding host port 8080 frees it for the last one
    q.moveAllToActiveOrBackoff({ resource: 'AssignedPod', action: 'Delete' }, { ...pod('holder'), spec: { nodeName: 'n1', containers: [{ name: 'c', ports: [{ containerPort: 1, hostPort: 8080 }] }] } });
    expect(unschedulable()).toBe(0);
    expect(q.stats().backoff).toBe(4);
  });

  it('checks the hints against the events seen while a pod was in flight', async () => {
    const q = newQueue();
    q.add(pod('p', 0, { nodeSelector: { disk: 'nvme' } }));
    const info = (await q.pop())!;
    q.moveAllToActiveOrBackoff({ resource: 'Node', action: 'Add' }, undefined, { metadata: { name: 'n', labels: { disk: 'ssd' } } });
    info.unschedulablePlugins = new Set(['NodeAffinity']);
    q.addUnschedulable(info);
    expect(q.stats()).toMatchObject({ backoff: 0, unschedulable: 1 });
  });
});
