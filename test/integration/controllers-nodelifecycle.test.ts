// Node lifecycle and taint eviction (in this process, short grace periods through the config): two nodes whose
// kubelets are played by the test; node-a keeps renewing its Lease in kube-node-lease, node-b stops. node-b becomes
// Unknown, gets the unreachable NoSchedule and NoExecute taints, its pods turn Ready=False and are evicted after
// their toleration seconds (at once without one, never with a toleration that has no seconds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, formatMicroTime, formatTime, loadKubeconfig, type KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { controllerManagerKubeconfig, eventually, setPodStatus, startInProcess } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> };
let heartbeat: NodeJS.Timeout;

const readyNode = (name: string): KubeObject => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: formatTime(Date.now()), lastTransitionTime: formatTime(Date.now()) }] },
});

const lease = (node: string): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: node, namespace: 'kube-node-lease' },
  spec: { holderIdentity: node, leaseDurationSeconds: 40, renewTime: formatMicroTime(Date.now()) },
});

const pod = (name: string, node: string, tolerations?: unknown[]): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'busybox' }], ...(tolerations ? { tolerations } : {}) },
});

beforeAll(async () => {
  // TaintNodesByCondition on, as in a cluster: new nodes are not-ready:NoSchedule until the controller sees them Ready
  s = await startTestApiServer({ storageBackend: 'memory', disableAdmissionPlugins: [] });
  c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0 });
  for (const n of ['node-a', 'node-b']) {
    const created = await c.nodes().create(readyNode(n));
    expect(created.spec.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    await c.nodes().updateStatus({ ...created, status: readyNode(n).status });
    await c.leases('kube-node-lease').create(lease(n));
  }
  // node-a's kubelet renews its lease; node-b's is silent from now on.
  heartbeat = setInterval(() => {
    void c.leases('kube-node-lease').patch('node-a', 'merge', { spec: { renewTime: formatMicroTime(Date.now()) } }).catch(() => undefined);
  }, 200);
  const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' };
  await c.pods('default').create(pod('b-short', 'node-b', [{ ...unreachable, tolerationSeconds: 2 }]));
  await c.pods('default').create(pod('b-forever', 'node-b', [unreachable]));
  // its eviction is still pending when node-b comes back
  await c.pods('default').create(pod('b-long', 'node-b', [{ ...unreachable, tolerationSeconds: 600 }]));
  await c.pods('default').create(pod('a-1', 'node-a', [{ ...unreachable, tolerationSeconds: 1 }]));
  for (const [name, ip] of [['b-short', '10.0.1.1'], ['b-forever', '10.0.1.2'], ['b-long', '10.0.1.3'], ['a-1', '10.0.0.1']] as const) await setPodStatus(c, 'default', name, true, ip);
  cm = await startInProcess(await controllerManagerKubeconfig(s), {
    controllers: ['nodelifecycle', 'taint-eviction-controller'],
    config: { nodeMonitorPeriodMs: 200, nodeMonitorGracePeriodMs: 1500, nodeStartupGracePeriodMs: 3000, nodeEvictionRate: 10 },
  });
}, 30_000);

afterAll(async () => {
  clearInterval(heartbeat);
  await cm?.stop();
  await c?.close();
  await s?.close();
});

const ready = (n: KubeObject): string | undefined => (n.status?.conditions as { type: string; status: string }[] | undefined)?.find((x) => x.type === 'Ready')?.status;
const taintKeys = (n: KubeObject): string[] => ((n.spec?.taints ?? []) as { key: string; effect: string }[]).map((t) => `${t.key}:${t.effect}`).sort();

describe('node lifecycle', () => {
  it('records RegisteredNode for each node, as kubectl describe node shows', async () => {
    const events = await eventually(() => c.events('default').list({ fieldSelector: 'reason=RegisteredNode' }), (l) => l.items.length === 2, 'two RegisteredNode events');
    const a = events.items.find((e) => e.involvedObject?.name === 'node-a')!;
    expect(a).toMatchObject({ type: 'Normal', message: 'Node node-a event: Registered Node node-a in Controller', source: { component: 'node-controller' } });
    expect(a.involvedObject).toMatchObject({ kind: 'Node', name: 'node-a', uid: (await c.nodes().get('node-a')).metadata!.uid });
  });

  it('keeps the beta OS/arch labels in step with the stable ones (upstream reconcileNodeLabels)', async () => {
    await c.nodes().patch('node-a', 'merge', { metadata: { labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'arm64', 'beta.kubernetes.io/arch': 'amd64' } } });
    const a = await eventually(() => c.nodes().get('node-a'), (n) => n.metadata?.labels?.['beta.kubernetes.io/arch'] === 'arm64', 'the beta arch label to follow');
    expect(a.metadata!.labels).toMatchObject({ 'beta.kubernetes.io/os': 'linux', 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'arm64' });
    // the other way round nothing is copied: a beta label without its stable one stays alone
    await c.nodes().patch('node-b', 'merge', { metadata: { labels: { 'beta.kubernetes.io/os': 'windows' } } });
    await c.nodes().patch('node-a', 'merge', { metadata: { labels: { 'kubernetes.io/os': 'windows' } } });
    await eventually(() => c.nodes().get('node-a'), (n) => n.metadata?.labels?.['beta.kubernetes.io/os'] === 'windows', 'node-a beta os');
    expect((await c.nodes().get('node-b')).metadata!.labels).not.toHaveProperty('kubernetes.io/os');
  });

  it('a node whose lease is not renewed becomes Unknown and is tainted unreachable', async () => {
    const node = await eventually(() => c.nodes().get('node-b'), (n) => taintKeys(n).includes('node.kubernetes.io/unreachable:NoExecute'), 'node-b to be tainted', 15_000);
    expect(ready(node)).toBe('Unknown');
    const cond = (node.status!.conditions as { type: string; reason: string; message: string }[]).find((x) => x.type === 'Ready')!;
    expect(cond).toMatchObject({ reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    await eventually(() => c.nodes().get('node-b'), (n) => taintKeys(n).includes('node.kubernetes.io/unreachable:NoSchedule'), 'the NoSchedule taint');
    // upstream's RecordNodeStatusChange: about the node by its own UID
    const notReady = await eventually(() => c.events('default').list({ fieldSelector: 'reason=NodeNotReady,involvedObject.name=node-b' }), (l) => l.items.length > 0, 'NodeNotReady');
    expect(notReady.items[0]).toMatchObject({ type: 'Normal', message: 'Node node-b status is now: NodeNotReady' });
    expect(notReady.items[0]!.involvedObject).toEqual({ apiVersion: 'v1', kind: 'Node', name: 'node-b', uid: node.metadata!.uid });
    // the healthy node lost the not-ready taint it was created with
    const a = await eventually(() => c.nodes().get('node-a'), (n) => taintKeys(n).length === 0, 'node-a without taints');
    expect(ready(a)).toBe('True');
    expect(taintKeys(a)).toEqual([]);
  });

  it('pods of the unreachable node turn Ready=False and are evicted after their toleration seconds', async () => {
    const forever = await eventually(() => c.pods('default').get('b-forever'),
      (p) => (p.status?.conditions as { type: string; status: string }[]).some((x) => x.type === 'Ready' && x.status === 'False'), 'b-forever to be not ready');
    expect(forever.metadata?.deletionTimestamp).toBeUndefined();
    const evicted = await eventually(() => c.pods('default').get('b-short'), (p) => !!p.metadata?.deletionTimestamp, 'b-short to be evicted', 15_000);
    expect((evicted.status?.conditions as { type: string; reason?: string }[]).find((x) => x.type === 'DisruptionTarget')).toMatchObject({ reason: 'DeletionByTaintManager' });
    // upstream's emitPodDeletionEvent: a reference made by hand, without uid or resourceVersion
    const marked = await eventually(() => c.events('default').list({ fieldSelector: 'reason=TaintManagerEviction,involvedObject.name=b-short' }), (l) => l.items.length > 0, 'the eviction event');
    expect(marked.items[0]).toMatchObject({ type: 'Normal', message: 'Marking for deletion Pod default/b-short' });
    expect(marked.items[0]!.involvedObject).toEqual({ apiVersion: 'v1', kind: 'Pod', name: 'b-short', namespace: 'default' });
    // Tolerating without seconds: never evicted; the healthy node's pod untouched.
    expect((await c.pods('default').get('b-forever')).metadata?.deletionTimestamp).toBeUndefined();
    const a1 = await c.pods('default').get('a-1');
    expect(a1.metadata?.deletionTimestamp).toBeUndefined();
    expect((a1.status?.conditions as { type: string; status: string }[]).find((x) => x.type === 'Ready')?.status).toBe('True');
  });

  it('a node heartbeating again is Ready and loses its NoExecute taint', async () => {
    const n = await c.nodes().get('node-b');
    const conds = (n.status!.conditions as { type: string }[]).map((x) => (x.type === 'Ready' ? { ...readyNode('node-b').status.conditions[0] } : x));
    await c.nodes().updateStatus({ ...n, status: { ...n.status, conditions: conds } });
    await c.leases('kube-node-lease').patch('node-b', 'merge', { spec: { renewTime: formatMicroTime(Date.now()) } });
    const healed = await eventually(() => c.nodes().get('node-b'), (x) => !taintKeys(x).some((k) => k.startsWith('node.kubernetes.io/unreachable')), 'the taints to go', 10_000);
    expect(ready(healed)).toBe('True');
    // the eviction still pending is cancelled, and says so (upstream's cancelWorkWithEvent)
    const cancelled = await eventually(() => c.events('default').list({ fieldSelector: 'reason=TaintManagerEviction,involvedObject.name=b-long' }), (l) => l.items.length > 0, 'the cancelling event');
    expect(cancelled.items.map((e) => e.message)).toEqual(['Cancelling deletion of Pod default/b-long']);
    expect(cancelled.items[0]!.involvedObject).toEqual({ apiVersion: 'v1', kind: 'Pod', name: 'b-long', namespace: 'default' });
    expect((await c.pods('default').get('b-long')).metadata?.deletionTimestamp).toBeUndefined();
  });

  it('a node whose kubelet never posted status is left alone for the startup grace period, counted from its creation', async () => {
    const created = await c.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-c', labels: { 'kubernetes.io/hostname': 'node-c' } } });
    const born = Date.parse(created.metadata!.creationTimestamp!);
    const unreachable = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' };
    await c.pods('default').create(pod('c-1', 'node-c', [unreachable]));
    await setPodStatus(c, 'default', 'c-1', true, '10.0.2.1');
    const node = await eventually(() => c.nodes().get('node-c'),
      (n) => taintKeys(n).includes('node.kubernetes.io/unreachable:NoExecute') && taintKeys(n).includes('node.kubernetes.io/unreachable:NoSchedule'), 'node-c to be tainted', 15_000);
    // upstream: no Ready condition and the grace period (3 s here) not over → no condition, no taint, pods untouched
    const conds = node.status!.conditions as { type: string; status: string; reason: string; message: string; lastHeartbeatTime: string; lastTransitionTime: string }[];
    expect(conds.map((x) => x.type).sort()).toEqual(['DiskPressure', 'MemoryPressure', 'PIDPressure', 'Ready']);
    for (const x of conds) {
      expect(x).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: created.metadata!.creationTimestamp });
      expect(Date.parse(x.lastTransitionTime) - born).toBeGreaterThanOrEqual(3000);
    }
    const taints = node.spec!.taints as { key: string; effect: string; timeAdded?: string }[];
    expect(taints.map((t) => t.key)).not.toContain('node.kubernetes.io/not-ready');
    for (const t of taints) expect(Date.parse(t.timeAdded!) - born, `${t.key}:${t.effect}`).toBeGreaterThanOrEqual(3000);
    // MarkPodsNotReady follows only a Ready condition the controller itself turned from True
    const c1 = await c.pods('default').get('c-1');
    expect((c1.status?.conditions as { type: string; status: string }[]).find((x) => x.type === 'Ready')?.status).toBe('True');
    expect((await c.events('default').list({ fieldSelector: 'reason=NodeNotReady' })).items.map((e) => e.involvedObject?.name)).not.toContain('c-1');
    expect((await c.events('default').list({ fieldSelector: 'reason=NodeNotReady,involvedObject.name=node-c' })).items).toEqual([]);
  });
});
