// generatePodStatus for containers the runtime no longer has: what upstream's convertToAPIContainerStatuses carries
// over from the status last written, and what its status manager's TerminatePod says of them once the pod is done.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { generatePodStatus, type PodRuntimeView } from './pod-status.js';
import type { ContainerStatus } from './runtime/types.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const UNKNOWN_DELETED = 'The container could not be located when the pod was deleted.  The container used to be Running';
const UNKNOWN_TERMINATED = 'The container could not be located when the pod was terminated';

const view = (o: Partial<PodRuntimeView> = {}): PodRuntimeView => ({
  runtimeName: 'fake', containers: [], sandboxReady: true, hostIp: '192.0.2.10', waiting: new Map(), terminal: false, ...o,
});

const podOf = (spec: Record<string, unknown>, deleted = false): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', uid: 'u1', ...(deleted ? { deletionTimestamp: '2026-01-01T00:09:00Z' } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...spec },
} as KubeObject);

const running = (name: string, restartCount: number, lastState: Record<string, unknown> = {}): Record<string, unknown> => ({
  name, state: { running: { startedAt: '2026-01-01T00:01:00Z' } }, lastState, ready: true, restartCount, image: 'nginx:1.27', imageID: '', started: true,
});
const waiting = (name: string, reason: string, restartCount: number, lastState: Record<string, unknown> = {}): Record<string, unknown> => ({
  name, state: { waiting: { reason } }, lastState, ready: false, restartCount, image: 'nginx:1.27', imageID: '', started: false,
});
const exited1 = { terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-01-01T00:01:00Z', finishedAt: '2026-01-01T00:02:00Z', containerID: 'fake://old' } };

const exited = (name: string, exitCode: number): ContainerStatus => ({
  id: `id-${name}`, sandboxId: 's1', podUid: 'u1', name, attempt: 0, state: 'exited', image: 'nginx:1.27', imageRef: '', createdAt: NOW - 60_000, finishedAt: NOW - 1_000, exitCode,
});

type Status = Record<string, any>;
const statusOf = (st: Record<string, unknown>, name: string, kind = 'containerStatuses'): Status => (st[kind] as Status[]).find((s) => s.name === name)!;

describe('a container the runtime no longer has (upstream convertToAPIContainerStatuses)', () => {
  it('that was running: waiting, last state ContainerStatusUnknown (137, "was deleted"), one more restart; the pod stays Running', () => {
    const st = generatePodStatus(podOf({}), view(), NOW, { containerStatuses: [running('c', 3)] });
    expect(statusOf(st, 'c')).toMatchObject({
      state: { waiting: { reason: 'ContainerCreating' } },
      lastState: { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: UNKNOWN_DELETED } },
      restartCount: 4, ready: false,
    });
    expect(st.phase).toBe('Running');
  });

  it('of a deleted pod: the same last state, the restart count as it was (not restarted)', () => {
    const st = generatePodStatus(podOf({}, true), view(), NOW, { containerStatuses: [running('c', 3)] });
    expect(statusOf(st, 'c')).toMatchObject({ lastState: { terminated: { reason: 'ContainerStatusUnknown', message: UNKNOWN_DELETED } }, restartCount: 3 });
  });

  it('that was running with a last termination on record: that last state and restart count carried over, no unknown one', () => {
    const st = generatePodStatus(podOf({}), view(), NOW, { containerStatuses: [running('c', 2, exited1)] });
    expect(statusOf(st, 'c')).toMatchObject({ state: { waiting: { reason: 'ContainerCreating' } }, lastState: exited1, restartCount: 2 });
  });

  it('that was waiting after it had run: its restart count and last state carried over as they were', () => {
    const st = generatePodStatus(podOf({}), view(), NOW, { containerStatuses: [waiting('c', 'CrashLoopBackOff', 5, exited1)] });
    expect(statusOf(st, 'c')).toMatchObject({ state: { waiting: { reason: 'ContainerCreating' } }, lastState: exited1, restartCount: 5 });
  });

  it('with a waiting reason of the kubelet: that reason, over the carried-over last state', () => {
    const w = new Map([['c', { reason: 'ErrImagePull', message: 'not found', attempt: 0 }]]);
    const st = generatePodStatus(podOf({}), view({ waiting: w }), NOW, { containerStatuses: [running('c', 1)] });
    expect(statusOf(st, 'c')).toMatchObject({
      state: { waiting: { reason: 'ErrImagePull', message: 'not found' } },
      lastState: { terminated: { reason: 'ContainerStatusUnknown', exitCode: 137 } }, restartCount: 2,
    });
  });
});

describe('a container\'s state from the runtime (upstream\'s convertContainerStatus)', () => {
  it('is waiting with no reason while created and not started; ContainerCreating while the runtime has none', () => {
    const created: ContainerStatus = { ...exited('c', 0), state: 'created', finishedAt: undefined, exitCode: undefined };
    expect(statusOf(generatePodStatus(podOf({}), view({ containers: [created] }), NOW, {}), 'c').state.waiting).toEqual({});
    expect(statusOf(generatePodStatus(podOf({}), view(), NOW, {}), 'c').state).toEqual({ waiting: { reason: 'ContainerCreating' } });
  });
});

describe('a waiting reason of the kubelet (upstream\'s reason cache)', () => {
  const crashLooping = new Map([['c', { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=c pod=p_ns(u1)', attempt: 0 }]]);

  it('is the state of a container that is to start again, its exited attempt the last state', () => {
    const st = generatePodStatus(podOf({}), view({ containers: [exited('c', 1)], waiting: crashLooping }), NOW, {});
    expect(statusOf(st, 'c')).toMatchObject({ state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error' } } });
  });

  it('is not shown once the pod is being deleted, which restarts nothing: the container is terminated as the runtime has it', () => {
    const st = generatePodStatus(podOf({}, true), view({ containers: [exited('c', 1)], waiting: crashLooping }), NOW, {});
    expect(statusOf(st, 'c')).toMatchObject({ state: { terminated: { exitCode: 1, reason: 'Error' } }, lastState: {} });
  });
});

describe('a finished pod\'s containers with no terminal record (upstream status manager\'s TerminatePod)', () => {
  it('are Terminated ContainerStatusUnknown, 137, "was terminated"; those on record keep theirs; the pod Failed', () => {
    const pod = podOf({ containers: [{ name: 'a', image: 'nginx:1.27' }, { name: 'b', image: 'nginx:1.27' }] }, true);
    const st = generatePodStatus(pod, view({ containers: [exited('a', 0)], terminal: true, finished: true, sandboxReady: false }), NOW,
      { containerStatuses: [running('a', 0), running('b', 0)] });
    expect(statusOf(st, 'a').state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(statusOf(st, 'b')).toMatchObject({
      state: { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: UNKNOWN_TERMINATED } },
      lastState: { terminated: { reason: 'ContainerStatusUnknown', message: UNKNOWN_DELETED } }, restartCount: 0,
    });
    expect(st.phase).toBe('Failed');
  });

  it('not while the pod is only being killed', () => {
    const st = generatePodStatus(podOf({}, true), view({ terminal: true }), NOW, { containerStatuses: [running('c', 0)] });
    expect(statusOf(st, 'c').state).toEqual({ waiting: { reason: 'ContainerCreating' } });
  });

  it('never initialized: the app containers keep waiting; the init containers up to the last one tried are terminated', () => {
    const pod = podOf({ initContainers: [{ name: 'i1', image: 'busybox' }, { name: 'i2', image: 'busybox' }, { name: 'i3', image: 'busybox' }] }, true);
    pod.status = {
      initContainerStatuses: [waiting('i1', 'PodInitializing', 0, exited1), waiting('i2', 'PodInitializing', 0), waiting('i3', 'PodInitializing', 0)],
      containerStatuses: [waiting('c', 'PodInitializing', 0)],
    };
    const st = generatePodStatus(pod, view({ terminal: true, finished: true }), NOW);
    expect(statusOf(st, 'i1', 'initContainerStatuses').state.terminated).toMatchObject({ exitCode: 137, reason: 'ContainerStatusUnknown', message: UNKNOWN_TERMINATED });
    expect(statusOf(st, 'i2', 'initContainerStatuses').state).toEqual({ waiting: { reason: 'PodInitializing' } });
    expect(statusOf(st, 'i3', 'initContainerStatuses').state).toEqual({ waiting: { reason: 'PodInitializing' } });
    expect(statusOf(st, 'c').state).toEqual({ waiting: { reason: 'PodInitializing' } });
  });

  it('initialized (an app container ran): the app containers not on record are terminated too', () => {
    const pod = podOf({ initContainers: [{ name: 'i1', image: 'busybox' }] }, true);
    pod.status = {
      initContainerStatuses: [{ ...waiting('i1', 'PodInitializing', 0), state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
      containerStatuses: [running('c', 0)],
    };
    const st = generatePodStatus(pod, view({ terminal: true, finished: true }), NOW);
    expect(statusOf(st, 'c').state.terminated).toMatchObject({ exitCode: 137, reason: 'ContainerStatusUnknown', message: UNKNOWN_TERMINATED });
    expect(statusOf(st, 'i1', 'initContainerStatuses').state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });
});
