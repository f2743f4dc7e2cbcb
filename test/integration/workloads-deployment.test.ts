// The Deployment controller with the ReplicaSet controller, driven by the real kubectl: create, scale, set image,
// rollout status / history / undo / pause / resume, Recreate and history cleanup. The test plays the kubelet by
// marking pods ready.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resources } from '../../pkg/client/index.js';
import { eventually, markReady, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
let stopReadier = false;
let readier: Promise<void> | undefined;
const NS = 'dep';

beforeAll(async () => {
  h = await startHarness(['deployment', 'replicaset']);
  await h.c.namespaces().create({ metadata: { name: NS } });
  // A stand-in kubelet: every pod not yet ready in the namespace becomes ready shortly after it appears.
  readier = (async () => {
    while (!stopReadier) {
      const pods = await h.c.pods(NS).list().catch(() => ({ items: [] as any[] }));
      const pending = pods.items.filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Running' && !p.metadata?.labels?.hold);
      if (pending.length) await markReady(h.c, NS, pending.map((p) => p.metadata!.name!)).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
});
afterAll(async () => { stopReadier = true; await readier; await h?.stop(); });

const rsOf = async (name: string) => (await h.c.replicaSets(NS).list()).items.filter((rs) => rs.metadata?.ownerReferences?.[0]?.name === name);

describe('deployment controller', () => {
  it('creates a ReplicaSet and 3 pods, scales, rolls out set image, undoes, shows history', async () => {
    const { s, c } = h;
    expect((await s.kubectl('-n', NS, 'create', 'deployment', 'web', '--image=nginx:1.0', '--replicas=3')).code).toBe(0);
    const [rs1] = await eventually(() => rsOf('web'), (l) => l.length === 1, 'one replicaset');
    expect(rs1!.metadata!.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rs1!.metadata!.labels?.['pod-template-hash']).toBe(rs1!.metadata!.name!.slice(4));
    expect(rs1!.metadata!.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    await eventually(() => c.pods(NS).list({ labelSelector: 'app=web' }), (l) => l.items.length === 3, '3 pods');
    const st = await s.kubectl('-n', NS, 'rollout', 'status', 'deployment/web', '--timeout=20s');
    expect(st.stdout).toContain('successfully rolled out');
    const d = await c.deployments(NS).get('web');
    expect(d.status).toMatchObject({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: d.metadata!.generation });
    expect(d.status!.conditions.find((x: any) => x.type === 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
    expect(d.status!.conditions.find((x: any) => x.type === 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });

    expect((await s.kubectl('-n', NS, 'scale', 'deployment/web', '--replicas=5')).code).toBe(0);
    await eventually(() => c.deployments(NS).get('web'), (x) => x.status?.availableReplicas === 5, 'scaled to 5');

    expect((await s.kubectl('-n', NS, 'set', 'image', 'deployment/web', 'nginx=nginx:2.0')).code).toBe(0);
    const st2 = await s.kubectl('-n', NS, 'rollout', 'status', 'deployment/web', '--timeout=30s');
    expect(st2.stdout).toContain('successfully rolled out');
    const sets = await rsOf('web');
    expect(sets.length).toBe(2);
    const newer = sets.find((x) => x.spec.template.spec.containers[0].image === 'nginx:2.0')!;
    expect(newer.spec.replicas).toBe(5);
    expect(newer.metadata!.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(sets.find((x) => x !== newer)!.spec.replicas).toBe(0);
    const pods = await c.pods(NS).list({ labelSelector: 'app=web' });
    expect(pods.items.filter((p) => !p.metadata?.deletionTimestamp).every((p) => p.spec.containers[0].image === 'nginx:2.0')).toBe(true);

    const hist = await s.kubectl('-n', NS, 'rollout', 'history', 'deployment/web');
    expect(hist.code).toBe(0);
    expect(hist.stdout).toMatch(/REVISION\s+CHANGE-CAUSE\s+1\s+.*\n2\s+/);

    expect((await s.kubectl('-n', NS, 'rollout', 'undo', 'deployment/web')).code).toBe(0);
    const st3 = await s.kubectl('-n', NS, 'rollout', 'status', 'deployment/web', '--timeout=30s');
    expect(st3.stdout).toContain('successfully rolled out');
    const after = await rsOf('web');
    expect(after.length).toBe(2); // the old set came back as revision 3
    const back = after.find((x) => x.spec.template.spec.containers[0].image === 'nginx:1.0')!;
    expect(back.metadata!.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(back.metadata!.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(back.spec.replicas).toBe(5);
    expect((await c.deployments(NS).get('web')).metadata!.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
  }, 50_000);

  it('pause holds a template change, resume rolls it out', async () => {
    const { s, c } = h;
    expect((await s.kubectl('-n', NS, 'create', 'deployment', 'p', '--image=nginx:1.0', '--replicas=2')).code).toBe(0);
    expect((await s.kubectl('-n', NS, 'rollout', 'status', 'deployment/p', '--timeout=20s')).code).toBe(0);
    expect((await s.kubectl('-n', NS, 'rollout', 'pause', 'deployment/p')).code).toBe(0);
    await eventually(() => c.deployments(NS).get('p'), (x) => x.status?.conditions?.some((k: any) => k.reason === 'DeploymentPaused'), 'paused condition');
    expect((await s.kubectl('-n', NS, 'set', 'image', 'deployment/p', 'nginx=nginx:2.0')).code).toBe(0);
    await eventually(() => c.deployments(NS).get('p'), (x) => x.status?.observedGeneration === x.metadata?.generation, 'observed');
    expect((await rsOf('p')).length).toBe(1);
    expect((await s.kubectl('-n', NS, 'rollout', 'resume', 'deployment/p')).code).toBe(0);
    expect((await s.kubectl('-n', NS, 'rollout', 'status', 'deployment/p', '--timeout=30s')).stdout).toContain('successfully rolled out');
    expect((await rsOf('p')).length).toBe(2);
  }, 50_000);

  it('Recreate scales the old set to zero before the new one; revisionHistoryLimit removes old sets', async () => {
    const { c } = h;
    await c.deployments(NS).create({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'rec' },
      spec: {
        replicas: 2, revisionHistoryLimit: 1, strategy: { type: 'Recreate' }, selector: { matchLabels: { app: 'rec' } },
        template: { metadata: { labels: { app: 'rec' } }, spec: { containers: [{ name: 'c', image: 'v1' }] } },
      },
    });
    await eventually(() => c.deployments(NS).get('rec'), (x) => x.status?.availableReplicas === 2, 'available');
    for (const img of ['v2', 'v3']) {
      await c.deployments(NS).patch('rec', 'strategic', { spec: { template: { spec: { containers: [{ name: 'c', image: img }] } } } });
      await eventually(() => c.deployments(NS).get('rec'), (x) => x.status?.updatedReplicas === 2 && x.status?.availableReplicas === 2 && x.status?.replicas === 2 && x.status?.observedGeneration === x.metadata?.generation, `rolled to ${img}`);
    }
    const sets = await eventually(() => rsOf('rec'), (l) => l.length === 2, 'history trimmed to 1 old set');
    expect(sets.map((x) => x.spec.template.spec.containers[0].image).sort()).toEqual(['v2', 'v3']);
    const ev = await c.events(NS).list();
    expect(ev.items.some((e) => e.reason === 'ScalingReplicaSet' && e.involvedObject.name === 'rec')).toBe(true);
  }, 40_000);

  it('a rollout that makes no progress reports ProgressDeadlineExceeded', async () => {
    const { s, c } = h;
    await c.deployments(NS).create({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'stuck' },
      spec: {
        replicas: 1, progressDeadlineSeconds: 1, selector: { matchLabels: { app: 'stuck' } },
        template: { metadata: { labels: { app: 'stuck', hold: 'yes' } }, spec: { containers: [{ name: 'c', image: 'v1' }] } },
      },
    });
    await eventually(() => c.deployments(NS).get('stuck'), (x) => x.status?.conditions?.some((k: any) => k.type === 'Progressing' && k.reason === 'ProgressDeadlineExceeded' && k.status === 'False'), 'deadline exceeded', 15_000);
    const st = await s.kubectl('-n', NS, 'rollout', 'status', 'deployment/stuck', '--timeout=5s');
    expect(st.code).not.toBe(0);
    expect(st.stderr).toContain('exceeded its progress deadline');

    // scaled while failed, then every pod becomes available: the rollout is complete again (upstream estimates
    // progress whenever the rollout is not complete, whatever the condition says)
    expect((await s.kubectl('-n', NS, 'scale', 'deployment/stuck', '--replicas=2')).code).toBe(0);
    const held = await eventually(() => c.pods(NS).list({ labelSelector: 'app=stuck' }), (l) => l.items.length === 2, '2 pods');
    await markReady(c, NS, held.items.map((p) => p.metadata!.name!));
    const done = await eventually(() => c.deployments(NS).get('stuck'), (x) => x.status?.availableReplicas === 2
      && x.status?.conditions?.some((k: any) => k.type === 'Progressing' && k.status === 'True'), 'progressing again', 15_000);
    const rsName = (await rsOf('stuck'))[0]!.metadata!.name;
    expect(done.status!.conditions.find((k: any) => k.type === 'Progressing')).toMatchObject({
      status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rsName}" has successfully progressed.`,
    });
    const ok = await s.kubectl('-n', NS, 'rollout', 'status', 'deployment/stuck', '--timeout=10s');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('successfully rolled out');
    // timing out sets the condition only: upstream records no event for it
    const events = (await c.events(NS).list()).items.filter((e) => e.involvedObject.name === 'stuck');
    expect(events.filter((e) => e.type === 'Warning')).toEqual([]);
  }, 45_000);

  it('a rolling update whose new pods never become ready surges by maxSurge only, keeping the old pods', async () => {
    const { c } = h;
    const spec = (hold: boolean) => ({
      replicas: 2, progressDeadlineSeconds: 1, selector: { matchLabels: { app: 'surge' } },
      template: { metadata: { labels: { app: 'surge', ...(hold ? { hold: 'yes' } : {}) } }, spec: { containers: [{ name: 'c', image: hold ? 'v2' : 'v1' }] } },
    });
    await c.deployments(NS).create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'surge' }, spec: spec(false) });
    await eventually(() => c.deployments(NS).get('surge'), (x) => x.status?.availableReplicas === 2 && x.status?.updatedReplicas === 2, 'the first rollout');
    await c.deployments(NS).patch('surge', 'merge', { spec: spec(true) });
    // maxSurge 25% of 2 is 1, maxUnavailable 25% of 2 is 0: one new pod, the two old ones stay (until the deadline, and after)
    await eventually(() => c.deployments(NS).get('surge'), (x) => x.status?.observedGeneration === 2
      && x.status?.conditions?.some((k: any) => k.type === 'Progressing' && k.reason === 'ProgressDeadlineExceeded'), 'deadline exceeded', 15_000);
    const sets = await rsOf('surge');
    expect(sets.map((rs) => `${rs.spec.template.spec.containers[0].image}=${rs.spec.replicas}`).sort()).toEqual(['v1=2', 'v2=1']);

    // back to the first template, whose set is still available: the rollout completes and is reported so (a longer
    // deadline first, so that a slow machine cannot time the undo out again)
    await c.deployments(NS).patch('surge', 'merge', { spec: { progressDeadlineSeconds: 600 } });
    expect((await h.s.kubectl('-n', NS, 'rollout', 'undo', 'deployment/surge')).code).toBe(0);
    const st = await h.s.kubectl('-n', NS, 'rollout', 'status', 'deployment/surge', '--timeout=15s');
    expect(st.code, st.stderr).toBe(0);
    const d = await eventually(() => c.deployments(NS).get('surge'), (x) => x.status?.conditions?.some((k: any) => k.type === 'Progressing' && k.reason === 'NewReplicaSetAvailable'), 'complete after undo');
    expect(d.status!.conditions.find((k: any) => k.type === 'Progressing').status).toBe('True');
    expect((await rsOf('surge')).map((rs) => `${rs.spec.template.spec.containers[0].image}=${rs.spec.replicas}`).sort()).toEqual(['v1=2', 'v2=0']);
  }, 40_000);

  it('writes status as upstream serializes it: counts at 0 are left out', async () => {
    const { c } = h;
    await c.deployments(NS).create({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'none' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'none' } }, template: { metadata: { labels: { app: 'none' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const d = await eventually(() => c.deployments(NS).get('none'), (x) => x.status?.observedGeneration === 1 && !!x.status?.conditions?.length, 'status');
    expect(Object.keys(d.status!).sort()).toEqual(['conditions', 'observedGeneration']);
  });

  it('a ReplicaSet it cannot create is a Warning ReplicaSetCreateError and the Progressing condition says why', async () => {
    const { s: api, c } = h;
    await c.namespaces().create({ metadata: { name: 'dep-quota' } });
    // a quota no controller has counted yet refuses every replicaset
    await c.resource(Resources.resourceQuotas, 'dep-quota').create({ metadata: { name: 'no-rs' }, spec: { hard: { 'count/replicasets.apps': '0' } } });
    expect((await api.kubectl('-n', 'dep-quota', 'create', 'deployment', 'stuck', '--image=nginx')).code).toBe(0);
    const events = await eventually(async () => (await c.events('dep-quota').list()).items.filter((e) => e.reason === 'ReplicaSetCreateError'),
      (l) => l.length > 0, 'the ReplicaSetCreateError event');
    expect(events[0]).toMatchObject({ type: 'Warning', involvedObject: { kind: 'Deployment', name: 'stuck' } });
    expect(events[0]!.message).toMatch(/^Failed to create new replica set "stuck-[a-z0-9]+": /);
    const d = await eventually(() => c.deployments('dep-quota').get('stuck'),
      (x) => !!x.status?.conditions?.some((k: { reason?: string }) => k.reason === 'ReplicaSetCreateError'), 'the condition');
    expect(d.status!.conditions!.find((k: { type: string }) => k.type === 'Progressing')).toMatchObject({ status: 'False', message: events[0]!.message });
  });
});
