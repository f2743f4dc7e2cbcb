// PodSyncer over the fake runtime with a fake clock: start order, restart policies, CrashLoopBackOff doubling
// from 10 s to the 5 min cap, and the status it produces.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { FakeClock, type EventRecorder, type KubeObject } from '../client/index.js';
import { containerFieldPath, containerRef } from './container-ref.js';
import { goDuration, goDurationPrecise, PodSyncer, type PodRecord } from './pod-sync.js';
import { Pleg } from './pleg.js';
import { ProbeManager } from './probes.js';
import { noLogYet } from './pod-status.js';
import { FakeRuntime } from './runtime/fake.js';
import type { ContainerStatus } from './runtime/types.js';

const setup = () => {
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const runtime = new FakeRuntime({ clock });
  const events: string[] = [];
  /** Each event's reason with the fieldPath of what it is about. */
  const about: string[] = [];
  const recorder = {
    event: (o: { fieldPath?: string }, _t: string, reason: string, message: string) => {
      events.push(`${reason}: ${message}`);
      about.push(`${reason} ${o.fieldPath ?? '-'}`);
    },
  } as unknown as EventRecorder;
  const syncer = new PodSyncer({ runtime, recorder, clock, logger: pino({ level: 'silent' }), hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 } });
  return { clock, runtime, events, about, syncer };
};

const record = (spec: Record<string, unknown>, annotations: Record<string, string> = {}): PodRecord => ({
  uid: 'u1', waiting: new Map(), terminated: false,
  pod: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1', annotations }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...spec } } as KubeObject,
});

/** Each container the runtime is asked to stop, as name:timeout, in order. */
const recordStops = (runtime: FakeRuntime): string[] => {
  const stops: string[] = [];
  const stop = runtime.stopContainer.bind(runtime);
  vi.spyOn(runtime, 'stopContainer').mockImplementation(async (id, timeout) => {
    stops.push(`${runtime.containerStatus(id)!.name}:${timeout}`);
    await stop(id, timeout);
  });
  return stops;
};

const cs = (status: Record<string, unknown>): Record<string, any> => (status.containerStatuses as Record<string, any>[])[0]!;

describe('PodSyncer', () => {
  it('backs a failing pull off as upstream\'s image puller: ErrImagePull, then ImagePullBackOff until the delay (10 s doubling) has passed', async () => {
    const { syncer, events, clock } = setup();
    const rec = record({}, { 'fake.mini-kube.io/pull-error': 'not found' });
    const reasons: string[] = [];
    for (let i = 0; i < 6; i++) {
      events.length = 0;
      await syncer.sync(rec);
      reasons.push(rec.waiting.get('c')!.reason);
      expect(rec.requeueAt).toBe(clock.now() + 10_000); // the pod worker's own back-off, whatever the image's
      await clock.advance(10_000);
    }
    // pulls at 0, 10 s (the first delay over), 30 s (20 s over), then 70 s
    expect(reasons).toEqual(['ErrImagePull', 'ErrImagePull', 'ImagePullBackOff', 'ErrImagePull', 'ImagePullBackOff', 'ImagePullBackOff']);
    expect(events).toEqual(['BackOff: Back-off pulling image "nginx:1.27"', 'Failed: Error: ImagePullBackOff']);
    expect(rec.waiting.get('c')!.message).toBe('Back-off pulling image "nginx:1.27"');
  });

  it('says in an event that an image outside the process runtime\'s catalog is simulated', async () => {
    const { syncer, events, runtime } = setup();
    const pull = runtime.pullImage.bind(runtime);
    vi.spyOn(runtime, 'pullImage').mockImplementation(async (image) => ({ ...(await pull(image)), simulated: true, user: { uid: 65532, gid: 65532 } }));
    await syncer.sync(record({}));
    expect(events.filter((e) => e.startsWith('ImageSimulated'))).toEqual([
      'ImageSimulated: Image "nginx:1.27" is not in the image catalog: simulated, the container runs its command with its args, or idles without one (its args alone go to the unknown entrypoint), as user 65532 unless runAsUser says otherwise (kubelet --unknown-images=fail refuses such images)',
    ]);
  });

  it('formats durations as Go does', () => {
    expect([10_000, 80_000, 300_000].map(goDuration)).toEqual(['10s', '1m20s', '5m0s']);
    expect([0, 11, 1234].map(goDurationPrecise)).toEqual(['0s', '11ms', '1.234s']);
  });

  it('starts the containers and reports Running with the upstream conditions', async () => {
    const { syncer, events } = setup();
    const rec = record({});
    await syncer.sync(rec);
    const st = syncer.status(rec);
    expect(st.phase).toBe('Running');
    expect(st.podIP).toBe('10.244.0.2');
    expect(st.hostIP).toBe('192.0.2.10');
    expect((st.conditions as { type: string; status: string }[]).map((c) => `${c.type}=${c.status}`))
      .toEqual(['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    expect(cs(st)).toMatchObject({ ready: true, started: true, restartCount: 0, image: 'docker.io/library/nginx:1.27' });
    expect(events.map((e) => e.split(':')[0])).toEqual(['Pulling', 'Pulled', 'Created', 'Started']);
  });

  it('reports a started container running only once the PLEG has seen it run; one that exits first never runs', async () => {
    const { clock, runtime } = setup();
    const pleg = new Pleg(runtime, clock, () => undefined, 1000);
    const recorder = { event: () => undefined } as unknown as EventRecorder;
    const syncer = new PodSyncer({
      runtime, recorder, clock, logger: pino({ level: 'silent' }), hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 },
      seenRunning: (uid, id) => pleg.seenRunning(uid, id),
    });
    const rec = record({});
    await syncer.sync(rec);
    expect(cs(syncer.status(rec)).state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    pleg.relist();
    expect(cs(syncer.status(rec))).toMatchObject({ ready: true, state: { running: {} } });

    const crashing = { ...record({}, { 'fake.mini-kube.io/exit-code.c': '1', 'fake.mini-kube.io/run-ms.c': '0' }), uid: 'u2' };
    crashing.pod = { ...crashing.pod, metadata: { ...crashing.pod.metadata, uid: 'u2' } };
    await syncer.sync(crashing);
    expect(cs(syncer.status(crashing)).state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    await clock.advance(1);
    pleg.relist();
    const st = cs(syncer.status(crashing));
    expect(st.state.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(st.ready).toBe(false);
  });

  it('backs off a crashing container: 10 s, 20 s, 40 s ... up to 5 min', async () => {
    const { syncer, clock, events } = setup();
    const rec = record({}, { 'fake.mini-kube.io/exit-code.c': '1', 'fake.mini-kube.io/run-ms.c': '0' });
    await syncer.sync(rec);
    await clock.advance(1);
    await syncer.sync(rec); // the first restart is immediate
    expect(cs(syncer.status(rec)).restartCount).toBe(1);
    const delays: string[] = [];
    for (let i = 0; i < 7; i++) {
      await clock.advance(1);
      await syncer.sync(rec); // exited again: backing off
      const st = cs(syncer.status(rec));
      expect(st.state.waiting.reason).toBe('CrashLoopBackOff');
      delays.push(/back-off (\S+)/.exec(st.state.waiting.message as string)![1]!);
      expect(rec.requeueAt).toBeGreaterThan(clock.now());
      await clock.advance(rec.requeueAt! - clock.now());
      await syncer.sync(rec); // backoff over: restarted
      expect(cs(syncer.status(rec)).restartCount).toBe(i + 2);
    }
    expect(delays).toEqual(['10s', '20s', '40s', '1m20s', '2m40s', '5m0s', '5m0s']);
    expect(events.filter((e) => e.startsWith('BackOff')).length).toBe(7);
    expect(syncer.status(rec).phase).toBe('Running');
  });

  it('starts a crash-looping container at once when the spec gives it a new image, whose back-off starts over at 10 s (per name and image, as upstream\'s container hash)', async () => {
    const { syncer, clock } = setup();
    const rec = record({}, { 'fake.mini-kube.io/exit-code.c': '1', 'fake.mini-kube.io/run-ms.c': '0' });
    await syncer.sync(rec);
    await clock.advance(1);
    await syncer.sync(rec); // the first restart is immediate
    await clock.advance(1);
    await syncer.sync(rec);
    expect(cs(syncer.status(rec)).state.waiting.reason).toBe('CrashLoopBackOff');
    rec.pod = { ...rec.pod, spec: { ...rec.pod.spec, containers: [{ name: 'c', image: 'nginx:1.28' }] } };
    await syncer.sync(rec);
    expect(cs(syncer.status(rec))).toMatchObject({ restartCount: 2, image: 'docker.io/library/nginx:1.28' });
    await clock.advance(1);
    await syncer.sync(rec); // the new image's back-off starts at 10 s, not at the old one's 20 s
    expect(cs(syncer.status(rec)).state.waiting.message).toMatch(/^back-off 10s /);
  });

  it('OnFailure: a container that succeeds is not restarted and the pod Succeeds', async () => {
    const { syncer, clock } = setup();
    const rec = record({ restartPolicy: 'OnFailure' }, { 'fake.mini-kube.io/exit-code.c': '0', 'fake.mini-kube.io/run-ms.c': '5' });
    await syncer.sync(rec);
    await clock.advance(10);
    await syncer.sync(rec);
    const st = syncer.status(rec);
    expect(st.phase).toBe('Succeeded');
    expect(cs(st)).toMatchObject({ restartCount: 0, ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } });
    expect(rec.terminated).toBe(true);
  });

  it('a failed init container with restartPolicy Never fails the pod; the containers never start', async () => {
    const { syncer, clock, runtime } = setup();
    const rec = record({ restartPolicy: 'Never', initContainers: [{ name: 'init', image: 'busybox' }] }, { 'fake.mini-kube.io/exit-code.init': '2', 'fake.mini-kube.io/run-ms.init': '5' });
    await syncer.sync(rec);
    expect(syncer.status(rec).phase).toBe('Pending');
    expect(cs(syncer.status(rec)).state.waiting.reason).toBe('PodInitializing');
    await clock.advance(10);
    await syncer.sync(rec);
    const st = syncer.status(rec);
    expect(st.phase).toBe('Failed');
    expect(runtime.listContainers('u1').map((c) => c.name)).toEqual(['init']);
    expect((st.conditions as { type: string; status: string; reason?: string }[]).find((c) => c.type === 'Initialized'))
      .toMatchObject({ status: 'False', reason: 'ContainersNotInitialized' });
  });

  it('restarts a running container whose image the spec changed, whatever the restart policy', async () => {
    const { syncer, events } = setup();
    const rec = record({ restartPolicy: 'Never' });
    await syncer.sync(rec);
    await syncer.sync(rec); // nothing changed: nothing done
    expect(events).toHaveLength(4);
    rec.pod = { ...rec.pod, spec: { ...rec.pod.spec, containers: [{ name: 'c', image: 'nginx:1.28' }] } };
    await syncer.sync(rec);
    expect(events.slice(4)).toEqual([
      'Killing: Container c definition changed, will be restarted',
      'Pulling: Pulling image "nginx:1.28"',
      expect.stringMatching(/^Pulled: Successfully pulled image "nginx:1.28"/),
      'Created: Created container: c',
      'Started: Started container c',
    ]);
    expect(cs(syncer.status(rec))).toMatchObject({ restartCount: 1, image: 'docker.io/library/nginx:1.28', state: { running: {} }, lastState: { terminated: {} } });
  });

  describe('a sandbox that is no longer ready (its pause died)', () => {
    const conditionOf = (st: Record<string, unknown>, type: string) => (st.conditions as { type: string; status: string; lastTransitionTime: string }[]).find((c) => c.type === type)!;

    it('SandboxChanged: the pod gets a new sandbox (attempt 1, a new IP) and its containers restart in it', async () => {
      const { syncer, runtime, clock, events } = setup();
      const rec = record({});
      await syncer.sync(rec);
      const [first] = runtime.listPodSandboxes('u1');
      const before = syncer.status(rec);
      await clock.advance(5_000);
      await runtime.stopPodSandbox(first!.id); // as the pause's death leaves it: NOTREADY, its containers gone
      const down = syncer.status(rec, before);
      expect(conditionOf(down, 'PodReadyToStartContainers')).toMatchObject({ status: 'False', lastTransitionTime: '2026-01-01T00:00:05Z' });
      events.length = 0;
      await clock.advance(1);
      await syncer.sync(rec);
      expect(events[0]).toBe('SandboxChanged: Pod sandbox changed, it will be killed and re-created.');
      expect(events.slice(1).map((e) => e.split(':')[0])).toEqual(['Pulled', 'Created', 'Started']);
      const ready = runtime.listPodSandboxes('u1').filter((s) => s.state === 'ready');
      expect(ready.map((s) => s.config.attempt)).toEqual([1]);
      const st = syncer.status(rec, down);
      expect(st.podIP).toBe(ready[0]!.ip);
      expect(st.podIP).not.toBe(before.podIP);
      expect(cs(st)).toMatchObject({ restartCount: 1, state: { running: {} }, lastState: { terminated: {} } });
      expect(conditionOf(st, 'PodReadyToStartContainers')).toMatchObject({ status: 'True', lastTransitionTime: '2026-01-01T00:00:05Z' });
      await syncer.sync(rec); // nothing more to do
      expect(events.filter((e) => e.startsWith('SandboxChanged'))).toHaveLength(1);
    });

    it('kills what still runs in the dead sandbox (Killing) and stops the sandbox, which frees its network', async () => {
      const { syncer, runtime } = setup();
      const rec = record({});
      await syncer.sync(rec);
      const [first] = runtime.listPodSandboxes('u1');
      const stops = recordStops(runtime);
      const stopped: string[] = [];
      const stopSandbox = runtime.stopPodSandbox.bind(runtime);
      vi.spyOn(runtime, 'stopPodSandbox').mockImplementation(async (id) => { stopped.push(id); await stopSandbox(id); });
      // a pause gone while a container still runs
      vi.spyOn(runtime, 'listPodSandboxes').mockImplementation(function (this: FakeRuntime, uid?: string) {
        return FakeRuntime.prototype.listPodSandboxes.call(this, uid).map((s) => (s.id === first!.id ? { ...s, state: 'notready' as const } : s));
      });
      await syncer.sync(rec);
      expect(stops).toEqual(['c:30']);
      expect(stopped).toEqual([first!.id]);
    });

    /** What runs in the pod's ready sandbox, as name:attempt:state, after each sync until the app container runs. */
    const rerun = async (rec: PodRecord, s: ReturnType<typeof setup>, app = 'c'): Promise<string[][]> => {
      const steps: string[][] = [];
      for (let i = 0; i < 10; i++) {
        await s.syncer.sync(rec);
        const sandbox = s.runtime.listPodSandboxes('u1').find((sb) => sb.state === 'ready')!;
        const now = s.runtime.listContainers('u1').filter((c) => c.sandboxId === sandbox.id);
        steps.push(now.map((c) => `${c.name}:${c.attempt}:${c.state}`));
        if (now.some((c) => c.name === app && c.state === 'running')) return steps;
        await s.clock.advance(10);
      }
      return steps;
    };

    it('starts over: every init container runs again, in order, before the app container (upstream purges them)', async () => {
      const s = setup();
      const { syncer, runtime, clock } = s;
      const rec = record({ initContainers: ['i1', 'i2', 'i3'].map((name) => ({ name, image: 'busybox' })) },
        { 'fake.mini-kube.io/run-ms.i1': '5', 'fake.mini-kube.io/run-ms.i2': '5', 'fake.mini-kube.io/run-ms.i3': '5' });
      for (let i = 0; i < 5; i++) { await syncer.sync(rec); await clock.advance(10); }
      const before = syncer.status(rec);
      expect(cs(before).state).toMatchObject({ running: {} });
      await runtime.stopPodSandbox(runtime.listPodSandboxes('u1')[0]!.id);
      await syncer.sync(rec);
      // the old sandbox's init containers are gone (upstream's purgeInitContainers), its app container stays
      expect(runtime.listContainers('u1').map((c) => `${c.name}:${c.attempt}:${c.state}`)).toEqual(['c:0:exited', 'i1:1:running']);
      // the others keep the terminated status they had until they run again; the first restarts with its count + 1
      const during = syncer.status(rec, before);
      expect((during.initContainerStatuses as Record<string, any>[]).map((x) => [x.name, Object.keys(x.state)[0], x.restartCount])).toEqual([
        ['i1', 'running', 1], ['i2', 'terminated', 0], ['i3', 'terminated', 0],
      ]);
      expect(during.phase).toBe('Pending');
      await clock.advance(10);
      expect(await rerun(rec, s)).toEqual([
        ['i1:1:exited', 'i2:0:running'],
        ['i1:1:exited', 'i2:0:exited', 'i3:0:running'],
        ['i1:1:exited', 'i2:0:exited', 'i3:0:exited', 'c:1:running'],
      ]);
      const after = syncer.status(rec, during);
      expect((after.initContainerStatuses as Record<string, any>[]).map((x) => [x.name, x.state.terminated?.reason, x.restartCount])).toEqual([
        ['i1', 'Completed', 1], ['i2', 'Completed', 0], ['i3', 'Completed', 0],
      ]);
      expect(cs(after)).toMatchObject({ restartCount: 1, state: { running: {} } });
    });

    it('starts over with the sidecars too: each restarts in its turn and keeps running', async () => {
      const s = setup();
      const { syncer, runtime, clock } = s;
      const rec = record({
        initContainers: [{ name: 'i1', image: 'busybox' }, { name: 'sc', image: 'busybox', restartPolicy: 'Always' }, { name: 'i2', image: 'busybox' }],
      }, { 'fake.mini-kube.io/run-ms.i1': '5', 'fake.mini-kube.io/run-ms.i2': '5' });
      for (let i = 0; i < 5; i++) { await syncer.sync(rec); await clock.advance(10); }
      expect(cs(syncer.status(rec)).state).toMatchObject({ running: {} });
      await runtime.stopPodSandbox(runtime.listPodSandboxes('u1')[0]!.id);
      expect(await rerun(rec, s)).toEqual([
        ['i1:1:running'],
        ['i1:1:exited', 'sc:0:running'],
        ['i1:1:exited', 'sc:0:running', 'i2:0:running'],
        ['i1:1:exited', 'sc:0:running', 'i2:0:exited', 'c:1:running'],
      ]);
    });

    it('a Never pod whose containers ran gets no new sandbox, nor an event', async () => {
      const { syncer, runtime, events } = setup();
      const rec = record({ restartPolicy: 'Never' });
      await syncer.sync(rec);
      await runtime.stopPodSandbox(runtime.listPodSandboxes('u1')[0]!.id);
      events.length = 0;
      await syncer.sync(rec);
      expect(events).toEqual([]);
      expect(runtime.listPodSandboxes('u1').filter((s) => s.state === 'ready')).toEqual([]);
      expect(syncer.status(rec).phase).toBe('Succeeded');
    });
  });

  it('a deleted pod: Killing, containers stopped, terminal phase', async () => {
    const { syncer, events } = setup();
    const rec = record({});
    await syncer.sync(rec);
    rec.pod = { ...rec.pod, metadata: { ...rec.pod.metadata, deletionTimestamp: '2026-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 } };
    await syncer.sync(rec);
    expect(rec.terminated).toBe(true);
    expect(events).toContain('Killing: Stopping container c');
    const st = syncer.status(rec);
    expect(st.phase).toBe('Succeeded');
    expect((st.conditions as { type: string; status: string }[]).find((c) => c.type === 'PodReadyToStartContainers')?.status).toBe('False');
  });

  it('a deleted pod whose container never started (left created): no Killing for it, and it ends in ContainerStatusUnknown', async () => {
    const { syncer, events, runtime } = setup();
    const rec = record({ containers: [{ name: 'c', image: 'nginx:1.27' }, { name: 'd', image: 'nginx:1.27' }] });
    // d's start is lost on its way to the runtime (the kill comes between create and start)
    const start = runtime.startContainer.bind(runtime);
    vi.spyOn(runtime, 'startContainer').mockImplementation(async (id) => { if (runtime.containerStatus(id)?.name !== 'd') await start(id); });
    await syncer.sync(rec);
    expect(runtime.listContainers('u1').map((c) => `${c.name}:${c.state}`).sort()).toEqual(['c:running', 'd:created']);
    rec.pod = { ...rec.pod, metadata: { ...rec.pod.metadata, deletionTimestamp: '2026-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 } };
    await syncer.sync(rec);
    expect(rec.terminated).toBe(true);
    expect(events.filter((e) => e.startsWith('Killing'))).toEqual(['Killing: Stopping container c']);
    const d = (syncer.status(rec).containerStatuses as Record<string, any>[]).find((x) => x.name === 'd')!;
    expect(d.state.terminated).toMatchObject({ exitCode: 137, reason: 'ContainerStatusUnknown' });
  });

  it('stops the containers of a pod deleted with less than 2 s, or evicted (1 s), with 2 s: upstream\'s least before SIGKILL', async () => {
    for (const end of ['deleted', 'evicted']) {
      const { syncer, runtime } = setup();
      const rec = record({ terminationGracePeriodSeconds: 30 });
      await syncer.sync(rec);
      const stops = recordStops(runtime);
      if (end === 'deleted') rec.pod = { ...rec.pod, metadata: { ...rec.pod.metadata, deletionTimestamp: '2026-01-01T00:00:01Z', deletionGracePeriodSeconds: 1 } };
      else rec.failed = { reason: 'Evicted', message: 'The node was low on resource: memory.' };
      await syncer.sync(rec);
      expect(stops).toEqual(['c:2']);
      expect(rec.gracePeriod).toBe(1);
    }
  });

  it('a pod deleted while its image is pulled: the sync in flight creates nothing more (upstream cancels it)', async () => {
    const { syncer, events, runtime } = setup();
    const rec = record({ containers: [{ name: 'a', image: 'nginx:1.27' }, { name: 'b', image: 'busybox:1.36' }] });
    const pull = runtime.pullImage.bind(runtime);
    let release!: () => void;
    const pulled = new Promise<void>((r) => { release = r; });
    vi.spyOn(runtime, 'pullImage').mockImplementation(async (image) => { await pulled; return pull(image); });
    const syncing = syncer.sync(rec);
    await vi.waitFor(() => expect(events).toContain('Pulling: Pulling image "nginx:1.27"'));
    rec.pod = { ...rec.pod, metadata: { ...rec.pod.metadata, deletionTimestamp: '2026-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 } };
    release();
    await syncing;
    expect(runtime.listContainers('u1')).toEqual([]);
    expect(events.filter((e) => /^(Created|Started|Pulling: Pulling image "busybox)/.test(e))).toEqual([]);
    await syncer.sync(rec);
    expect(rec.terminated).toBe(true);
    expect(events.filter((e) => e.startsWith('Killing'))).toEqual([]);
  });

  it('a sync cancelled while an image is pulled (the pod became terminating) ends at once, the pull given up as a cancelled CRI call, nothing created', async () => {
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const runtime = new FakeRuntime({ clock, pullLatencyMs: 60_000 });
    const events: string[] = [];
    const recorder = { event: (_o: unknown, _t: string, reason: string, message: string) => { events.push(`${reason}: ${message}`); } } as unknown as EventRecorder;
    const syncer = new PodSyncer({ runtime, recorder, clock, logger: pino({ level: 'silent' }), hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 } });
    const rec = record({});
    const cancel = new AbortController();
    const syncing = syncer.sync(rec, cancel.signal);
    await vi.waitFor(() => expect(events).toContain('Pulling: Pulling image "nginx:1.27"'));
    cancel.abort(new Error('cancelled'));
    await expect(syncing).rejects.toThrow('cancelled');
    expect(runtime.imageStatus('nginx:1.27')).toBeUndefined();
    expect(runtime.listContainers('u1')).toEqual([]);
    expect(events.filter((e) => /^(Pulled|Failed|Created|Started)/.test(e))).toEqual([
      'Failed: Failed to pull image "nginx:1.27": rpc error: code = Canceled desc = context canceled',
      'Failed: Error: ErrImagePull',
    ]);
  });
});

describe('event references', () => {
  it("a container's events are about its place in the spec (init, ephemeral, regular); the pod's own about the pod", async () => {
    const { syncer, clock, about } = setup();
    const rec = record({
      initContainers: [{ name: 'setup', image: 'busybox:1.36' }],
      ephemeralContainers: [{ name: 'debugger', image: 'busybox:1.36' }],
    }, { 'fake.mini-kube.io/run-ms.setup': '0' });
    await syncer.sync(rec);
    await clock.advance(1);
    await syncer.sync(rec);
    expect(about).toEqual([
      ...['Pulling', 'Pulled', 'Created', 'Started'].map((r) => `${r} spec.ephemeralContainers{debugger}`),
      ...['Pulled', 'Created', 'Started'].map((r) => `${r} spec.initContainers{setup}`), // its image is there by then
      ...['Pulling', 'Pulled', 'Created', 'Started'].map((r) => `${r} spec.containers{c}`),
    ]);
    about.length = 0;
    rec.pod = { ...rec.pod, spec: { ...rec.pod.spec, activeDeadlineSeconds: 1 } };
    await clock.advance(1000);
    await syncer.sync(rec);
    expect(about[0]).toBe('DeadlineExceeded -');
    expect(about.slice(1).sort()).toEqual(['Killing spec.containers{c}', 'Killing spec.ephemeralContainers{debugger}']);
  });

  it("a probe's Unhealthy and the Killing of the sync it asks for are about the probed container", async () => {
    const { clock, runtime, about } = setup();
    const rec = record({ containers: [{ name: 'web', image: 'nginx:1.27', livenessProbe: { exec: { command: ['true'] }, periodSeconds: 1, failureThreshold: 1 } }] },
      { 'fake.mini-kube.io/liveness-fail.web': 'down' });
    const recorder = { event: (o: { fieldPath?: string }, _t: string, reason: string) => { about.push(`${reason} ${o.fieldPath ?? '-'}`); } } as unknown as EventRecorder;
    let syncing: Promise<void> | undefined;
    const probes = new ProbeManager({ runtime, clock, recorder, onChange: () => { syncing = syncer.sync(rec); }, getPod: () => ({ pod: rec.pod }) });
    const syncer = new PodSyncer({
      runtime, recorder, clock, logger: pino({ level: 'silent' }), hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 }, failedProbe: (id) => probes.failedProbe(id),
    });
    await syncer.sync(rec);
    about.length = 0;
    probes.sync(rec.uid, rec.pod, runtime.listContainers(rec.uid));
    await clock.advance(1);
    await vi.waitFor(() => expect(syncing).toBeDefined());
    await syncing;
    expect(about.slice(0, 2)).toEqual(['Unhealthy spec.containers{web}', 'Killing spec.containers{web}']);
    probes.close();
  });

  it('a container the spec lacks is named as upstream names it; a nameless one by its index', () => {
    const pod = { metadata: { name: 'p', namespace: 'ns', uid: 'u1' }, spec: { containers: [{ name: 'a' }, { name: '' }] } } as KubeObject;
    expect(containerFieldPath(pod, '')).toBe('spec.containers[1]');
    expect(containerFieldPath(pod, 'gone')).toBe('implicitly required container gone');
    expect(containerRef(pod, 'a')).toMatchObject({ name: 'p', namespace: 'ns', uid: 'u1', fieldPath: 'spec.containers{a}' });
  });
});

describe('pod status transition times', () => {
  it('come from the status the kubelet last set, not from a lagging API copy', async () => {
    const { syncer, clock } = setup();
    const rec = record({});
    await syncer.sync(rec);
    const first = syncer.status(rec);
    await clock.advance(5_000);
    // the informer's pod still has no status: without `previous` every condition would move to now
    const again = syncer.status(rec, first);
    const times = (s: Record<string, unknown>): string[] => (s.conditions as { lastTransitionTime: string }[]).map((c) => c.lastTransitionTime);
    expect(times(again)).toEqual(times(first));
    expect(times(syncer.status(rec))).not.toEqual(times(first));
  });
});

describe('a pod refused at admission', () => {
  it('has the status of upstream\'s rejectPod: phase, reason, message, QoS class and start time, no container statuses', async () => {
    const { syncer, runtime } = setup();
    const rec = record({ nodeSelector: { disk: 'ssd' } });
    rec.pod = { ...rec.pod, status: { phase: 'Pending', qosClass: 'BestEffort', conditions: [{ type: 'PodScheduled', status: 'True' }] } };
    rec.failed = { reason: 'NodeAffinity', message: "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector", rejected: true };
    await syncer.sync(rec);
    expect(runtime.listPodSandboxes('u1')).toEqual([]);
    // no containerStatuses: kubectl shows the reason, not ContainerCreating; PodScheduled, the kubelet's, goes
    expect(syncer.status(rec)).toEqual({
      phase: 'Failed', reason: 'NodeAffinity', message: rec.failed.message, qosClass: 'BestEffort', startTime: '2026-01-01T00:00:00Z', conditions: null,
    });
  });

  it('keeps the conditions the kubelet does not own (upstream mergePodStatus)', () => {
    const { syncer } = setup();
    const rec = record({});
    const gate = { type: 'example.com/gate', status: 'True' };
    rec.pod = { ...rec.pod, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }, gate] } };
    rec.failed = { reason: 'OutOfcpu', message: 'Pod was rejected: x', rejected: true };
    expect(syncer.status(rec).conditions).toEqual([gate]);
  });
});

describe('why a container has no log yet', () => {
  it('is its waiting reason: PodInitializing while the init containers run', async () => {
    const { syncer } = setup();
    const rec = record({ initContainers: [{ name: 'init', image: 'busybox' }] }); // runs until stopped
    await syncer.sync(rec);
    expect(noLogYet(syncer.status(rec), 'c', 'p')).toBe('container "c" in pod "p" is waiting to start: PodInitializing');
  });

  it('says image pull failures plainly, and that a container not in the status is not available', () => {
    const waiting = (reason: string): Record<string, unknown> => ({ containerStatuses: [{ name: 'c', state: { waiting: { reason } } }] });
    expect(noLogYet(waiting('ErrImagePull'), 'c', 'p')).toBe('container "c" in pod "p" is waiting to start: image can\'t be pulled');
    expect(noLogYet(waiting('ImagePullBackOff'), 'c', 'p')).toBe('container "c" in pod "p" is waiting to start: trying and failing to pull image');
    expect(noLogYet(waiting('ContainerCreating'), 'c', 'p')).toBe('container "c" in pod "p" is waiting to start: ContainerCreating');
    expect(noLogYet({ phase: 'Failed', reason: 'OutOfcpu' }, 'c', 'p')).toBe('container "c" in pod "p" is not available');
    expect(noLogYet({ initContainerStatuses: [{ name: 'i', state: { running: {} } }] }, 'i', 'p')).toBe('container "i" in pod "p" is waiting to start - no logs yet');
  });
});

type Cond = { type: string; status: string; reason?: string; message?: string };
const conds = (st: Record<string, unknown>): string[] => (st.conditions as Cond[]).filter((c) => c.type !== 'PodScheduled')
  .map((c) => `${c.type}=${c.status}${c.reason ? `/${c.reason}` : ''}${c.message ? ` ${c.message}` : ''}`);

describe('status of terminal pods and finished init containers (upstream generate.go, prober manager)', () => {
  it('Failed: Ready and ContainersReady PodFailed, Initialized True without reason; an init container that exited 0 is ready', async () => {
    const { syncer, clock } = setup();
    const rec = record({ restartPolicy: 'Never', initContainers: [{ name: 'init', image: 'busybox' }] },
      { 'fake.mini-kube.io/run-ms.init': '0', 'fake.mini-kube.io/exit-code.c': '1', 'fake.mini-kube.io/run-ms.c': '5' });
    await syncer.sync(rec);
    await clock.advance(1);
    await syncer.sync(rec);
    await clock.advance(10);
    await syncer.sync(rec);
    const st = syncer.status(rec);
    expect(st.phase).toBe('Failed');
    expect(conds(st)).toEqual(['PodReadyToStartContainers=False', 'Initialized=True', 'Ready=False/PodFailed', 'ContainersReady=False/PodFailed']);
    expect((st.initContainerStatuses as Record<string, unknown>[])[0]).toMatchObject({ ready: true, started: false, state: { terminated: { exitCode: 0 } } });
  });

  it('Succeeded: Initialized PodCompleted, with or without init containers', async () => {
    for (const initContainers of [[], [{ name: 'init', image: 'busybox' }]]) {
      const { syncer, clock } = setup();
      const rec = record({ restartPolicy: 'Never', initContainers }, { 'fake.mini-kube.io/run-ms.init': '0', 'fake.mini-kube.io/exit-code.c': '0', 'fake.mini-kube.io/run-ms.c': '5' });
      for (let i = 0; i < 3; i++) { await syncer.sync(rec); await clock.advance(10); }
      const st = syncer.status(rec);
      expect(st.phase).toBe('Succeeded');
      expect(conds(st)).toEqual(['PodReadyToStartContainers=False', 'Initialized=True/PodCompleted', 'Ready=False/PodCompleted', 'ContainersReady=False/PodCompleted']);
    }
  });

  it('a container not yet running waits with PodInitializing whenever the pod has init containers, even once they are done', async () => {
    const { clock, runtime } = setup();
    const pleg = new Pleg(runtime, clock, () => undefined, 1000);
    const syncer = new PodSyncer({
      runtime, recorder: { event: () => undefined } as unknown as EventRecorder, clock, logger: pino({ level: 'silent' }), hostIp: '192.0.2.10',
      backoff: { initialMs: 10_000, maxMs: 300_000 }, seenRunning: (uid, id) => pleg.seenRunning(uid, id),
    });
    const rec = record({ initContainers: [{ name: 'init', image: 'busybox' }], ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] },
      { 'fake.mini-kube.io/run-ms.init': '0' });
    await syncer.sync(rec);
    await clock.advance(1);
    await syncer.sync(rec); // init exited 0: c is started, not yet seen running
    const st = syncer.status(rec);
    expect((st.initContainerStatuses as Record<string, any>[])[0]!.state.terminated).toMatchObject({ exitCode: 0 });
    expect(cs(st).state).toEqual({ waiting: { reason: 'PodInitializing' } });
    expect((st.ephemeralContainerStatuses as Record<string, any>[])[0]!.state).toEqual({ waiting: { reason: 'PodInitializing' } });
  });
});

describe('a container whose config cannot be made', () => {
  it('CreateContainerConfigError is retried after the pod worker\'s back-off period (10 s), as a failed sync is', async () => {
    const { syncer, clock, events } = setup();
    // runAsUser 0 breaks runAsNonRoot whatever the image (the fake runtime's images run as a non-root user)
    const rec = record({ securityContext: { runAsNonRoot: true, runAsUser: 0 } });
    await syncer.sync(rec);
    expect(rec.waiting.get('c')?.reason).toBe('CreateContainerConfigError');
    expect(rec.requeueAt).toBe(clock.now() + 10_000);
    expect(events.filter((e) => e.startsWith('Failed'))).toHaveLength(1);
  });
});

describe('the fake runtime', () => {
  it('starts a runAsNonRoot pod: its images, of unknown content, run as the simulated images\' non-root user', async () => {
    const { syncer } = setup();
    const rec = record({ securityContext: { runAsNonRoot: true } });
    await syncer.sync(rec);
    expect(rec.waiting.get('c')?.reason).not.toBe('CreateContainerConfigError');
    expect(cs(syncer.status(rec)).state.waiting?.reason).not.toBe('CreateContainerConfigError');
  });
});

describe('a sidecar with a startup probe', () => {
  it('holds back the next init container and the containers until the probe succeeds; until then the pod is not initialized', async () => {
    const { clock, runtime } = setup();
    let started = false;
    const syncer = new PodSyncer({
      runtime, recorder: { event: () => undefined } as unknown as EventRecorder, clock, logger: pino({ level: 'silent' }), hostIp: '192.0.2.10',
      backoff: { initialMs: 10_000, maxMs: 300_000 }, probeResult: (_id, kind) => (kind === 'startup' ? started : undefined),
    });
    const rec = record({
      initContainers: [{ name: 'sc', image: 'busybox', restartPolicy: 'Always', startupProbe: { exec: { command: ['true'] } } }, { name: 'init', image: 'busybox' }],
    }, { 'fake.mini-kube.io/run-ms.init': '0' });
    await syncer.sync(rec);
    await syncer.sync(rec);
    expect(runtime.listContainers('u1').map((c) => c.name)).toEqual(['sc']);
    const st = syncer.status(rec);
    expect(conds(st)[1]).toBe('Initialized=False/ContainersNotInitialized containers with incomplete status: [sc init]');
    expect((st.initContainerStatuses as Record<string, unknown>[])[0]).toMatchObject({ started: false, ready: false, state: { running: {} } });
    started = true;
    await syncer.sync(rec);
    expect(runtime.listContainers('u1').map((c) => c.name)).toEqual(['sc', 'init']);
    await clock.advance(1);
    await syncer.sync(rec);
    expect(runtime.listContainers('u1').map((c) => c.name).sort()).toEqual(['c', 'init', 'sc']);
    expect(conds(syncer.status(rec))[1]).toBe('Initialized=True');
  });
});

describe('stopping a pod with sidecars (upstream termination ordering)', () => {
  const sidecarPod = (spec: Record<string, unknown>, annotations: Record<string, string> = {}): PodRecord => record({
    initContainers: [{ name: 'sc1', image: 'busybox', restartPolicy: 'Always' }, { name: 'sc2', image: 'busybox', restartPolicy: 'Always' }],
    containers: [{ name: 'a', image: 'nginx:1.27' }, { name: 'b', image: 'nginx:1.27' }], ...spec,
  }, annotations);

  it('on deletion: the regular containers first, the sidecars once they all stopped, the later sidecar first', async () => {
    const { syncer, runtime, events } = setup();
    const rec = sidecarPod({});
    for (let i = 0; i < 3; i++) await syncer.sync(rec);
    const stop = runtime.stopContainer.bind(runtime);
    const order: string[] = [];
    let releaseB!: () => void;
    const bHeld = new Promise<void>((r) => { releaseB = r; });
    vi.spyOn(runtime, 'stopContainer').mockImplementation(async (id, timeout) => {
      const name = runtime.containerStatus(id)!.name;
      order.push(`${name}:${timeout}`);
      if (name === 'b') await bHeld; // b takes its time to exit
      await stop(id, timeout);
    });
    rec.pod = { ...rec.pod, metadata: { ...rec.pod.metadata, deletionTimestamp: '2026-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 } };
    const killed = syncer.sync(rec);
    await vi.waitFor(() => expect(order).toEqual(['a:30', 'b:30']));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['a:30', 'b:30']); // the sidecars wait for b
    expect(events.filter((e) => e.startsWith('Killing')).sort()).toEqual(['a', 'b', 'sc1', 'sc2'].map((n) => `Killing: Stopping container ${n}`));
    releaseB();
    await killed;
    expect(order).toEqual(['a:30', 'b:30', 'sc2:30', 'sc1:30']);
    expect(rec.terminated).toBe(true);
  });

  it('once the regular containers of a Never pod are done, the sidecars are stopped with the pod\'s grace period', async () => {
    const { syncer, runtime, clock } = setup();
    const rec = sidecarPod({ restartPolicy: 'Never', terminationGracePeriodSeconds: 7 },
      { 'fake.mini-kube.io/exit-code.a': '0', 'fake.mini-kube.io/run-ms.a': '5', 'fake.mini-kube.io/exit-code.b': '0', 'fake.mini-kube.io/run-ms.b': '5' });
    for (let i = 0; i < 3; i++) await syncer.sync(rec);
    const timeouts = recordStops(runtime);
    await clock.advance(10);
    await syncer.sync(rec);
    expect(timeouts).toEqual(['sc2:7', 'sc1:7']);
    const st = syncer.status(rec);
    expect(st.phase).toBe('Succeeded');
    expect((st.initContainerStatuses as Record<string, any>[]).map((s) => s.state.terminated?.exitCode)).toEqual([0, 0]);
  });

  it('an init container failing under Never kills the pod with its grace period', async () => {
    const { syncer, runtime, clock } = setup();
    const rec = record({
      restartPolicy: 'Never', terminationGracePeriodSeconds: 7,
      initContainers: [{ name: 'sc', image: 'busybox', restartPolicy: 'Always' }, { name: 'init', image: 'busybox' }],
    }, { 'fake.mini-kube.io/exit-code.init': '1', 'fake.mini-kube.io/run-ms.init': '5' });
    await syncer.sync(rec);
    await syncer.sync(rec);
    const timeouts = recordStops(runtime);
    await clock.advance(10);
    await syncer.sync(rec);
    expect(timeouts).toEqual(['sc:7']);
    expect(syncer.status(rec).phase).toBe('Failed');
  });
});

describe('the sandbox hostname', () => {
  const sandboxOf = async (spec: Record<string, unknown>, name = 'p') => {
    const { syncer, runtime, events } = setup();
    const run = vi.spyOn(runtime, 'runPodSandbox');
    const rec = record(spec);
    rec.pod = { ...rec.pod, metadata: { ...rec.pod.metadata, name } };
    await syncer.sync(rec).catch(() => undefined);
    return { config: run.mock.calls[0]?.[0] as Parameters<typeof runtime.runPodSandbox>[0], events, calls: run.mock.calls.length };
  };

  it('is the FQDN with setHostnameAsFQDN (upstream GetNodenameForKernel); /etc/hosts keeps the short name', async () => {
    const { config } = await sandboxOf({ hostname: 'db-0', subdomain: 'db', setHostnameAsFQDN: true });
    expect(config.hostname).toBe('db-0.db.ns.svc.cluster.local');
    expect(config.hosts).toEqual({ hostname: 'db-0', fqdn: 'db-0.db.ns.svc.cluster.local' });
    expect((await sandboxOf({ hostname: 'db-0', setHostnameAsFQDN: true })).config.hostname).toBe('db-0'); // no subdomain: no domain
  });

  it('is none for a host-network pod, which keeps the node\'s (generatePodSandboxConfig): no FQDN to fit either', async () => {
    expect((await sandboxOf({ hostNetwork: true })).config.hostname).toBeUndefined();
    const { config, events } = await sandboxOf({ hostNetwork: true, hostname: 'h'.repeat(40), subdomain: 'sub', setHostnameAsFQDN: true });
    expect(config.hostname).toBeUndefined();
    expect(events.filter((e) => e.startsWith('FailedCreatePodSandBox'))).toEqual([]);
  });

  it('cuts a pod name longer than 63 characters to 63, then drops a trailing - or . (truncatePodHostnameIfNeeded)', async () => {
    const name = `${'a'.repeat(60)}.b--${'c'.repeat(10)}`; // characters 61-63 are "b--"
    const { config } = await sandboxOf({ subdomain: 'sub' }, name);
    expect(config.hostname).toBe(`${'a'.repeat(60)}.b`);
    expect(config.hosts).toEqual({ hostname: `${'a'.repeat(60)}.b`, fqdn: `${'a'.repeat(60)}.b.sub.ns.svc.cluster.local` });
  });

  it('an FQDN longer than 64 characters fails the sandbox (FailedCreatePodSandBox)', async () => {
    const { events, calls } = await sandboxOf({ hostname: 'h'.repeat(40), subdomain: 'sub', setHostnameAsFQDN: true });
    expect(calls).toBe(0);
    const fqdn = `${'h'.repeat(40)}.sub.ns.svc.cluster.local`;
    expect(events).toEqual([`FailedCreatePodSandBox: Failed to create pod sandbox: failed to construct FQDN from pod hostname and cluster domain, FQDN ${fqdn} is too long (64 characters is the max, ${fqdn.length} characters requested)`]);
  });

  it('tries a failed volume set-up again after 500 ms, doubling up to 2m2s, one FailedMount each time, as upstream\'s volume operations back off', async () => {
    const { clock, runtime, events } = setup();
    const dir = await mkdtemp(join(tmpdir(), 'pod-sync-mount-'));
    try {
      Object.assign(runtime, { podDir: (uid: string) => join(dir, uid) });
      const syncer = new PodSyncer({
        runtime, recorder: { event: (_o: unknown, _t: string, reason: string, message: string) => events.push(`${reason}: ${message}`) } as unknown as EventRecorder,
        clock, logger: pino({ level: 'silent' }), hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 }, getObject: async () => undefined,
      });
      const rec = record({ volumes: [{ name: 'cfg', configMap: { name: 'missing' } }] });
      const waits: number[] = [];
      for (let i = 0; i < 11; i++) {
        await syncer.sync(rec);
        waits.push(rec.requeueAt! - clock.now());
        await clock.advance(rec.requeueAt! - clock.now());
        rec.requeueAt = undefined;
      }
      expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 122_000, 122_000, 122_000]);
      expect(events.filter((e) => e.startsWith('FailedMount: MountVolume.SetUp failed for volume "cfg" : configmap "missing" not found'))).toHaveLength(11);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the pod\'s DNS', () => {
  it('records what the resolver\'s limits cut as Warning DNSConfigForming events, as upstream\'s formDNSConfigFitsLimits', async () => {
    const { runtime, clock } = setup();
    const events: string[] = [];
    const recorder = { event: (_o: unknown, type: string, reason: string, message: string) => events.push(`${type} ${reason}: ${message}`) } as unknown as EventRecorder;
    const syncer = new PodSyncer({
      runtime, recorder, clock, logger: pino({ level: 'silent' }), hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 },
      dns: { clusterDns: ['10.112.0.10'], clusterDomain: 'cluster.local', host: { servers: [], searches: [], options: [] } },
    });
    const run = vi.spyOn(runtime, 'runPodSandbox');
    await syncer.sync(record({ dnsConfig: { nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9'] } }));
    expect(run.mock.calls[0]![0].dnsConfig!.servers).toEqual(['10.112.0.10', '1.1.1.1', '8.8.8.8']);
    expect(events.filter((e) => e.includes('DNSConfigForming'))).toEqual([
      'Warning DNSConfigForming: Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 10.112.0.10 1.1.1.1 8.8.8.8',
    ]);
  });
});

describe('a failed postStart hook', () => {
  const hooked = (restartPolicy: string): PodRecord => record({
    restartPolicy, containers: [{ name: 'c', image: 'nginx:1.27', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo secret-token; exit 1'] } } } }],
  });
  /** The fake runtime runs hooks as the process runtime does, their exec failing with the hook's output. */
  const runningHooks = (runtime: FakeRuntime): void => {
    Object.defineProperty(runtime, 'probe', { value: undefined });
    vi.spyOn(runtime, 'execSync').mockResolvedValue({ stdout: 'secret-token\n', stderr: '', exitCode: 1 });
  };

  it('is an event that says no more than that; the container, killed, waits with PostStartHookError and the hook\'s words', async () => {
    const { syncer, runtime, events } = setup();
    runningHooks(runtime);
    const rec = hooked('Always');
    await syncer.sync(rec);
    expect(events).toEqual(expect.arrayContaining(['FailedPostStartHook: PostStartHook failed', 'Killing: FailedPostStartHook']));
    expect(events.join('\n')).not.toContain('secret-token');
    expect(cs(syncer.status(rec)).state.waiting).toEqual({
      reason: 'PostStartHookError', message: expect.stringMatching(/^Exec lifecycle hook \(\[sh -c echo secret-token; exit 1\]\) for Container "c" in Pod "p_ns\(u1\)" failed - error: .*secret-token/),
    });
  });

  it('kills the container as killContainer does: its preStop hook first, then a stop of at least 2 s', async () => {
    const { syncer, runtime } = setup();
    runningHooks(runtime);
    const stops = recordStops(runtime);
    const rec = hooked('Always');
    const spec = rec.pod.spec as { terminationGracePeriodSeconds?: number; containers: { lifecycle: Record<string, unknown> }[] };
    spec.terminationGracePeriodSeconds = 1;
    spec.containers[0]!.lifecycle.preStop = { exec: { command: ['drain'] } };
    await syncer.sync(rec);
    expect(vi.mocked(runtime.execSync).mock.calls.map((call) => call[1][0])).toEqual(['sh', 'drain']);
    expect(stops).toEqual(['c:2']);
  });

  it('leaves a container that is not restarted (restartPolicy Never) terminated', async () => {
    const { syncer, runtime } = setup();
    runningHooks(runtime);
    const rec = hooked('Never');
    await syncer.sync(rec);
    expect(cs(syncer.status(rec)).state.terminated).toBeDefined();
  });
});

describe('an orphaned runtime pod (one no source knows: deleted while the kubelet was down)', () => {
  it('is killed with upstream\'s 1 s (HandlePodCleanups): each container SIGTERM, then SIGKILL 2 s later, no hook; then removed', async () => {
    const { syncer, runtime, events, about } = setup();
    Object.defineProperty(runtime, 'probe', { value: undefined }); // a runtime that runs hooks
    const execs = vi.spyOn(runtime, 'execSync');
    const rec = record({ terminationGracePeriodSeconds: 30, containers: [
      { name: 'a', image: 'nginx:1.27', lifecycle: { preStop: { exec: { command: ['drain'] } } } }, { name: 'b', image: 'busybox:1.36' },
    ] });
    await syncer.sync(rec);
    const stops = recordStops(runtime);
    events.length = about.length = 0;
    await syncer.removeOrphan('u1');
    expect(stops.sort()).toEqual(['a:2', 'b:2']);
    expect(execs).not.toHaveBeenCalled(); // the runtime's pod has no spec: runningPod.ToAPIPod() knows no hooks
    // as killContainer's, about the pod the runtime names
    expect(events.sort()).toEqual(['Killing: Stopping container a', 'Killing: Stopping container b']);
    expect(about.sort()).toEqual(['Killing spec.containers{a}', 'Killing spec.containers{b}']);
    expect(runtime.listPodSandboxes('u1')).toEqual([]);
  });
});

describe('a pod\'s directory on the node', () => {
  /** A syncer whose runtime keeps pods' files under a temp dir, as the process runtime, with a hostPath outside it. */
  const onDisk = async () => {
    const s = setup();
    const dir = await mkdtemp(join(tmpdir(), 'pod-sync-dirs-'));
    Object.assign(s.runtime, { podDir: (uid: string) => join(dir, 'pods', uid) });
    const syncer = new PodSyncer({
      runtime: s.runtime, recorder: { event: () => undefined } as unknown as EventRecorder, clock: s.clock, logger: pino({ level: 'silent' }),
      hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 }, getObject: async () => undefined, requestToken: async () => 'a.b.c',
    });
    const hostPath = join(dir, 'host-data');
    const rec = record({
      restartPolicy: 'Never',
      volumes: [
        { name: 'v', emptyDir: {} }, { name: 'data', hostPath: { path: hostPath, type: 'DirectoryOrCreate' } },
        { name: 'kube-api-access-x1', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }] } },
      ],
      containers: [{
        name: 'c', image: 'nginx:1.27',
        volumeMounts: [{ name: 'v', mountPath: '/v' }, { name: 'data', mountPath: '/data' }, { name: 'kube-api-access-x1', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
      }],
    });
    await syncer.sync(rec);
    const podDir = join(dir, 'pods', 'u1');
    await writeFile(join(podDir, 'volumes', 'v', 'f'), 'scratch');
    await writeFile(join(hostPath, 'keep'), 'the user\'s data\n');
    return { ...s, syncer, dir, podDir, hostPath, rec };
  };

  it('loses its volumes once the pod has terminated (the token too) and goes whole once the pod is removed; a hostPath\'s data stays', async () => {
    const { syncer, runtime, dir, podDir, hostPath, rec } = await onDisk();
    try {
      expect(await readFile(join(podDir, 'volumes', 'kube-api-access-x1', 'token'), 'utf8')).toBe('a.b.c');
      rec.pod.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
      await syncer.sync(rec);
      expect(rec.terminated).toBe(true);
      expect(await readdir(podDir)).not.toContain('volumes');
      expect(rec.volumes).toBeUndefined();
      expect(await readdir(podDir)).toContain('rootfs'); // the rest (logs, termination messages) stays while the pod is known
      await syncer.remove('u1');
      expect(runtime.listContainers('u1')).toEqual([]);
      expect(await readdir(join(dir, 'pods'))).toEqual([]);
      expect(await readFile(join(hostPath, 'keep'), 'utf8')).toBe('the user\'s data\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('holds the managed /etc/hosts of a host-network pod, with or without hostAliases, but for a container that mounts a volume there (makeMounts)', async () => {
    const s = setup();
    const dir = await mkdtemp(join(tmpdir(), 'pod-sync-hosts-'));
    try {
      Object.assign(s.runtime, { podDir: (uid: string) => join(dir, 'pods', uid) });
      const syncer = new PodSyncer({
        runtime: s.runtime, recorder: { event: () => undefined } as unknown as EventRecorder, clock: s.clock, logger: pino({ level: 'silent' }),
        hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 }, getObject: async () => undefined,
      });
      const create = vi.spyOn(s.runtime, 'createContainer');
      await syncer.sync(record({
        hostNetwork: true, volumes: [{ name: 'h', emptyDir: {} }],
        containers: [{ name: 'c', image: 'nginx:1.27' }, { name: 'own', image: 'nginx:1.27', volumeMounts: [{ name: 'h', mountPath: '/etc/hosts' }] }],
      }));
      const hostsMounts = (name: string) => create.mock.calls.find(([, c]) => c.name === name)![1].mounts!.filter((m) => m.containerPath === '/etc/hosts');
      const [managed] = hostsMounts('c');
      expect(managed!.hostPath).toBe(join(dir, 'pods', 'u1', 'etc-hosts'));
      expect(await readFile(managed!.hostPath, 'utf8')).toBe(`# Kubernetes-managed hosts file (host network).\n${await readFile('/etc/hosts', 'utf8')}`);
      expect(hostsMounts('own').map((m) => m.hostPath)).toEqual([join(dir, 'pods', 'u1', 'volumes', 'h')]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loses its volumes when the pod completes, as upstream\'s volume manager unmounts those of terminated pods', async () => {
    const { syncer, dir, podDir, rec } = await onDisk();
    try {
      rec.pod.status = { phase: 'Succeeded' };
      await syncer.sync(rec);
      expect(await readdir(podDir)).not.toContain('volumes');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a container left created (its start failed before it ran)', () => {
  /** The runtime's next StartContainer fails and leaves the container created, as one failing before its task runs. */
  const startFails = (runtime: FakeRuntime): void => {
    vi.spyOn(runtime, 'startContainer').mockRejectedValueOnce(new Error('failed to create containerd task: cgroup busy'));
  };
  const states = (runtime: FakeRuntime, name: string): string[] =>
    runtime.listContainers('u1').filter((c) => c.name === name).sort((a, b) => a.attempt - b.attempt).map((c) => `${c.attempt}:${c.state}`);

  it.each(['Always', 'OnFailure', 'Never'])('is started again whatever the restart policy (%s), as upstream\'s ShouldContainerBeRestarted; the failed sync is retried after 10 s', async (restartPolicy) => {
    const { syncer, runtime, clock } = setup();
    const rec = record({ restartPolicy });
    startFails(runtime);
    await syncer.sync(rec);
    expect(states(runtime, 'c')).toEqual(['0:created']);
    expect(rec.requeueAt).toBe(clock.now() + 10_000);
    await clock.advance(10_000);
    await syncer.sync(rec);
    expect(states(runtime, 'c')).toEqual(['0:created', '1:running']);
    expect(cs(syncer.status(rec))).toMatchObject({ restartCount: 1, state: { running: {} } });
  });

  it('an init container too, before the containers', async () => {
    const { syncer, runtime, clock } = setup();
    const rec = record({ restartPolicy: 'Never', initContainers: [{ name: 'init', image: 'busybox' }] }, { 'fake.mini-kube.io/run-ms.init': '5' });
    startFails(runtime);
    await syncer.sync(rec);
    expect(states(runtime, 'init')).toEqual(['0:created']);
    await syncer.sync(rec);
    expect(states(runtime, 'init')).toEqual(['0:created', '1:running']);
    await clock.advance(5);
    await syncer.sync(rec);
    expect(states(runtime, 'c')).toEqual(['0:running']);
  });

  it('a sidecar too', async () => {
    const { syncer, runtime } = setup();
    const rec = record({ initContainers: [{ name: 'proxy', image: 'busybox', restartPolicy: 'Always' }] });
    startFails(runtime);
    await syncer.sync(rec);
    expect(states(runtime, 'proxy')).toEqual(['0:created']);
    await syncer.sync(rec);
    await syncer.sync(rec);
    expect(states(runtime, 'proxy')).toEqual(['0:created', '1:running']);
    expect(states(runtime, 'c')).toEqual(['0:running']);
  });

  it('backs off from the finish of its last exited attempt (upstream\'s doBackOff); with none, it starts at once', async () => {
    const { syncer, runtime, clock } = setup();
    const rec = record({}, { 'fake.mini-kube.io/exit-code.c': '1', 'fake.mini-kube.io/run-ms.c': '0' });
    await syncer.sync(rec);
    await clock.advance(1);
    startFails(runtime);
    await syncer.sync(rec); // attempt 0 exited: its restart (the back-off now 10 s) fails to start
    expect(states(runtime, 'c')).toEqual(['0:exited', '1:created']);
    await clock.advance(1_000);
    await syncer.sync(rec);
    expect(states(runtime, 'c')).toEqual(['0:exited', '1:created']); // 1 s after attempt 0 exited: backing off
    expect(cs(syncer.status(rec)).state.waiting.reason).toBe('CrashLoopBackOff'); // the created one's reason, as upstream's reason cache
    expect(rec.requeueAt).toBe(clock.now() + 9_000 - 1);
    await clock.advance(rec.requeueAt! - clock.now());
    await syncer.sync(rec);
    expect(states(runtime, 'c')).toEqual(['1:created', '2:running']);
  });
});

describe('a container killed for a failed liveness or startup probe (upstream\'s computePodActions, then killContainer)', () => {
  /**
   * The pod's containers under a probe manager whose failures sync the pod, as the kubelet's; the runtime runs hooks
   * (as the process runtime does): an exec of `check` fails, one of `drain` (a preStop hook) takes `hookSeconds`.
   */
  const probed = (spec: Record<string, unknown>, hookSeconds = 0, signal?: AbortSignal) => {
    const { clock, runtime, events } = setup();
    Object.defineProperty(runtime, 'probe', { value: undefined });
    const execs: string[] = [];
    vi.spyOn(runtime, 'execSync').mockImplementation((_id, cmd) => {
      execs.push(cmd.join(' '));
      if (cmd[0] === 'check') return Promise.resolve({ stdout: '', stderr: '', exitCode: 1 });
      return new Promise((resolve) => { clock.setTimer(() => resolve({ stdout: '', stderr: '', exitCode: 0 }), hookSeconds * 1000); });
    });
    const recorder = { event: (_o: unknown, _t: string, reason: string, message: string) => { events.push(`${reason}: ${message}`); } } as unknown as EventRecorder;
    const rec = record(spec);
    let syncing: Promise<void> | undefined;
    const probes = new ProbeManager({ runtime, clock, recorder, onChange: () => { syncing = syncer.sync(rec, signal); }, getPod: () => ({ pod: rec.pod }) });
    const syncer = new PodSyncer({
      runtime, recorder, clock, logger: pino({ level: 'silent' }), hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 },
      probeResult: (id, kind) => probes.result(id, kind), failedProbe: (id) => probes.failedProbe(id),
    });
    const stops = recordStops(runtime);
    /** Runs the pod until its probes' first failure has been acted on, `hookSeconds` passing meanwhile. */
    const failProbes = async (): Promise<void> => {
      await syncer.sync(rec);
      probes.sync(rec.uid, rec.pod, runtime.listContainers(rec.uid));
      await clock.advance(1);
      await vi.waitFor(() => expect(syncing).toBeDefined());
      if (hookSeconds) {
        await vi.waitFor(() => expect(execs).toContain('drain'));
        await clock.advance(hookSeconds * 1000);
      }
      await syncing;
      probes.close();
    };
    const states = (name: string): string[] => runtime.listContainers('u1').filter((c) => c.name === name).sort((a, b) => a.attempt - b.attempt).map((c) => `${c.attempt}:${c.state}`);
    return { events, execs, stops, rec, failProbes, states, syncer, clock, runtime, probes, syncing: () => syncing };
  };
  const liveness = (more: Record<string, unknown> = {}) => ({ exec: { command: ['check'] }, periodSeconds: 1, failureThreshold: 1, ...more });
  const preStop = { exec: { command: ['drain'] } };

  it('runs the preStop hook within the probe\'s terminationGracePeriodSeconds, the stop getting at least 2 s, then restarts it', async () => {
    const { events, execs, stops, failProbes, states } = probed({
      terminationGracePeriodSeconds: 30,
      containers: [{ name: 'c', image: 'nginx:1.27', livenessProbe: liveness({ terminationGracePeriodSeconds: 5 }), lifecycle: { preStop } }],
    }, 4);
    await failProbes();
    expect(events).toEqual(expect.arrayContaining(['Unhealthy: Liveness probe failed: ', 'Killing: Container c failed liveness probe, will be restarted']));
    expect(execs).toEqual(['check', 'drain']);
    expect(stops).toEqual(['c:2']); // 5 s less the hook's 4, at least 2
    expect(states('c')).toEqual(['0:exited', '1:running']);
  });

  it('without a grace period of its own the probe\'s kill has the pod\'s', async () => {
    const { stops, failProbes } = probed({
      terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'nginx:1.27', livenessProbe: liveness(), lifecycle: { preStop } }],
    }, 4);
    await failProbes();
    expect(stops).toEqual(['c:26']);
  });

  it('restartPolicy Never: killed, not restarted, and the Killing event does not say it will be', async () => {
    const { events, failProbes, states, syncer, rec } = probed({ restartPolicy: 'Never', containers: [{ name: 'c', image: 'nginx:1.27', livenessProbe: liveness() }] });
    await failProbes();
    expect(events).toContain('Killing: Container c failed liveness probe');
    expect(states('c')).toEqual(['0:exited']);
    await syncer.sync(rec);
    expect(syncer.status(rec).phase).toBe('Succeeded');
  });

  it('is cancelled when the pod becomes terminating meanwhile: the sync ends at once, its preStop hook no longer waited for', async () => {
    const cancel = new AbortController();
    const { execs, stops, rec, syncer, clock, runtime, probes, syncing, states } = probed({
      terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'nginx:1.27', livenessProbe: liveness(), lifecycle: { preStop } }],
    }, 20, cancel.signal);
    await syncer.sync(rec);
    probes.sync(rec.uid, rec.pod, runtime.listContainers(rec.uid));
    await clock.advance(1);
    await vi.waitFor(() => expect(execs).toContain('drain'));
    cancel.abort(new Error('cancelled'));
    await expect(syncing()).rejects.toThrow('cancelled');
    probes.close();
    expect(stops).toEqual([]); // the pod's kill, next, stops it
    expect(states('c')).toEqual(['0:running']);
  });

  it('a sidecar failing its startup probe is killed as an init container and started again', async () => {
    const { events, failProbes, states } = probed({
      initContainers: [{ name: 'proxy', image: 'busybox', restartPolicy: 'Always', startupProbe: liveness() }],
    });
    await failProbes();
    expect(events).toContain('Killing: Init container proxy failed startup probe');
    expect(states('proxy')).toEqual(['0:exited', '1:running']);
  });
});

describe('a container in the unknown state (upstream\'s computePodActions: it may still run, so it is killed before it starts again)', () => {
  /** The runtime reports the first attempt of `name` in the unknown state while it runs (CRI CONTAINER_UNKNOWN). */
  const unknownState = (runtime: FakeRuntime, name: string): void => {
    const shown = (c: ContainerStatus): ContainerStatus => (c.name === name && c.attempt === 0 && c.state === 'running' ? { ...c, state: 'unknown' } : c);
    const list = runtime.listContainers.bind(runtime);
    const status = runtime.containerStatus.bind(runtime);
    vi.spyOn(runtime, 'listContainers').mockImplementation((uid) => list(uid).map(shown));
    vi.spyOn(runtime, 'containerStatus').mockImplementation((id) => { const c = status(id); return c && shown(c); });
  };
  const states = (runtime: FakeRuntime, name: string): string[] =>
    runtime.listContainers('u1').filter((c) => c.name === name).sort((a, b) => a.attempt - b.attempt).map((c) => `${c.attempt}:${c.state}`);

  it.each(['Always', 'Never'])('is killed with the pod\'s grace period and started again whatever the restart policy (%s)', async (restartPolicy) => {
    const { syncer, runtime, events } = setup();
    const rec = record({ restartPolicy, terminationGracePeriodSeconds: 20 });
    await syncer.sync(rec);
    unknownState(runtime, 'c');
    const stops = recordStops(runtime);
    events.length = 0;
    await syncer.sync(rec);
    expect(events[0]).toBe('Killing: Container is in "unknown" state, try killing it before restart');
    expect(stops).toEqual(['c:20']);
    expect(states(runtime, 'c')).toEqual(['0:exited', '1:running']);
  });

  it('a sidecar too, as an init container', async () => {
    const { syncer, runtime, events } = setup();
    const rec = record({ initContainers: [{ name: 'proxy', image: 'busybox', restartPolicy: 'Always' }] });
    await syncer.sync(rec);
    await syncer.sync(rec);
    unknownState(runtime, 'proxy');
    events.length = 0;
    await syncer.sync(rec);
    expect(events[0]).toBe('Killing: Init container is in "unknown" state, try killing it before restart');
    expect(states(runtime, 'proxy')).toEqual(['0:exited', '1:running']);
    expect(states(runtime, 'c')).toEqual(['0:running']);
  });

  it('an init container is restarted unless the pod never restarts: then the pod is killed, as for a failed one', async () => {
    for (const restartPolicy of ['OnFailure', 'Never']) {
      const { syncer, runtime, events } = setup();
      const rec = record({ restartPolicy, initContainers: [{ name: 'init', image: 'busybox' }] });
      await syncer.sync(rec);
      unknownState(runtime, 'init');
      events.length = 0;
      await syncer.sync(rec);
      if (restartPolicy === 'Never') {
        // KillPod stops what runs (ConvertPodStatusToRunningPod), then the sandbox, which takes the container with it
        expect(rec.terminated).toBe(true);
        expect(states(runtime, 'init')).toEqual(['0:exited']);
        expect(runtime.listPodSandboxes('u1').map((sb) => sb.state)).toEqual(['notready']);
      } else {
        expect(events[0]).toBe('Killing: Init container is in "unknown" state, try killing it before restart');
        expect(states(runtime, 'init')).toEqual(['0:exited', '1:running']);
      }
      expect(states(runtime, 'c')).toEqual([]);
    }
  });
});

describe('a container whose start failed (upstream\'s StartContainer error: ErrRunContainer in the pod\'s sync results)', () => {
  const message = 'failed to create containerd task: exec: "nope": executable file not found in $PATH';

  it('waits with RunContainerError and the runtime\'s message while it is to be restarted, its StartError the last state', async () => {
    const { syncer, events } = setup();
    const rec = record({}, { 'fake.mini-kube.io/start-error.c': message });
    await syncer.sync(rec);
    expect(events).toContain(`Failed: Error: ${message}`);
    const st = cs(syncer.status(rec));
    expect(st.state).toEqual({ waiting: { reason: 'RunContainerError', message } });
    expect(st.lastState.terminated).toMatchObject({ exitCode: 128, reason: 'StartError', message });
    expect(st.restartCount).toBe(0);
  });

  it('is terminated (StartError) when it is not to be restarted (restartPolicy Never)', async () => {
    const { syncer } = setup();
    const rec = record({ restartPolicy: 'Never' }, { 'fake.mini-kube.io/start-error.c': message });
    await syncer.sync(rec);
    expect(cs(syncer.status(rec)).state.terminated).toMatchObject({ exitCode: 128, reason: 'StartError' });
  });

  it('left created, it waits with RunContainerError whatever the restart policy, until it is started again', async () => {
    const { syncer, runtime, clock } = setup();
    const rec = record({ restartPolicy: 'Never' });
    vi.spyOn(runtime, 'startContainer').mockRejectedValueOnce(new Error('failed to create containerd task: cgroup busy'));
    await syncer.sync(rec);
    expect(cs(syncer.status(rec)).state).toEqual({ waiting: { reason: 'RunContainerError', message: 'failed to create containerd task: cgroup busy' } });
    await clock.advance(10_000);
    await syncer.sync(rec);
    expect(cs(syncer.status(rec))).toMatchObject({ state: { running: {} }, restartCount: 1 });
  });
});

describe('the restart back-off, as upstream\'s flowcontrol.Backoff (10 s doubling to 5 min)', () => {
  const crashing = (): PodRecord => record({}, { 'fake.mini-kube.io/exit-code.c': '1', 'fake.mini-kube.io/run-ms.c': '0' });
  /** How long the container's next attempts run (the fake runtime reads it when each is created). */
  const runFor = (rec: PodRecord, ms: number): void => {
    rec.pod = { ...rec.pod, metadata: { ...rec.pod.metadata, annotations: { ...rec.pod.metadata!.annotations, 'fake.mini-kube.io/run-ms.c': String(ms) } } };
  };
  /** Runs the crashing container until its back-off has doubled `times` after the first restart, which is immediate. */
  const crashLoop = async (syncer: PodSyncer, clock: FakeClock, rec: PodRecord, times: number): Promise<void> => {
    await syncer.sync(rec);
    await clock.advance(1);
    await syncer.sync(rec);
    for (let i = 0; i < times; i++) {
      await clock.advance(1);
      await syncer.sync(rec);
      await clock.advance(rec.requeueAt! - clock.now());
      await syncer.sync(rec);
    }
  };
  const waiting = (syncer: PodSyncer, rec: PodRecord): string | undefined => {
    const w = cs(syncer.status(rec)).state.waiting;
    return w && `${w.reason}: ${/back-off (\S+)/.exec(w.message as string)?.[1]}`;
  };

  it('starts over from 10 s for a container that ran more than twice the cap (10 min) since its last restart (hasExpired)', async () => {
    const { syncer, clock } = setup();
    const rec = crashing();
    await crashLoop(syncer, clock, rec, 2);
    await clock.advance(1);
    await syncer.sync(rec);
    expect(waiting(syncer, rec)).toBe('CrashLoopBackOff: 40s');
    runFor(rec, 11 * 60_000);
    await clock.advance(rec.requeueAt! - clock.now());
    await syncer.sync(rec); // restarted; it runs 11 min
    const restarts = cs(syncer.status(rec)).restartCount as number;
    runFor(rec, 0);
    await clock.advance(11 * 60_000);
    await syncer.sync(rec);
    expect(cs(syncer.status(rec))).toMatchObject({ restartCount: restarts + 1, state: { running: {} } }); // at once
    await clock.advance(1);
    await syncer.sync(rec);
    expect(waiting(syncer, rec)).toBe('CrashLoopBackOff: 10s');
  });

  it('keeps the delay for one that ran less, but housekeeping forgets it (GC) 10 min after its last restart, cutting the wait short', async () => {
    const { syncer, clock } = setup();
    const rec = crashing();
    await crashLoop(syncer, clock, rec, 4);
    await clock.advance(1);
    await syncer.sync(rec); // backing off 2m40s
    runFor(rec, 9 * 60_000);
    await clock.advance(rec.requeueAt! - clock.now());
    await syncer.sync(rec); // restarted: the delay now 5 min; it runs 9 min
    const restartedAt = clock.now();
    runFor(rec, 0);
    await clock.advance(9 * 60_000);
    await syncer.sync(rec);
    expect(waiting(syncer, rec)).toBe('CrashLoopBackOff: 5m0s');
    const restarts = cs(syncer.status(rec)).restartCount as number;
    await clock.advance(restartedAt + 10 * 60_000 - clock.now());
    syncer.gcBackoffs();
    await syncer.sync(rec);
    expect(waiting(syncer, rec)).toBe('CrashLoopBackOff: 5m0s'); // exactly twice the cap: kept
    await clock.advance(1);
    syncer.gcBackoffs();
    await syncer.sync(rec);
    expect(cs(syncer.status(rec))).toMatchObject({ restartCount: restarts + 1, state: { running: {} } });
    await clock.advance(1);
    await syncer.sync(rec);
    expect(waiting(syncer, rec)).toBe('CrashLoopBackOff: 10s');
  });

  it('an image pull\'s back-off outlives a successful pull, as upstream\'s image manager only GCs it then', async () => {
    const { syncer, clock, runtime } = setup();
    const rec = record({ containers: [{ name: 'c', image: 'nginx:1.27', imagePullPolicy: 'Always' }] }, { 'fake.mini-kube.io/exit-code.c': '1', 'fake.mini-kube.io/run-ms.c': '0' });
    const pull = runtime.pullImage.bind(runtime);
    const failing = vi.spyOn(runtime, 'pullImage').mockRejectedValue(new Error('registry down'));
    await syncer.sync(rec); // fails: 10 s
    await clock.advance(10_000);
    await syncer.sync(rec); // fails: 20 s
    await clock.advance(20_000);
    failing.mockImplementation((image) => pull(image));
    await syncer.sync(rec); // pulled and started
    expect(cs(syncer.status(rec)).state).toMatchObject({ running: {} });
    failing.mockRejectedValue(new Error('registry down'));
    await clock.advance(1);
    await syncer.sync(rec); // its restart's pull fails: 40 s, not 10 s
    await clock.advance(30_000);
    await syncer.sync(rec);
    expect(cs(syncer.status(rec)).state.waiting.reason).toBe('ImagePullBackOff');
  });
});
