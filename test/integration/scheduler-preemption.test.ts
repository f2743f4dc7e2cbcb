// Preemption: a pending high-priority pod evicts the fewest lower-priority pods on the best node (sparing those a
// PodDisruptionBudget protects), gets status.nominatedNodeName, and is bound once the victims are gone. The test
// plays the kubelet: it finishes the victims' graceful deletion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { adminClient, createNode, eventsFor, eventually, podObject, startScheduler, waitBound, type RunningScheduler } from './scheduler-support.js';

let api: TestApiServer;
let client: Client;
let sched: RunningScheduler;

beforeAll(async () => {
  api = await startTestApiServer();
  client = await adminClient(api);
  await client.resource({ group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', namespaced: false }).create({
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000,
  });
  await client.resource({ group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', namespaced: false }).create({
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high-polite' }, value: 1000, preemptionPolicy: 'Never',
  });
  await createNode(client, 'pa', { cpu: '2', labels: { pool: 'p' } });
  await createNode(client, 'pb', { cpu: '2', labels: { pool: 'p' } });
  // Before the scheduler starts, so that its caches hold it once synced (the scheduler schedules only then): the PDB
  // informer's watch is a stream of its own, which may trail the pods' (upstream's preemption tests wait for
  // their PDBs in the scheduler's cache, waitCachedPDBsStable, for the same reason).
  await client.resource({ group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', namespaced: true }, 'default').create({
    apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'protected' },
    spec: { minAvailable: 3, selector: { matchLabels: { app: 'protected' } } },
  });
  sched = startScheduler(client);
});

afterAll(async () => {
  await sched?.stop();
  await client?.close();
  await api?.close();
});

/** The kubelet's part: pods marked for deletion go away. */
const finishDeletions = async (): Promise<string[]> => {
  const gone: string[] = [];
  for (const p of (await client.pods('default').list()).items as KubeObject[]) {
    if (!p.metadata?.deletionTimestamp) continue;
    await client.pods('default').delete(p.metadata.name!, { gracePeriodSeconds: 0 }).catch(() => undefined);
    gone.push(p.metadata.name!);
  }
  return gone;
};

describe('preemption', () => {
  it('evicts the minimal set of lower-priority pods, avoiding a PodDisruptionBudget, and binds the preemptor', async () => {
    for (let i = 0; i < 3; i++) {
      await client.pods('default').create(podObject(`prot-${i}`, { cpu: '600m', labels: { app: 'protected' }, spec: { nodeSelector: { 'kubernetes.io/hostname': 'pa' } } }));
      await client.pods('default').create(podObject(`low-${i}`, { cpu: '600m', labels: { app: 'low' }, spec: { nodeSelector: { 'kubernetes.io/hostname': 'pb' } } }));
    }
    for (let i = 0; i < 3; i++) { await waitBound(client, `prot-${i}`); await waitBound(client, `low-${i}`); }

    await client.pods('default').create(podObject('vip', { cpu: '1', spec: { priorityClassName: 'high', nodeSelector: { pool: 'p' } } }));
    const nominated = await eventually(async () => (await client.pods('default').get('vip')).status?.nominatedNodeName as string | undefined, 15_000, 'nominatedNodeName');
    expect(nominated).toBe('pb');
    const ev = await eventually(async () => (await eventsFor(client, 'vip')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toBe('0/2 nodes are available: 2 Insufficient cpu.');
    const victims = await eventually(async () => {
      const pods = (await client.pods('default').list()).items as KubeObject[];
      const terminating = pods.filter((p) => p.metadata?.deletionTimestamp).map((p) => p.metadata!.name!).sort();
      return terminating.length ? terminating : undefined;
    }, 10_000, 'victims');
    expect(victims).toHaveLength(2);
    for (const v of victims) expect(v).toMatch(/^low-/);
    const victim = await client.pods('default').get(victims[0]!);
    expect(victim.status?.conditions?.find((c: { type: string }) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'PreemptionByScheduler' });
    const vip = await client.pods('default').get('vip');
    const preempted = await eventually(async () => (await eventsFor(client, victims[0]!)).find((e) => e.reason === 'Preempted'), 10_000, 'Preempted');
    expect(preempted).toMatchObject({
      action: 'Preempting', reportingComponent: 'default-scheduler', message: `Preempted by pod ${vip.metadata!.uid} on node pb`,
      involvedObject: { kind: 'Pod', name: victims[0] }, related: { kind: 'Pod', name: 'vip', uid: vip.metadata!.uid },
    });
    await finishDeletions();
    expect(await waitBound(client, 'vip')).toBe('pb');
    const pods = (await client.pods('default').list()).items as KubeObject[];
    expect(pods.filter((p) => p.metadata?.name?.startsWith('prot-'))).toHaveLength(3);
  });

  it('does not preempt for a pod with preemptionPolicy Never, nor pods of equal priority', async () => {
    // the Priority admission plugin sees new PriorityClasses through its cache: retry until it does
    await eventually(() => client.pods('default').create(podObject('polite', { cpu: '1500m', spec: { priorityClassName: 'high-polite', nodeSelector: { pool: 'p' } } })), 10_000, 'create polite');
    const ev = await eventually(async () => (await eventsFor(client, 'polite')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toBe('0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.');
    await client.pods('default').create(podObject('peer', { cpu: '1500m', spec: { nodeSelector: { pool: 'p' } } }));
    const ev2 = await eventually(async () => (await eventsFor(client, 'peer')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev2.message).toBe('0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.');
  });

  it('reports the filter\'s reason for a node whose lower-priority pods, all evicted, would not make room', async () => {
    for (const name of ['polite', 'peer']) await client.pods('default').delete(name, { gracePeriodSeconds: 0 });
    await createNode(client, 'pc', { cpu: '2', labels: { pool: 'p' } });
    await client.pods('default').create(podObject('peer-high', { cpu: '1', spec: { priorityClassName: 'high', nodeSelector: { 'kubernetes.io/hostname': 'pc' } } }));
    await waitBound(client, 'peer-high');
    // pa: only lower-priority pods, 2 cpu without them; pb: 1 cpu without its lower-priority one; pc: none lower
    await client.pods('default').create(podObject('huge', { cpu: '2500m', spec: { priorityClassName: 'high', nodeSelector: { pool: 'p' } } }));
    const ev = await eventually(async () => (await eventsFor(client, 'huge')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toBe('0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Insufficient cpu.');
    expect((await client.pods('default').list()).items.filter((p: KubeObject) => p.metadata?.deletionTimestamp)).toEqual([]);
  });
});
