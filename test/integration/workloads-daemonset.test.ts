// The DaemonSet controller against a real apiserver and the real kubectl, with plain Node objects; the test plays
// the kubelet by marking pods ready (pods labelled hold=yes it leaves to the test). The controller's clock follows
// real time until a test freezes it, and then moves only when the test moves it (its timers stay real).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resources, formatTime, realClock, type Clock } from '../../pkg/client/index.js';
import { nodeOfDaemonPod } from '../../pkg/controller/daemonset/placement.js';
import { eventually, markFinished, markReady, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
const NS = 'ds';
let stop = false;
let readier: Promise<void> | undefined;
let frozen: number | undefined;
let offset = 0;
const clock: Clock = { now: () => frozen ?? Date.now() + offset, setTimer: realClock.setTimer, sleep: realClock.sleep };
const freeze = (): void => { frozen = clock.now(); };
const unfreeze = (): void => { offset = frozen! - Date.now(); frozen = undefined; };
beforeAll(async () => {
  h = await startHarness(['daemonset'], { clock });
  await h.c.namespaces().create({ metadata: { name: NS } });
  readier = (async () => {
    while (!stop) {
      const pods = await h.c.pods(NS).list().catch(() => ({ items: [] as any[] }));
      const pending = pods.items.filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Running' && !p.metadata?.labels?.hold);
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

  it('a revision carries the template labels and the DaemonSet annotations, so rollout history shows the change cause', async () => {
    const { c, s } = h;
    const template = (image: string) => ({ metadata: { labels: { app: 'cause', tier: 'agent' } }, spec: { nodeSelector: { pool: 'cause' }, containers: [{ name: 'c', image }] } });
    await c.daemonSets(NS).create({
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'cause', annotations: { 'kubernetes.io/change-cause': 'first' } },
      spec: { selector: { matchLabels: { app: 'cause' } }, template: template('cause:1') },
    });
    const revisions = async () => (await c.resource(Resources.controllerRevisions, NS).list()).items
      .filter((r) => r.metadata!.ownerReferences?.[0]?.name === 'cause').sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
    const [first] = await eventually(revisions, (l) => l.length === 1, 'a revision');
    expect(first!.metadata!.labels).toEqual({ app: 'cause', tier: 'agent', 'controller-revision-hash': first!.metadata!.name!.slice('cause-'.length) });
    expect(first!.metadata!.annotations?.['kubernetes.io/change-cause']).toBe('first');
    await c.daemonSets(NS).patch('cause', 'merge', { metadata: { annotations: { 'kubernetes.io/change-cause': 'second' } }, spec: { template: template('cause:2') } });
    await eventually(revisions, (l) => l.length === 2, 'a second revision');
    // a revision keeps the annotations it was made with
    await c.daemonSets(NS).patch('cause', 'merge', { metadata: { annotations: { 'kubernetes.io/change-cause': 'third' } } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await revisions()).map((r) => r.metadata!.annotations?.['kubernetes.io/change-cause'])).toEqual(['first', 'second']);
    const hist = await s.kubectl('-n', NS, 'rollout', 'history', 'daemonset/cause');
    expect(hist.stdout).toMatch(/1\s+first\n2\s+second\n/);
    // kubectl compares the revision's bytes with its own patch of the running template (Go's sorted keys)
    const undo = await s.kubectl('-n', NS, 'rollout', 'undo', 'daemonset/cause', '--to-revision=2');
    expect(undo.stdout).toBe('daemonset.apps/cause skipped rollback (current template already matches revision 2)\n');
  });

  it('labels pods with the template generation the apiserver keeps in its annotation, raised by template changes only', async () => {
    const { c } = h;
    await c.nodes().create(node('g1', { metadata: { name: 'g1', labels: { 'kubernetes.io/hostname': 'g1', pool: 'gen' } } }));
    const template = (image: string) => ({ metadata: { labels: { app: 'gen' } }, spec: { nodeSelector: { pool: 'gen' }, containers: [{ name: 'c', image }] } });
    const TG = 'deprecated.daemonset.template.generation';
    const created = await c.daemonSets(NS).create({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'gen' }, spec: { selector: { matchLabels: { app: 'gen' } }, template: template('gen:1') } });
    expect(created.metadata!.annotations).toEqual({ [TG]: '1' });
    const genPods = async () => (await c.pods(NS).list({ labelSelector: 'app=gen' })).items.filter((p) => !p.metadata?.deletionTimestamp);
    const [first] = await eventually(genPods, (l) => l.length === 1, 'a pod');
    expect(first!.metadata!.labels!['pod-template-generation']).toBe('1');
    // not the template: metadata.generation rises, the template generation does not, nor does a value sent for it
    const other = await c.daemonSets(NS).patch('gen', 'merge', { metadata: { annotations: { [TG]: '7' } }, spec: { revisionHistoryLimit: 3 } });
    expect([other.metadata!.generation, other.metadata!.annotations![TG]]).toEqual([2, '1']);
    await c.nodes().create(node('g2', { metadata: { name: 'g2', labels: { 'kubernetes.io/hostname': 'g2', pool: 'gen' } } }));
    const two = await eventually(genPods, (l) => l.length === 2, 'a pod on g2');
    expect(two.map((p) => p.metadata!.labels!['pod-template-generation'])).toEqual(['1', '1']);
    const changed = await c.daemonSets(NS).patch('gen', 'merge', { spec: { template: template('gen:2') } });
    expect([changed.metadata!.generation, changed.metadata!.annotations![TG]]).toEqual([3, '2']);
    const rolled = await eventually(genPods, (l) => l.length === 2 && l.every((p) => p.spec.containers[0].image === 'gen:2'), 'the new template on both nodes');
    expect(rolled.map((p) => p.metadata!.labels!['pod-template-generation'])).toEqual(['2', '2']);
    await c.nodes().delete('g1');
    await c.nodes().delete('g2');
  });

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

  it('with maxSurge 0 the pod of a new revision waits until the old pod has gone, not only started terminating', async () => {
    const { c } = h;
    await c.nodes().create(node('t1', { metadata: { name: 't1', labels: { 'kubernetes.io/hostname': 't1', pool: 'term' } } }));
    const template = (image: string) => ({ metadata: { labels: { app: 'term' } }, spec: { nodeSelector: { pool: 'term' }, containers: [{ name: 'c', image }] } });
    await c.daemonSets(NS).create({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'term' }, spec: { selector: { matchLabels: { app: 'term' } }, template: template('term:1') } });
    const termPods = async () => (await c.pods(NS).list({ labelSelector: 'app=term' })).items;
    const [old] = await eventually(termPods, (l) => l.length === 1 && l[0]!.status?.phase === 'Running', 'the first pod running');
    const oldName = old!.metadata!.name!;
    // a finalizer keeps the old pod terminating once the rolling update deletes it
    await c.pods(NS).patch(oldName, 'merge', { metadata: { finalizers: ['test.mini-kube.io/hold'] } });
    await eventually(() => c.daemonSets(NS).get('term'), (d) => d.status?.numberAvailable === 1, 'available');
    await c.daemonSets(NS).patch('term', 'merge', { spec: { template: template('term:2') } });
    await eventually(() => c.pods(NS).get(oldName), (p) => !!p.metadata?.deletionTimestamp, 'the old pod terminating');
    // the kubelet stops it: a sync that saw it terminating and unready (still scheduled) has created nothing for its node
    await c.pods(NS).patch(oldName, 'merge', { status: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: formatTime(Date.now()) }] } }, { subresource: 'status' });
    const { during } = await eventually(async () => ({ d: await c.daemonSets(NS).get('term'), during: await termPods() }),
      ({ d, during }) => (d.status?.observedGeneration === 2 && d.status?.numberReady === 0 && d.status?.currentNumberScheduled === 1) || during.length > 1, 'the old pod seen terminating');
    expect(during.map((p) => `${p.metadata!.name}:${!!p.metadata?.deletionTimestamp}`)).toEqual([`${oldName}:true`]);
    await c.pods(NS).patch(oldName, 'merge', { metadata: { finalizers: null } });
    const after = await eventually(termPods, (l) => l.length === 1 && l[0]!.metadata!.name !== oldName, 'the new pod once the old one is gone');
    expect(after[0]!.spec.containers[0].image).toBe('term:2');
  });

  it('deletes a failed pod with a FailedDaemonPod warning, replaces it once it is gone, and deletes a pod failing again only after the backoff', async () => {
    const { c } = h;
    await c.nodes().create(node('f1', { metadata: { name: 'f1', labels: { 'kubernetes.io/hostname': 'f1', pool: 'flaky' } } }));
    await c.daemonSets(NS).create({
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'flaky' },
      spec: {
        selector: { matchLabels: { app: 'flaky' } },
        template: { metadata: { labels: { app: 'flaky', hold: 'yes' } }, spec: { nodeSelector: { pool: 'flaky' }, containers: [{ name: 'c', image: 'flaky' }] } },
      },
    });
    const flakyPods = async () => (await c.pods(NS).list({ labelSelector: 'app=flaky' })).items;
    const [p1] = await eventually(flakyPods, (l) => l.length === 1, 'the first pod');
    const first = p1!.metadata!.name!;
    await markReady(c, NS, [first]);
    await eventually(() => c.daemonSets(NS).get('flaky'), (d) => d.status?.numberReady === 1, 'ready');
    const failedEvents = async () => (await c.events(NS).list()).items
      .filter((e) => e.involvedObject.name === 'flaky' && e.reason === 'FailedDaemonPod').map((e) => `${e.type} ${e.message}`).sort();

    // the order of the pods' watch events shows the replacement created only after the failed pod was deleted
    const ac = new AbortController();
    const from = (await c.pods(NS).list({ labelSelector: 'app=flaky' })).metadata?.resourceVersion;
    const w = await c.pods(NS).watch({ labelSelector: 'app=flaky', resourceVersion: from, signal: ac.signal });
    const seen: string[] = [];
    const watching = (async () => {
      for await (const ev of w) {
        if (ev.type === 'ADDED' || ev.type === 'DELETED') seen.push(`${ev.type} ${ev.object.metadata!.name === first ? 'first' : 'replacement'}`);
        if (seen.length === 2) break;
      }
    })().catch(() => undefined);
    freeze();
    try {
      await markFinished(c, NS, [first], 'Failed');
      await Promise.race([watching, new Promise((_, reject) => setTimeout(() => reject(new Error(`seen ${seen.join(', ')}`)), 15_000))]);
      ac.abort();
      expect(seen).toEqual(['DELETED first', 'ADDED replacement']);
      await eventually(failedEvents, (l) => l.length === 1, 'the FailedDaemonPod event');
      expect(await failedEvents()).toEqual([`Warning Found failed daemon pod ${NS}/${first} on node f1, will try to kill it`]);

      // the replacement fails within the second: it stays until the clock has moved past the backoff (1 s)
      const [p2] = await eventually(flakyPods, (l) => l.length === 1 && l[0]!.metadata!.name !== first, 'the replacement');
      const second = p2!.metadata!.name!;
      await markReady(c, NS, [second]);
      await eventually(() => c.daemonSets(NS).get('flaky'), (d) => d.status?.numberReady === 1, 'the replacement seen ready');
      await markFinished(c, NS, [second], 'Failed');
      // a failed pod still counts as scheduled; no longer ready shows the sync that saw it fail
      await eventually(() => c.daemonSets(NS).get('flaky'), (d) => d.status?.numberReady === 0 && d.status?.currentNumberScheduled === 1, 'the failed replacement seen');
      const held = await flakyPods();
      expect(held.map((p) => `${p.metadata!.name}:${p.status?.phase}:${!!p.metadata?.deletionTimestamp}`)).toEqual([`${second}:Failed:false`]);
      expect((await failedEvents()).length).toBe(1);
      frozen = frozen! + 1001;
      await eventually(flakyPods, (l) => l.length === 1 && l[0]!.metadata!.name !== second, 'the second replacement after the backoff');
      expect(await eventually(failedEvents, (l) => l.length === 2, 'the second FailedDaemonPod event'))
        .toContain(`Warning Found failed daemon pod ${NS}/${second} on node f1, will try to kill it`);
    } finally {
      ac.abort();
      unfreeze();
    }
  });

  it('a pod left on a node that should no longer run one (a NoSchedule taint) counts as misscheduled only', async () => {
    const { c } = h;
    await c.nodes().create(node('m1', { metadata: { name: 'm1', labels: { 'kubernetes.io/hostname': 'm1', pool: 'mis' } } }));
    await c.daemonSets(NS).create({
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'mis' },
      spec: { selector: { matchLabels: { app: 'mis' } }, template: { metadata: { labels: { app: 'mis' } }, spec: { nodeSelector: { pool: 'mis' }, containers: [{ name: 'c', image: 'mis:1' }] } } },
    });
    await eventually(() => c.daemonSets(NS).get('mis'), (d) => d.status?.numberAvailable === 1 && d.status?.updatedNumberScheduled === 1, 'ready on m1');
    // not tolerated, but not NoExecute: the pod may keep running there
    await c.nodes().patch('m1', 'merge', { spec: { taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }] } });
    const d = await eventually(() => c.daemonSets(NS).get('mis'), (x) => x.status?.desiredNumberScheduled === 0, 'm1 no longer desired');
    expect(d.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 1, desiredNumberScheduled: 0, numberReady: 0, observedGeneration: 1 });
    expect((await c.pods(NS).list({ labelSelector: 'app=mis' })).items.map((p) => !!p.metadata?.deletionTimestamp)).toEqual([false]);
  });
});
