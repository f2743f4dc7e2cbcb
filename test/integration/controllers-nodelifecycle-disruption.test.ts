// Node lifecycle on first sight of a node and in full disruption (upstream 1.32 monitorNodeHealth / handleDisruption):
// a node first seen (here: every node, the controller manager starting) has its NoExecute taints lifted at once and
// set again from its Ready condition, a not-ready node carrying the unreachable taint swapped to not-ready without
// waiting for the rate limiter; when every zone is fully disrupted the NoExecute taints are lifted once, on entering,
// not at every pass; nodes labelled node.kubernetes.io/exclude-disruption do not count in their zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, formatTime, loadKubeconfig, type KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { controllerManagerKubeconfig, eventually, startInProcess } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> } | undefined;

const OLD = '2020-01-01T00:00:00Z';
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';
type Taint = { key: string; effect: string; timeAdded?: string };

const readyCondition = (status: string): unknown =>
  ({ type: 'Ready', status, reason: 'KubeletReady', message: 'kubelet', lastHeartbeatTime: formatTime(Date.now()), lastTransitionTime: formatTime(Date.now()) });

async function makeNode(name: string, o: { ready?: string; taints?: Taint[]; labels?: Record<string, string> }): Promise<void> {
  const created = await c.nodes().create({
    apiVersion: 'v1', kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: { taints: o.taints ?? [] },
  });
  if (o.ready) await c.nodes().updateStatus({ ...created, status: { conditions: [readyCondition(o.ready)] } });
}

async function setReady(name: string, status: string): Promise<void> {
  const n = await c.nodes().get(name);
  await c.nodes().updateStatus({ ...n, status: { ...n.status, conditions: [readyCondition(status)] } });
}

const noExecute = (n: KubeObject): Taint[] => ((n.spec?.taints ?? []) as Taint[]).filter((t) => t.effect === 'NoExecute');
const registered = (name: string): Promise<unknown> => eventually(
  () => c.events('default').list({ fieldSelector: `reason=RegisteredNode,involvedObject.name=${name}` }), (l) => l.items.length > 0, `${name} registered`);

const z1 = { 'topology.kubernetes.io/zone': 'z1' };
const excluded = { ...z1, 'node.kubernetes.io/exclude-disruption': '' };

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0 });
  // z1: two ready and two not ready (a Normal zone)
  await makeNode('r1', { ready: 'True', labels: z1 });
  await makeNode('r2', { ready: 'True', labels: z1 });
  await makeNode('f1', { ready: 'False', labels: z1, taints: [{ key: NOT_READY, effect: 'NoExecute', timeAdded: OLD }] });
  await makeNode('u1', { ready: 'False', labels: z1, taints: [{ key: UNREACHABLE, effect: 'NoExecute', timeAdded: OLD }] });
  // its kubelet never posted status (the startup grace period long): only its taint is lifted; its zone is down
  await makeNode('n0', { labels: { 'topology.kubernetes.io/zone': 'z0' }, taints: [{ key: UNREACHABLE, effect: 'NoExecute', timeAdded: OLD }] });
}, 30_000);

afterAll(async () => {
  await cm?.stop();
  await c?.close();
  await s?.close();
});

describe('node lifecycle: first sight and full disruption', () => {
  it('on first sight lifts a node\'s NoExecute taints and sets them again from its Ready condition', async () => {
    const started = Date.now();
    cm = await startInProcess(await controllerManagerKubeconfig(s), {
      controllers: ['nodelifecycle'],
      // a rate that lets one taint through per zone: u1's swap must not need a token
      config: { nodeMonitorPeriodMs: 200, nodeMonitorGracePeriodMs: 60_000, nodeStartupGracePeriodMs: 60_000, nodeEvictionRate: 0.001 },
    });
    const n0 = await eventually(() => c.nodes().get('n0'), (n) => noExecute(n).length === 0, 'n0 untainted');
    expect(n0.status?.conditions ?? []).toEqual([]);
    const f1 = await eventually(() => c.nodes().get('f1'), (n) => noExecute(n).some((t) => t.timeAdded !== OLD), 'f1 tainted anew');
    expect(noExecute(f1)).toEqual([{ key: NOT_READY, effect: 'NoExecute', timeAdded: expect.any(String) }]);
    expect(Date.parse(noExecute(f1)[0]!.timeAdded!)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
    const u1 = await eventually(() => c.nodes().get('u1'), (n) => noExecute(n).some((t) => t.key === NOT_READY), 'u1 swapped to not-ready');
    expect(noExecute(u1).map((t) => t.key)).toEqual([NOT_READY]);
  });

  it('lifts every NoExecute taint once when every zone is fully disrupted, and leaves later ones', async () => {
    await setReady('r1', 'False');
    await setReady('r2', 'False');
    for (const name of ['f1', 'u1']) await eventually(() => c.nodes().get(name), (n) => noExecute(n).length === 0, `${name} untainted`);
    // a taint set while the disruption lasts stays (tainting is stopped, not undone); ready excluded nodes do not end it
    const f1 = await c.nodes().get('f1');
    await c.nodes().update({ ...f1, spec: { ...f1.spec, taints: [...((f1.spec?.taints ?? []) as Taint[]), { key: NOT_READY, effect: 'NoExecute' }] } });
    await makeNode('x1', { ready: 'True', labels: excluded });
    await registered('x1');
    await makeNode('x2', { ready: 'True', labels: excluded });
    await registered('x2'); // the pass that saw x1 (and f1's new taint) is over
    expect(noExecute(await c.nodes().get('f1')).map((t) => t.key)).toEqual([NOT_READY]);
    expect(noExecute(await c.nodes().get('r1'))).toEqual([]);
    // a node carrying the other taint is still swapped at once (upstream's processTaintBaseEviction, unlimited)
    const u1 = await c.nodes().get('u1');
    await c.nodes().update({ ...u1, spec: { ...u1.spec, taints: [...((u1.spec?.taints ?? []) as Taint[]), { key: UNREACHABLE, effect: 'NoExecute' }] } });
    await eventually(() => c.nodes().get('u1'), (n) => noExecute(n).map((t) => t.key).join() === NOT_READY, 'u1 swapped to not-ready');
  });
});
