// The scheduler in this process against a real apiserver: pods get bound, requests and taints are respected,
// an unschedulable pod gets upstream's FailedScheduling event and PodScheduled=False condition and is scheduled
// once a node appears; schedulingGates keep a pod out until removed.
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { adminClient, createNode, eventsFor, eventually, podObject, startScheduler, waitBound, type RunningScheduler } from './scheduler-support.js';

let api: TestApiServer;
let client: Client;
let sched: RunningScheduler;

beforeAll(async () => {
  api = await startTestApiServer();
  client = await adminClient(api);
  await createNode(client, 'n1', { cpu: '2', memory: '4Gi' });
  await createNode(client, 'n2', { cpu: '2', memory: '4Gi' });
  await createNode(client, 'n3', { cpu: '2', memory: '4Gi', taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
  sched = startScheduler(client);
});

afterAll(async () => {
  await sched?.stop();
  await client?.close();
  await api?.close();
});

describe('scheduler', () => {
  it('binds pods and records Scheduled events', async () => {
    await client.pods('default').create(podObject('web-1'));
    const node = await waitBound(client, 'web-1');
    expect(['n1', 'n2']).toContain(node);
    const ev = await eventually(async () => (await eventsFor(client, 'web-1')).find((e) => e.reason === 'Scheduled'), 10_000, 'Scheduled event');
    expect(ev.message).toBe(`Successfully assigned default/web-1 to ${node}`);
    // written through events.k8s.io/v1, as upstream's: the core view has no source, count or first/last timestamps
    expect(ev).toMatchObject({
      action: 'Binding', reportingComponent: 'default-scheduler', reportingInstance: `default-scheduler-${hostname()}`,
      source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(ev.count).toBeUndefined();
    const v1 = (await api.api('GET', `/apis/events.k8s.io/v1/namespaces/default/events/${ev.metadata!.name}`)).body;
    expect(v1).toMatchObject({ reportingController: 'default-scheduler', action: 'Binding', note: ev.message, regarding: { kind: 'Pod', name: 'web-1' } });
    expect(v1.deprecatedCount).toBeUndefined();
    expect(v1.series).toBeUndefined();
    expect((await api.kubectl('describe', 'pod', 'web-1')).stdout).toMatch(new RegExp(`Normal +Scheduled +\\S+ +default-scheduler +Successfully assigned default/web-1 to ${node}`));
    const table = (await api.kubectl('get', 'events', '--field-selector', 'involvedObject.name=web-1,reason=Scheduled', '-o', 'wide')).stdout;
    expect(table).toMatch(new RegExp(`Normal +Scheduled +pod/web-1 +default-scheduler, default-scheduler-${hostname()} +Successfully assigned default/web-1 to ${node} +\\S+ +1 +web-1\\.`));
    const pod = await client.pods('default').get('web-1');
    expect(pod.status?.conditions?.find((c: { type: string }) => c.type === 'PodScheduled')?.status).toBe('True');
  });

  it('respects taints and tolerations', async () => {
    const tolerating = podObject('tolerating', { spec: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }], nodeSelector: { 'kubernetes.io/hostname': 'n3' } } });
    await client.pods('default').create(tolerating);
    expect(await waitBound(client, 'tolerating')).toBe('n3');
    await client.pods('default').create(podObject('plain-to-n3', { spec: { nodeSelector: { 'kubernetes.io/hostname': 'n3' } } }));
    const ev = await eventually(async () => (await eventsFor(client, 'plain-to-n3')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toBe("0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
    await client.pods('default').delete('plain-to-n3');
  });

  it('reports an unschedulable pod as upstream and schedules it once a node appears', async () => {
    await client.pods('default').create(podObject('big', { cpu: '3' }));
    const ev = await eventually(async () => (await eventsFor(client, 'big')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev).toMatchObject({ type: 'Warning', action: 'Scheduling', reportingComponent: 'default-scheduler', source: {} });
    expect(ev.message).toBe('0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.');
    const cond = await eventually(async () => (await client.pods('default').get('big')).status?.conditions?.find((c: { type: string }) => c.type === 'PodScheduled'), 10_000, 'condition');
    expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable', message: ev.message });
    await createNode(client, 'n4', { cpu: '8', memory: '16Gi' });
    expect(await waitBound(client, 'big')).toBe('n4');
  });

  it('counts requests: pods fill a node up to its allocatable; a deleted pod makes room', async () => {
    await createNode(client, 'tiny', { cpu: '1', memory: '1Gi', labels: { pool: 'tiny' } });
    for (const i of [1, 2, 3]) {
      await client.pods('default').create(podObject(`fill-${i}`, { cpu: '400m', spec: { nodeSelector: { pool: 'tiny' } } }));
    }
    const nodes = await Promise.all([1, 2].map((i) => waitBound(client, `fill-${i}`)));
    expect(nodes).toEqual(['tiny', 'tiny']);
    const ev = await eventually(async () => (await eventsFor(client, 'fill-3')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toContain('1 Insufficient cpu');
    // a pod leaving the node frees its share: the waiting pod is requeued by the delete and bound
    await client.pods('default').delete('fill-1', { gracePeriodSeconds: 0 });
    expect(await waitBound(client, 'fill-3')).toBe('tiny');
  });

  it('keeps a gated pod out until its schedulingGates are removed', async () => {
    await client.pods('default').create(podObject('gated', { spec: { schedulingGates: [{ name: 'example.com/wait' }] } }));
    await new Promise((r) => setTimeout(r, 500));
    expect((await client.pods('default').get('gated')).spec?.nodeName).toBeUndefined();
    expect(sched.scheduler.queue.stats().gated).toBe(1);
    // the apiserver said why at creation, as upstream's pod strategy does
    expect((await client.pods('default').get('gated')).status?.conditions).toEqual([expect.objectContaining({
      type: 'PodScheduled', status: 'False', lastProbeTime: null, reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates',
    })]);
    await client.pods('default').patch('gated', 'json', [{ op: 'remove', path: '/spec/schedulingGates' }]);
    await waitBound(client, 'gated');
    expect((await client.pods('default').get('gated')).status?.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True' })]);
  });
});
