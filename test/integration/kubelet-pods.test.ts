// Pods bound to a kubelet (fake runtime) run: Running with Ready conditions and containerStatuses, init containers
// in order, CrashLoopBackOff on a failing container, events; deleting a pod ends with it gone from the API.
import { describe, expect, it } from 'vitest';
import { Client, Resources, type KubeObject } from '../../pkg/client/index.js';
import { FakeRuntime } from '../../pkg/kubelet/index.js';
import { condition, createBound, eventually, kubeletCluster, nodeClient, pod, startKubelet } from './kubelet-support.js';

const NODE = 'node-p';

describe('kubelet: pod lifecycle on the fake runtime', () => {
  const c = kubeletCluster(NODE);

  const get = (name: string): Promise<KubeObject> => c.admin.pods('default').get(name);

  it('runs a bound pod: Running, Ready conditions, containerStatuses, IPs, events; kubectl shows 1/1 Running', async () => {
    await createBound(c.admin, pod('web'), NODE);
    const p = await eventually(async () => {
      const x = await get('web');
      return x.status?.phase === 'Running' && condition(x, 'Ready')?.status === 'True' ? x : undefined;
    }, 15_000, 'pod Running and Ready');
    for (const t of ['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'PodScheduled']) expect(condition(p, t)?.status).toBe('True');
    const [cs] = p.status?.containerStatuses as Record<string, any>[];
    expect(cs).toMatchObject({
      name: 'c', ready: true, started: true, restartCount: 0, image: 'docker.io/library/nginx:1.27',
      imageID: expect.stringMatching(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/), containerID: expect.stringMatching(/^fake:\/\//),
    });
    expect(cs!.state.running.startedAt).toEqual(expect.any(String));
    expect(p.status?.podIP).toMatch(/^100\.64\.0\.\d+$/); // no node-ipam here: the node's fallback range
    expect(p.status?.podIPs).toEqual([{ ip: p.status?.podIP }]);
    expect(p.status?.hostIP).toEqual(expect.any(String));
    expect(p.status?.startTime).toEqual(expect.any(String));
    const out = await c.api.kubectl('get', 'pod', 'web');
    expect(out.stdout).toMatch(/web\s+1\/1\s+Running\s+0/);
    const reasons = await eventually(async () => {
      const evs = (await c.admin.events('default').list({ fieldSelector: 'involvedObject.name=web' })).items;
      const r = evs.map((e) => e.reason);
      return r.includes('Started') ? r : undefined;
    }, 10_000, 'events');
    expect(reasons).toEqual(expect.arrayContaining(['Pulled', 'Created', 'Started']));
  });

  it("counts each container's events apart: they are about spec.containers{name}, which kubectl can select and describe shows", async () => {
    const spec = { containers: ['aa', 'bb'].map((name) => ({ name, image: 'busybox:1.36', imagePullPolicy: 'Always' })) };
    await createBound(c.admin, pod('pair', { spec }), NODE);
    const pulling = await eventually(async () => {
      const evs = (await c.admin.events('default').list({ fieldSelector: 'involvedObject.name=pair,reason=Pulling' })).items;
      return evs.length === 2 ? evs : undefined;
    }, 10_000, "each container's Pulling event");
    expect(pulling.map((e) => [e.involvedObject.fieldPath, e.count]).sort()).toEqual([['spec.containers{aa}', 1], ['spec.containers{bb}', 1]]);
    await eventually(async () => (await c.admin.events('default').list({ fieldSelector: 'involvedObject.name=pair,reason=Started' })).items.length === 2, 10_000, 'Started');
    const bb = await c.api.kubectl('get', 'events', '--field-selector', 'involvedObject.fieldPath=spec.containers{bb}', '-o', 'jsonpath={range .items[*]}{.reason}/{.message}{"\\n"}{end}');
    expect(bb.stdout.trim().split('\n')).toEqual(['Pulling/Pulling image "busybox:1.36"', expect.stringMatching(/^Pulled\//), 'Created/Created container: bb', 'Started/Started container bb']);
    const described = (await c.api.kubectl('describe', 'pod', 'pair')).stdout;
    expect(described.match(/Normal +Pulling +\S+ +kubelet +Pulling image "busybox:1.36"/g)).toHaveLength(2);
    expect(described).not.toMatch(/\(x2 over/);
  });

  it('reports each container\'s volume mounts in its status, a read-only one not recursively so', async () => {
    await createBound(c.admin, pod('mounts', { spec: {
      volumes: [{ name: 'scratch', emptyDir: {} }],
      containers: [{ name: 'c', image: 'nginx:1.27', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }, { name: 'scratch', mountPath: '/ro', readOnly: true }] }],
    } }), NODE);
    const p = await eventually(async () => ((await get('mounts')).status?.phase === 'Running' ? get('mounts') : undefined), 15_000, 'pod Running');
    const [cs] = p.status?.containerStatuses as Record<string, any>[];
    expect(cs!.volumeMounts.slice(0, 2)).toEqual([
      { name: 'scratch', mountPath: '/scratch' },
      { name: 'scratch', mountPath: '/ro', readOnly: true, recursiveReadOnly: 'Disabled' },
    ]);
  });

  it('writes Pending with ContainerCreating while the image is pulled, then Running, as upstream\'s SyncPod', async () => {
    const node = 'node-slow-pull';
    const slow = startKubelet(await nodeClient(c.api, node), [node], { runtimeFor: () => new FakeRuntime({ pullLatencyMs: 1_500 }) });
    try {
      await slow.host.whenRegistered();
      const ac = new AbortController();
      const seen: string[] = [];
      const watch = await c.admin.pods('default').watch({ fieldSelector: 'metadata.name=slow', signal: ac.signal });
      const watching = (async () => {
        for await (const ev of watch) {
          if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED') continue;
          const cs = (ev.object.status?.containerStatuses as Record<string, any>[] | undefined)?.[0];
          seen.push(`${ev.object.status?.phase}/${cs ? Object.keys(cs.state)[0] + (cs.state.waiting ? `:${cs.state.waiting.reason}` : '') : '-'}`);
          if (ev.object.status?.phase === 'Running') break;
        }
      })();
      await createBound(c.admin, pod('slow', { spec: { containers: [{ name: 'c', image: 'registry.example/slow:1' }] } }), node);
      await Promise.race([watching, new Promise((_, reject) => setTimeout(() => reject(new Error(`no Running pod; seen ${seen.join(', ')}`)), 15_000))]);
      ac.abort();
      expect(seen).toContain('Pending/waiting:ContainerCreating');
      expect(seen.at(-1)).toBe('Running/running');
    } finally {
      await slow.stop();
    }
  });

  it('runs init containers in order before the containers', async () => {
    await createBound(c.admin, pod('init', {
      annotations: { 'fake.mini-kube.io/exit-code.i1': '0', 'fake.mini-kube.io/exit-code.i2': '0', 'fake.mini-kube.io/run-ms.i1': '200' },
      spec: { initContainers: [{ name: 'i1', image: 'busybox:1.36' }, { name: 'i2', image: 'busybox:1.36' }] },
    }), NODE);
    const p = await eventually(async () => {
      const x = await get('init');
      return x.status?.phase === 'Running' && condition(x, 'Ready')?.status === 'True' ? x : undefined;
    }, 15_000, 'pod with init containers Running');
    const inits = p.status?.initContainerStatuses as Record<string, any>[];
    expect(inits.map((s) => s.name)).toEqual(['i1', 'i2']);
    for (const s of inits) expect(s.state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(Date.parse(inits[1]!.state.terminated.startedAt)).toBeGreaterThanOrEqual(Date.parse(inits[0]!.state.terminated.finishedAt));
    expect(condition(p, 'Initialized')?.status).toBe('True');
  });

  it('restarts a failing container with backoff (CrashLoopBackOff)', async () => {
    await createBound(c.admin, pod('crash', { annotations: { 'fake.mini-kube.io/exit-code.c': '1', 'fake.mini-kube.io/run-ms.c': '50' } }), NODE);
    const p = await eventually(async () => {
      const x = await get('crash');
      const cs = (x.status?.containerStatuses as Record<string, any>[] | undefined)?.[0];
      return cs?.state?.waiting?.reason === 'CrashLoopBackOff' && cs.restartCount >= 1 ? x : undefined;
    }, 15_000, 'CrashLoopBackOff');
    const cs = (p.status?.containerStatuses as Record<string, any>[])[0]!;
    expect(cs.state.waiting.message).toMatch(/^back-off \d+s restarting failed container=c pod=crash_default\(/);
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cs.ready).toBe(false);
    expect(p.status?.phase).toBe('Running');
    expect(condition(p, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [c]' });
    const out = await c.api.kubectl('get', 'pod', 'crash');
    expect(out.stdout).toMatch(/crash\s+0\/1\s+(CrashLoopBackOff|Error)\s+\d+/);
    const later = await eventually(async () => {
      const x = await get('crash');
      const n = (x.status?.containerStatuses as Record<string, any>[])[0]!.restartCount as number;
      return n >= cs.restartCount + 1 ? n : undefined;
    }, 10_000, 'another restart after the backoff');
    expect(later).toBeGreaterThan(cs.restartCount);
    const evs = (await c.admin.events('default').list({ fieldSelector: 'involvedObject.name=crash' })).items;
    expect(evs.map((e) => e.reason)).toContain('BackOff');
  });

  it('a failing readiness probe (fake runtime annotation) keeps the pod Running but not Ready', async () => {
    await createBound(c.admin, pod('unready', {
      annotations: { 'fake.mini-kube.io/readiness-fail.c': 'HTTP probe failed with statuscode: 503' },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 1, failureThreshold: 1 } }] },
    }), NODE);
    const p = await eventually(async () => {
      const x = await get('unready');
      return x.status?.phase === 'Running' ? x : undefined;
    }, 15_000, 'unready Running');
    expect((p.status?.containerStatuses as Record<string, any>[])[0]).toMatchObject({ ready: false, started: true });
    expect(condition(p, 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
    await eventually(async () => (await c.admin.events('default').list({ fieldSelector: 'involvedObject.name=unready' })).items
      .some((e) => e.reason === 'Unhealthy' && e.message === 'Readiness probe failed: HTTP probe failed with statuscode: 503'), 10_000, 'Unhealthy event');
  });

  it('holds Ready False until every readiness gate\'s condition, set by someone else, is True', async () => {
    await createBound(c.admin, pod('gated-ready', { spec: { readinessGates: [{ conditionType: 'example.com/ready' }], containers: [{ name: 'c', image: 'nginx:1.27' }] } }), NODE);
    const waiting = await eventually(async () => {
      const x = await get('gated-ready');
      return condition(x, 'ContainersReady')?.status === 'True' ? x : undefined;
    }, 15_000, 'containers ready');
    expect(condition(waiting, 'Ready')).toMatchObject({
      status: 'False', reason: 'ReadinessGatesNotReady', message: 'corresponding condition of pod readiness gate "example.com/ready" does not exist.',
    });
    const setGate = (status: string) => c.admin.pods('default').patch('gated-ready', 'strategic', { status: { conditions: [{ type: 'example.com/ready', status }] } }, { subresource: 'status' });
    await setGate('False');
    await eventually(async () => condition(await get('gated-ready'), 'Ready')?.message === 'the status of pod readiness gate "example.com/ready" is not "True", but False', 10_000, 'gate False');
    await setGate('True');
    const ready = await eventually(async () => {
      const x = await get('gated-ready');
      return condition(x, 'Ready')?.status === 'True' ? x : undefined;
    }, 10_000, 'Ready once the gate is True');
    expect(condition(ready, 'Ready')?.reason).toBeUndefined();
    expect((await c.api.kubectl('get', 'pod', 'gated-ready', '-o', 'wide')).stdout).toMatch(/gated-ready\s+1\/1\s+Running.*\s1\/1\s*$/m);
  });

  it('rejects a pod that does not fit the node (OutOfcpu) and fails one past activeDeadlineSeconds', async () => {
    await createBound(c.admin, pod('huge', { spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources: { requests: { cpu: '5' } } }] } }), NODE);
    const huge = await eventually(async () => { const x = await get('huge'); return x.status?.phase === 'Failed' ? x : undefined; }, 15_000, 'huge Failed');
    expect(huge.status).toMatchObject({ reason: 'OutOfcpu', message: expect.stringMatching(/^Pod was rejected: Node didn't have enough resource: cpu, requested: 5000, used: \d+, capacity: 4000$/) });
    // as upstream's rejectPod: no container statuses, so kubectl shows the reason, not ContainerCreating
    expect(huge.status?.containerStatuses).toBeUndefined();
    expect((await c.api.kubectl('get', 'pod', 'huge')).stdout).toMatch(/huge\s+0\/1\s+OutOfcpu\s+0\s/);
    await createBound(c.admin, pod('brief', { spec: { activeDeadlineSeconds: 1 } }), NODE);
    const brief = await eventually(async () => { const x = await get('brief'); return x.status?.phase === 'Failed' ? x : undefined; }, 15_000, 'brief Failed');
    expect(brief.status).toMatchObject({ reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' });
    expect((brief.status?.containerStatuses as Record<string, any>[])[0]!.state.terminated).toBeDefined();
  });

  it('runs a pod of a RuntimeClass whose handler the runtime has (runc); one it lacks fails sandbox creation (FailedCreatePodSandBox)', async () => {
    const classes = c.admin.resource(Resources.runtimeClasses);
    await classes.create({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'default' }, handler: 'runc' } as KubeObject);
    await classes.create({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc' } as KubeObject);
    await createBound(c.admin, pod('plain', { spec: { runtimeClassName: 'default' } }), NODE);
    await createBound(c.admin, pod('sandboxed', { spec: { runtimeClassName: 'gvisor' } }), NODE);
    await eventually(async () => (await get('plain')).status?.phase === 'Running', 15_000, 'plain Running');
    const ev = await eventually(async () => (await c.admin.events('default').list({ fieldSelector: 'involvedObject.name=sandboxed,reason=FailedCreatePodSandBox' })).items[0], 15_000, 'FailedCreatePodSandBox');
    expect(ev.message).toBe('Failed to create pod sandbox: failed to get sandbox runtime: no runtime for "runsc" is configured');
    expect((await get('sandboxed')).status?.phase).toBe('Pending');
  });

  it('runs a restartPolicy Never pod to Succeeded or Failed by its exit code', async () => {
    await createBound(c.admin, pod('ok', { annotations: { 'fake.mini-kube.io/exit-code.c': '0' }, spec: { restartPolicy: 'Never' } }), NODE);
    await createBound(c.admin, pod('bad', { annotations: { 'fake.mini-kube.io/exit-code.c': '3' }, spec: { restartPolicy: 'Never' } }), NODE);
    await eventually(async () => (await get('ok')).status?.phase === 'Succeeded', 15_000, 'ok Succeeded');
    const bad = await eventually(async () => { const x = await get('bad'); return x.status?.phase === 'Failed' ? x : undefined; }, 15_000, 'bad Failed');
    expect((bad.status?.containerStatuses as Record<string, any>[])[0]!.state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(condition(bad, 'Ready')).toMatchObject({ status: 'False', reason: 'PodFailed' });
  });

  it('deletes a pod: containers stop (Killing), then the kubelet removes it from the API', async () => {
    await createBound(c.admin, pod('bye'), NODE);
    await eventually(async () => (await get('bye')).status?.phase === 'Running', 15_000, 'bye Running');
    const out = await c.api.kubectl('delete', 'pod', 'bye', '--wait=true', '--timeout=20s');
    expect(out.code, out.stderr).toBe(0);
    await eventually(async () => {
      try { await get('bye'); return false; } catch (e) { return (e as { code?: number }).code === 404; }
    }, 10_000, 'pod gone');
    const evs = (await c.admin.events('default').list({ fieldSelector: 'involvedObject.name=bye' })).items;
    expect(evs.map((e) => e.reason)).toContain('Killing');
  });
});
