// The DaemonSet controller against a real apiserver and the real kubectl, with plain Node objects; the test plays
// the kubelet by marking pods ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeOfDaemonPod } from '../../pkg/controller/daemonset/placement.js';
import { eventually, markReady, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
const NS = 'ds';
let stop = false;
let readier: Promise<void> | undefined;
beforeAll(async () => {
  h = await startHarness(['daemonset']);
  await h.c.namespaces().create({ metadata: { name: NS } });
  readier = (async () => {
    while (!stop) {
      const pods = await h.c.pods(NS).list().catch(() => ({ items: [] as any[] }));
      const pending = pods.items.filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Running');
      if (pending.length) await markReady(h.c, NS, pending.map((p) => p.metadata!.name!)).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
});
afterAll(async () => { stop = true; await readier; await h?.stop(); });

const node = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } }, ...extra });
const nodesOfPods = async () => (await h.c.pods(NS).list()).items.filter((p) => !p.metadata?.deletionTimestamp).map((p) => nodeOfDaemonPod(p)!).sort();

describe('daemonset controller', () => {
  it('runs one pod per eligible node, follows new nodes and rolls out a new template', async () => {
    const { c, s } = h;
    await c.nodes().create(node('n1'));
    await c.nodes().create(node('n2'));
    await c.nodes().create(node('n3', { spec: { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] } }));
    await c.nodes().create(node('n4', { spec: { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] } }));
    await c.daemonSets(NS).create({
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'agent:1' }] } } },
    });
    // n3's taint is not tolerated; n4's unschedulable taint is (a DaemonSet default toleration)
    await eventually(nodesOfPods, (l) => l.join() === 'n1,n2,n4', 'pods on n1, n2, n4');
    const p = (await c.pods(NS).list()).items[0]!;
    expect(p.metadata!.ownerReferences![0]).toMatchObject({ kind: 'DaemonSet', name: 'agent', controller: true });
    expect(p.metadata!.labels!['controller-revision-hash']).toBeTruthy();
    expect(p.spec.tolerations.map((t: any) => t.key)).toContain('node.kubernetes.io/not-ready');
    await eventually(() => c.daemonSets(NS).get('agent'), (d) => d.status?.desiredNumberScheduled === 3 && d.status?.numberReady === 3 && d.status?.numberAvailable === 3, 'status');

    await c.nodes().create(node('n5'));
    await eventually(nodesOfPods, (l) => l.join() === 'n1,n2,n4,n5', 'a pod for the new node');
    await c.nodes().delete('n5');

    expect((await s.kubectl('-n', NS, 'set', 'image', 'daemonset/agent', 'c=agent:2')).code).toBe(0);
    const st = await s.kubectl('-n', NS, 'rollout', 'status', 'daemonset/agent', '--timeout=30s');
    expect(st.stdout).toContain('successfully rolled out');
    const pods = (await c.pods(NS).list()).items.filter((x) => !x.metadata?.deletionTimestamp && nodeOfDaemonPod(x) !== 'n5');
    expect(pods.length).toBe(3);
    expect(pods.every((x) => x.spec.containers[0].image === 'agent:2')).toBe(true);
    const hist = await s.kubectl('-n', NS, 'rollout', 'history', 'daemonset/agent');
    expect(hist.stdout).toMatch(/REVISION\s+CHANGE-CAUSE\s+1\s+.*\n2\s+/);

    // the taint goes away: n3 gets its pod
    await c.nodes().patch('n3', 'merge', { spec: { taints: null } });
    await eventually(nodesOfPods, (l) => l.includes('n3'), 'pod on n3');
  }, 50_000);

  it('writes status as upstream serializes it: the four scheduling counts always, the omitempty ones only when not 0', async () => {
    const { c } = h;
    await c.daemonSets(NS).create({
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'nowhere' },
      spec: {
        selector: { matchLabels: { app: 'nowhere' } },
        template: { metadata: { labels: { app: 'nowhere' } }, spec: { nodeSelector: { 'no-such': 'label' }, containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    const ds = await eventually(() => c.daemonSets(NS).get('nowhere'), (x) => x.status?.observedGeneration === 1, 'status');
    expect(ds.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0, observedGeneration: 1 });
  });
});
