// Leader election on a real Lease and the event recorder writing real Events: two candidates, one leads and the
// other takes over when the first stops; identical events become one Event with a count; many similar ones combine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, COMBINED_PREFIX, EventRecorder, LeaderElector, loadKubeconfig } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let c: Client;

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0 });
  for (const ns of ['le', 'ev']) await c.namespaces().create({ metadata: { name: ns } });
});
afterAll(async () => {
  await c?.close();
  await s?.close();
});

const waitFor = async (pred: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('leader election on a Lease', () => {
  it('one of two candidates leads; the other takes over when it stops', async () => {
    const log: string[] = [];
    const elector = (id: string) => new LeaderElector({
      leases: c.leases('le'), name: 'controller', identity: id,
      leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 200,
      callbacks: { onStartedLeading: () => { log.push(`${id} leads`); }, onStoppedLeading: () => { log.push(`${id} stopped`); } },
    });
    const a = elector('a');
    const b = elector('b');
    const acA = new AbortController();
    const acB = new AbortController();
    const runA = a.run(acA.signal);
    await waitFor(() => a.isLeader(), 'a leads');
    const runB = b.run(acB.signal);
    await waitFor(() => b.getLeader() === 'a', 'b sees a');
    await new Promise((r) => setTimeout(r, 600)); // several renewals of a, several tries of b
    expect(b.isLeader()).toBe(false);
    const lease = await c.leases('le').get('controller');
    expect(lease.spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 3, leaseTransitions: 0 });
    acA.abort();
    await runA;
    await waitFor(() => b.isLeader(), 'b takes over');
    expect((await c.leases('le').get('controller')).spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    acB.abort();
    await runB;
    expect(log).toEqual(['a leads', 'a stopped', 'b leads', 'b stopped']);
  });
});

describe('event recorder', () => {
  it('writes Events, counts repeats with a patch, and combines similar ones', async () => {
    const pod = await c.pods('ev').create({ metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const rec = new EventRecorder({ sink: c.events(), component: 'test-controller', host: 'h1', maxEvents: 5 });
    for (let i = 0; i < 3; i++) rec.event(pod, 'Normal', 'Pulled', 'Successfully pulled image "nginx"');
    await rec.flush();
    let events = (await c.events('ev').list()).items.filter((e) => e.source?.component === 'test-controller');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      reason: 'Pulled', type: 'Normal', count: 3, message: 'Successfully pulled image "nginx"',
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'ev', uid: pod.metadata!.uid },
      source: { component: 'test-controller', host: 'h1' }, reportingComponent: 'test-controller',
    });
    expect(events[0]!.metadata!.name).toMatch(/^web\.[0-9a-f]+$/);
    for (let i = 0; i < 8; i++) rec.eventf(pod, 'Warning', 'BackOff', 'Back-off restarting failed container %s (%d)', 'c', i);
    await rec.flush();
    events = (await c.events('ev').list()).items.filter((e) => e.reason === 'BackOff');
    const combined = events.filter((e) => e.message!.startsWith(COMBINED_PREFIX));
    expect(events.length).toBe(5); // 4 distinct, then one combined event
    expect(combined).toHaveLength(1);
    expect(combined[0]!.count).toBe(4);
    expect(combined[0]!.message).toBe(`${COMBINED_PREFIX}Back-off restarting failed container c (7)`);
  });
});
