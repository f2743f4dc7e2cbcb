// The pod workers with the pod syncer over the fake runtime and a fake clock: a kill under way is cancelled when its
// pod's grace period shortens, and the next stops the containers with the shorter one (upstream's UpdatePod).
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { FakeClock, type EventRecorder, type KubeObject } from '../client/index.js';
import { PodSyncer, type PodRecord } from './pod-sync.js';
import { PodWorkers } from './pod-workers.js';
import { FakeRuntime } from './runtime/fake.js';

const logger = pino({ level: 'silent' });

/**
 * A pod (`spec` added to its own) whose container ignores SIGTERM: each stop ends it once its timeout has passed on
 * the clock. `hookSeconds`: the runtime runs hooks (as the process runtime does), each exec taking that long, or
 * ending (exit 137) when it is told to stop.
 */
const setup = async (spec: Record<string, unknown> = {}, hookSeconds?: number) => {
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const runtime = new FakeRuntime({ clock });
  const execs: number[] = [];
  const hookSignals: (AbortSignal | undefined)[] = [];
  if (hookSeconds !== undefined) {
    // the fake runtime answers probes itself, which tells the syncer it runs no hooks
    Object.defineProperty(runtime, 'probe', { value: undefined });
    vi.spyOn(runtime, 'execSync').mockImplementation((_id, _cmd, timeout, signal) => {
      execs.push(timeout ?? 0);
      hookSignals.push(signal);
      return new Promise((resolve) => {
        clock.setTimer(() => resolve({ stdout: '', stderr: '', exitCode: 0 }), hookSeconds * 1000);
        signal?.addEventListener('abort', () => resolve({ stdout: '', stderr: '', exitCode: 137 }));
      });
    });
  }
  const stops: number[] = [];
  const stop = runtime.stopContainer.bind(runtime);
  vi.spyOn(runtime, 'stopContainer').mockImplementation((id, timeout) => {
    stops.push(timeout);
    return new Promise<void>((resolve) => { clock.setTimer(() => { void stop(id, timeout).then(resolve); }, timeout * 1000); });
  });
  const events: string[] = [];
  const recorder = { event: (_o: unknown, _t: string, reason: string, message: string) => { events.push(`${reason}: ${message}`); } } as unknown as EventRecorder;
  const syncer = new PodSyncer({ runtime, recorder, clock, logger, hostIp: '192.0.2.10', backoff: { initialMs: 10_000, maxMs: 300_000 } });
  const rec: PodRecord = {
    uid: 'u1', waiting: new Map(), terminated: false,
    pod: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1' }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } } as KubeObject,
  };
  await syncer.sync(rec);
  expect(runtime.listContainers('u1').map((c) => c.state)).toEqual(['running']);
  const workers = new PodWorkers((_uid, signal) => syncer.sync(rec, signal), clock, logger);
  /** The API's pod deleted with `grace`, handed to the workers as the kubelet does. */
  const deleteWith = (grace: number): void => {
    rec.pod = { ...rec.pod, metadata: { ...rec.pod.metadata, deletionTimestamp: '2026-01-01T00:01:00Z', deletionGracePeriodSeconds: grace } };
    workers.update('u1', syncer.changesKillGrace(rec));
  };
  return { clock, runtime, stops, execs, hookSignals, events, rec, workers, deleteWith };
};

describe('PodWorkers', () => {
  it.each([
    { how: 'a delete with less grace', spec: {}, second: 3 },
    // a delete may ask for longer than the spec; a force delete's 0 then falls back to the spec's 3 s
    { how: 'a force delete down to the spec\'s grace period', spec: { terminationGracePeriodSeconds: 3 }, second: 0 },
  ])('restarts a kill under way shortened by $how: the container goes at the shorter deadline', async ({ spec, second }) => {
    const { clock, runtime, stops, rec, deleteWith } = await setup(spec);
    deleteWith(60);
    await vi.waitFor(() => expect(stops).toEqual([60]));
    deleteWith(second);
    await vi.waitFor(() => expect(stops).toEqual([60, 3]));
    await clock.advance(3_000);
    await vi.waitFor(() => expect(rec.terminated).toBe(true));
    expect(runtime.listContainers('u1').map((c) => c.state)).toEqual(['exited']);
    expect(rec.gracePeriod).toBe(3);
  });

  it('never lengthens the grace period of a kill under way', async () => {
    const { clock, stops, rec, deleteWith } = await setup();
    deleteWith(5);
    await vi.waitFor(() => expect(stops).toEqual([5]));
    deleteWith(60); // only queues one more sync, which keeps 5 s
    await clock.advance(5_000);
    await vi.waitFor(() => expect(rec.terminated).toBe(true));
    expect(stops).toEqual([5]);
    expect(rec.gracePeriod).toBe(5);
  });

  it('a cancelled kill goes no further: only the kill that replaced it stops the sandbox', async () => {
    const { clock, runtime, rec, deleteWith } = await setup();
    const sandboxStops = vi.spyOn(runtime, 'stopPodSandbox');
    deleteWith(60);
    deleteWith(3);
    await clock.advance(3_000);
    await vi.waitFor(() => expect(rec.terminated).toBe(true));
    expect(sandboxStops).toHaveBeenCalledTimes(1);
    await clock.advance(60_000); // the first stop's deadline
    expect(sandboxStops).toHaveBeenCalledTimes(1);
  });

  it('a force delete of a pod being killed keeps the kill\'s grace period: 1.32 takes the spec\'s for a 0', async () => {
    const { clock, stops, rec, deleteWith } = await setup({ terminationGracePeriodSeconds: 60 });
    deleteWith(60);
    await vi.waitFor(() => expect(stops).toEqual([60]));
    deleteWith(0);
    await clock.advance(59_000);
    expect(rec.terminated).toBe(false);
    await clock.advance(1_000);
    await vi.waitFor(() => expect(rec.terminated).toBe(true));
    expect(stops).toEqual([60]);
  });

  it('a kill shortened during the preStop hook runs the hook again within the new grace period; the stop gets at least 2 s', async () => {
    const preStop = { exec: { command: ['sh', '-c', 'sleep 30'] } };
    const { clock, stops, execs, hookSignals, rec, deleteWith } = await setup({ containers: [{ name: 'c', image: 'busybox', lifecycle: { preStop } }] }, 30);
    deleteWith(60);
    await vi.waitFor(() => expect(execs).toHaveLength(1));
    await clock.advance(5_000);
    deleteWith(10);
    await vi.waitFor(() => expect(execs).toHaveLength(2));
    expect(hookSignals.map((s) => s?.aborted)).toEqual([true, false]); // the cancelled kill's hook ended with it
    // the hook is still running when the 10 s are over: the container is stopped with the least a stop gets
    await clock.advance(9_000);
    expect(stops).toEqual([]);
    await clock.advance(1_000);
    await vi.waitFor(() => expect(stops).toEqual([2]));
    await clock.advance(2_000);
    await vi.waitFor(() => expect(rec.terminated).toBe(true));
  });

  it('a preStop hook is not stopped when the grace period is over: it ends with its container, and its failure then is still a FailedPreStopHook event', async () => {
    const preStop = { exec: { command: ['sh', '-c', 'sleep 100'] } };
    const { clock, stops, execs, hookSignals, events, rec, deleteWith } = await setup({ containers: [{ name: 'c', image: 'busybox', lifecycle: { preStop } }] }, 100);
    deleteWith(3);
    await vi.waitFor(() => expect(execs).toEqual([0])); // upstream's RunInContainer(..., 0): no timeout of its own
    await clock.advance(3_000);
    await vi.waitFor(() => expect(stops).toEqual([2]));
    expect(hookSignals[0]!.aborted).toBe(false);
    await clock.advance(2_000);
    await vi.waitFor(() => expect(rec.terminated).toBe(true));
    expect(hookSignals[0]!.aborted).toBe(true);
    // upstream's event says no more than that (the hook's output may hold secrets)
    await vi.waitFor(() => expect(events).toContain('FailedPreStopHook: PreStopHook failed'));
  });

  it('a preStop sleep runs on the kubelet\'s clock and only a cancelled kill ends it, as a failure ("container terminated before sleep hook finished")', async () => {
    const { clock, stops, events, rec, deleteWith } = await setup({ containers: [{ name: 'c', image: 'busybox', lifecycle: { preStop: { sleep: { seconds: 20 } } } }] }, 0);
    deleteWith(60);
    await clock.advance(5_000);
    deleteWith(30);
    await vi.waitFor(() => expect(events).toContain('FailedPreStopHook: PreStopHook failed'));
    await clock.advance(20_000); // the new kill's sleep
    await vi.waitFor(() => expect(stops).toEqual([10]));
    expect(events.filter((e) => e.startsWith('FailedPreStopHook'))).toHaveLength(1);
    await clock.advance(10_000);
    await vi.waitFor(() => expect(rec.terminated).toBe(true));
  });

  it('a cancelled sync is not an error: the lane syncs again at once, with a fresh signal', async () => {
    const clock = new FakeClock(0);
    const warn = vi.fn();
    const signals: AbortSignal[] = [];
    let release!: () => void;
    const workers = new PodWorkers(async (_uid, signal) => {
      signals.push(signal);
      if (signals.length > 1) return;
      await new Promise<void>((resolve, reject) => { release = resolve; signal.addEventListener('abort', () => reject(signal.reason as Error)); });
    }, clock, { warn } as unknown as typeof logger);
    workers.update('u1');
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    workers.update('u1', true);
    await vi.waitFor(() => expect(signals).toHaveLength(2));
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    expect(warn).not.toHaveBeenCalled();
    release();
  });
});

describe('PodWorkers.forget', () => {
  const lanes = (w: PodWorkers): Map<string, unknown> => (w as unknown as { lanes: Map<string, unknown> }).lanes;

  it('from inside the pod\'s own sync releases its lane once the sync is over; updates queued before it sync nothing more', async () => {
    const clock = new FakeClock(0);
    let syncs = 0;
    let workers!: PodWorkers;
    let release!: () => void;
    workers = new PodWorkers(async (uid) => {
      syncs++;
      await new Promise<void>((r) => { release = r; });
      workers.forget(uid); // as the kubelet does once a removed pod is killed and gone
    }, clock, logger);
    workers.update('u1');
    await vi.waitFor(() => expect(syncs).toBe(1));
    workers.update('u1'); // coalesced into one more sync, for the pod about to be forgotten
    release();
    await vi.waitFor(() => expect(lanes(workers).size).toBe(0));
    expect(syncs).toBe(1);
  });

  it('an update after the forget, while the sync is still running, is a new life of the lane: it syncs', async () => {
    const clock = new FakeClock(0);
    let syncs = 0;
    let workers!: PodWorkers;
    let release!: () => void;
    workers = new PodWorkers(async (uid) => {
      if (++syncs > 1) return;
      workers.forget(uid);
      await new Promise<void>((r) => { release = r; });
    }, clock, logger);
    workers.update('u1');
    await vi.waitFor(() => expect(syncs).toBe(1));
    workers.update('u1'); // the pod is back (a static pod's manifest restored)
    release();
    await vi.waitFor(() => expect(syncs).toBe(2));
    await vi.waitFor(() => expect(lanes(workers).size).toBe(1));
  });
});
