// The pod's API status from what the runtime reports and what the kubelet decided (waiting reasons such as
// CrashLoopBackOff), as upstream's generateAPIPodStatus and getPhase: containerStatuses, init containers in order,
// ephemeralContainerStatuses, the conditions PodReadyToStartContainers / Initialized / Ready / ContainersReady / PodScheduled, phase.
import { formatTime, type KubeObject } from '../client/index.js';
import { containerIdUri, type ContainerStatus } from './runtime/types.js';

export interface Waiting {
  reason: string;
  message?: string;
}

/** What the kubelet knows of a pod besides the runtime's view. */
export interface PodRuntimeView {
  runtimeName: string;
  /** Every container of the pod the runtime still has (all attempts). */
  containers: ContainerStatus[];
  sandboxReady: boolean;
  podIp?: string;
  hostIp: string;
  /** Kubelet-owned waiting reasons per container name (valid while the latest attempt is `attempt`). */
  waiting: Map<string, Waiting & { attempt: number }>;
  startTime?: number;
  /** The pod is being killed or was killed (deleted, or terminal): its phase becomes terminal once nothing runs. */
  terminal: boolean;
  /** Every container of the pod was stopped after its deletion or terminal phase (upstream's TerminatePod follows). */
  finished?: boolean;
  /** A container's probe result: undefined when it has no such probe. */
  probe?: (containerId: string, kind: 'startup' | 'readiness') => boolean | undefined;
}

export const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady'];

interface SpecMount { name: string; mountPath: string; readOnly?: boolean }
interface SpecContainer { name: string; image: string; restartPolicy?: string; readinessProbe?: unknown; startupProbe?: unknown; volumeMounts?: SpecMount[] }

/**
 * The mounts as the container has them (upstream's RecursiveReadOnlyMounts, on by default since 1.31): a read-only
 * one says whether that holds below it too, never on a runtime that cannot make it so (no runtime handler of ours
 * reports recursive read-only mounts).
 */
const volumeMountStatuses = (spec: SpecContainer): Record<string, unknown>[] | undefined => spec.volumeMounts?.map((m) => ({
  name: m.name, mountPath: m.mountPath, ...(m.readOnly ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}),
}));

/** The newest attempt of a container, and the one before it. */
export const attemptsOf = (all: ContainerStatus[], name: string): { latest?: ContainerStatus; previous?: ContainerStatus } => {
  const mine = all.filter((c) => c.name === name).sort((a, b) => b.attempt - a.attempt || b.createdAt - a.createdAt);
  return { latest: mine[0], previous: mine[1] };
};

type StatusOfContainer = {
  name: string;
  state?: { waiting?: { reason?: string }; running?: unknown; terminated?: unknown };
  lastState?: { terminated?: unknown };
  restartCount?: number;
};

/**
 * Why a container the runtime has no instance of has no log, in the words of upstream's validateContainerLogStatus:
 * read from the pod's status (the kubelet's last, else the API's), the container's waiting reason, the image pull
 * failures said plainly.
 */
export const noLogYet = (status: Record<string, unknown> | undefined, container: string, podName: string): string => {
  const statuses = (['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'] as const).flatMap((k) => (status?.[k] ?? []) as StatusOfContainer[]);
  const found = statuses.find((s) => s.name === container);
  const prefix = `container "${container}" in pod "${podName}"`;
  if (!found) return `${prefix} is not available`;
  const waiting = found.state?.waiting;
  if (!waiting) return `${prefix} is waiting to start - no logs yet`;
  const reason = waiting.reason ?? '';
  const why = reason === 'ErrImagePull' ? "image can't be pulled" : reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : reason;
  return `${prefix} is waiting to start: ${why}`;
};

const terminatedState = (c: ContainerStatus, runtime: string): Record<string, unknown> => ({
  terminated: {
    exitCode: c.exitCode ?? 0, reason: c.reason ?? (c.exitCode ? 'Error' : 'Completed'), ...(c.message ? { message: c.message } : {}),
    startedAt: formatTime(c.startedAt ?? c.createdAt), finishedAt: formatTime(c.finishedAt ?? c.createdAt),
    containerID: containerIdUri(runtime, c.id),
  },
});

/** A container known to have stopped without a record of how: upstream's ContainerReasonStatusUnknown, exit code 137. */
const unknownTermination = (message: string): Record<string, unknown> => ({ terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message } });

/**
 * What a container the runtime has no instance of keeps of its old status (upstream's convertToAPIContainerStatuses):
 * its restart count and last state, or its terminated state as the last one (under a waiting reason of the
 * kubelet's). One that was running with no last termination on record has stopped, how is unknown: its last state
 * says so (the pod does not go back to Pending for it), and it counts as restarted unless the pod is being deleted.
 */
const carriedOver = (old: StatusOfContainer, deleted: boolean): { lastState: Record<string, unknown>; restartCount: number } => {
  const restartCount = old.restartCount ?? 0;
  if (old.state?.terminated) return { lastState: old.state as Record<string, unknown>, restartCount };
  if (!old.state?.running || old.lastState?.terminated) return { lastState: old.lastState ?? {}, restartCount };
  return {
    lastState: unknownTermination('The container could not be located when the pod was deleted.  The container used to be Running'),
    restartCount: deleted ? restartCount : restartCount + 1,
  };
};

/**
 * `runsToCompletion`: a regular init container, ready once it exited 0 (upstream's prober manager). `old`: its
 * status as last written, kept whole when it was terminated and the runtime no longer has the container (upstream's
 * convertToAPIContainerStatuses: an init container purged with a dead sandbox stays Completed until it runs again;
 * under a waiting reason of the kubelet's, that terminated state is the last one). `deleted`: the pod has a deletionTimestamp.
 */
const containerStatus = (
  spec: SpecContainer, view: PodRuntimeView, { defaultWaiting, deleted }: { defaultWaiting: string; deleted: boolean }, runsToCompletion = false, old?: StatusOfContainer,
): Record<string, unknown> => {
  const { latest, previous } = attemptsOf(view.containers, spec.name);
  const w = view.waiting.get(spec.name);
  // as upstream's reason cache, a reason holds while the container is to start again: over the attempt it was set for
  // once that has exited, or is left created (its start failed); never in a pod being deleted, which restarts nothing
  // (ShouldContainerBeRestarted), so that its containers show what the runtime has
  const waitingNow = !deleted && w && (latest ? w.attempt === latest.attempt && (latest.state === 'exited' || latest.state === 'created') : true);
  if (!latest && !waitingNow && old?.state?.terminated) return old;
  let state: Record<string, unknown>;
  let lastState: Record<string, unknown> = previous && previous.state === 'exited' ? terminatedState(previous, view.runtimeName) : {};
  let restartCount = latest ? latest.attempt : 0;
  if (!latest && old) ({ lastState, restartCount } = carriedOver(old, deleted));
  if (waitingNow) {
    state = { waiting: { reason: w.reason, ...(w.message ? { message: w.message } : {}) } };
    if (latest?.state === 'exited') lastState = terminatedState(latest, view.runtimeName);
  } else if (!latest) {
    state = { waiting: { reason: defaultWaiting } };
  } else if (latest.state === 'created' || latest.state === 'unknown') {
    // upstream's convertContainerStatus: created but not running is "waiting to be running", with no reason
    state = { waiting: {} };
  } else if (latest.state === 'running') {
    state = { running: { startedAt: formatTime(latest.startedAt ?? latest.createdAt) } };
  } else {
    state = terminatedState(latest, view.runtimeName);
  }
  const running = !!latest && latest.state === 'running' && !waitingNow;
  const started = running && view.probe?.(latest.id, 'startup') !== false;
  const ready = runsToCompletion
    ? !waitingNow && latest?.state === 'exited' && (latest.exitCode ?? 0) === 0
    : started && view.probe?.(latest.id, 'readiness') !== false;
  return {
    name: spec.name,
    state,
    lastState,
    ready,
    restartCount,
    image: latest?.image ?? spec.image,
    imageID: latest?.imageRef ?? '',
    ...(latest ? { containerID: containerIdUri(view.runtimeName, latest.id) } : {}),
    started,
    ...(spec.volumeMounts?.length ? { volumeMounts: volumeMountStatuses(spec) } : {}),
  };
};

type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

/** Upstream's hasPodInitialized: the API's status shows an app container out of waiting, or the last init container done. */
const hasPodInitialized = (pod: KubeObject): boolean => {
  if (!((pod.spec?.initContainers ?? []) as unknown[]).length) return true;
  const status = (pod.status ?? {}) as Record<string, StatusOfContainer[] | undefined>;
  if ((status.containerStatuses ?? []).some((s) => s.lastState?.terminated || !s.state?.waiting)) return true;
  const last = status.initContainerStatuses?.at(-1);
  const exit0 = (s?: { terminated?: unknown }): boolean => (s?.terminated as { exitCode?: number } | undefined)?.exitCode === 0;
  return !!last && (exit0(last.lastState) || exit0(last.state));
};

/** Upstream's initializedContainers: all but the trailing init containers never tried (waiting, no last termination); at least the first. */
const triedInitCount = (init: Record<string, unknown>[]): number => {
  const tried = (s: Record<string, unknown>): boolean => stateOf(s) !== 'waiting' || !!(s.lastState as Record<string, unknown>).terminated;
  for (let i = init.length - 1; i >= 0; i--) if (tried(init[i]!)) return i + 1;
  return Math.min(init.length, 1);
};

/**
 * Upstream's TerminatePod, once every container of the pod is stopped: a container with no terminal state (the
 * runtime lost it: garbage collected, removed by hand, data lost on a restart) is taken to have failed, so that the
 * pod is not described as successful. The app containers only once the pod has initialized; of the init
 * containers, those tried.
 */
const terminateUnknown = (pod: KubeObject, init: Record<string, unknown>[], main: Record<string, unknown>[]): [Record<string, unknown>[], Record<string, unknown>[]] => {
  const terminate = (s: Record<string, unknown>): Record<string, unknown> =>
    stateOf(s) === 'terminated' ? s : { ...s, state: unknownTermination('The container could not be located when the pod was terminated') };
  const tried = triedInitCount(init);
  return [init.map((s, i) => (i < tried ? terminate(s) : s)), hasPodInitialized(pod) ? main.map(terminate) : main];
};

const stateOf = (s: Record<string, unknown>): 'waiting' | 'running' | 'terminated' =>
  (s.state as Record<string, unknown>).running ? 'running' : (s.state as Record<string, unknown>).terminated ? 'terminated' : 'waiting';

const exitCodeOf = (s: Record<string, unknown>): number | undefined =>
  ((s.state as Record<string, Record<string, unknown>>).terminated?.exitCode as number | undefined);

/** upstream's getPhase. */
export const podPhase = (pod: KubeObject, init: Record<string, unknown>[], main: Record<string, unknown>[], terminal: boolean): Phase => {
  const restartPolicy = (pod.spec?.restartPolicy as string | undefined) ?? 'Always';
  const initSpecs = (pod.spec?.initContainers ?? []) as SpecContainer[];
  let pendingInit = false;
  for (const s of init) {
    const sidecar = initSpecs.find((c) => c.name === s.name)?.restartPolicy === 'Always';
    const st = stateOf(s);
    if (sidecar) { if (st !== 'running') pendingInit = pendingInit || !main.some((m) => stateOf(m) !== 'waiting'); continue; }
    if (st === 'terminated' && exitCodeOf(s) === 0) continue;
    if (st === 'terminated' && restartPolicy === 'Never') return 'Failed';
    const last = (s.lastState as Record<string, unknown>).terminated as Record<string, unknown> | undefined;
    if (st === 'waiting' && last && restartPolicy === 'Never') return 'Failed';
    pendingInit = true;
  }
  if (pendingInit) return terminal && !init.some((s) => stateOf(s) === 'running') ? 'Failed' : 'Pending';
  let running = 0; let waiting = 0; let stopped = 0; let succeeded = 0;
  for (const s of main) {
    const st = stateOf(s);
    if (st === 'running') running++;
    else if (st === 'terminated') { stopped++; if (exitCodeOf(s) === 0) succeeded++; }
    else if ((s.lastState as Record<string, unknown>).terminated) stopped++;
    else waiting++;
  }
  if (waiting > 0) return terminal && running === 0 ? 'Failed' : 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (terminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (restartPolicy === 'Always') return 'Running';
    if (restartPolicy === 'OnFailure') return stopped === succeeded ? 'Succeeded' : 'Running';
    return stopped === succeeded ? 'Succeeded' : 'Failed';
  }
  return 'Pending';
};

interface Condition { type: string; status: string; reason?: string; message?: string; lastProbeTime: null; lastTransitionTime: string }

/** Why each readiness gate of the pod is not met, in upstream's words (its condition is set by someone else). */
const unreadyGates = (pod: KubeObject, conditions: Condition[]): string[] =>
  ((pod.spec?.readinessGates ?? []) as { conditionType: string }[]).flatMap(({ conditionType: type }) => {
    const c = conditions.find((x) => x.type === type);
    if (!c) return [`corresponding condition of pod readiness gate ${JSON.stringify(type)} does not exist.`];
    return c.status === 'True' ? [] : [`the status of pod readiness gate ${JSON.stringify(type)} is not "True", but ${c.status}`];
  });

/**
 * The status the kubelet would write now, from the pod's API status (foreign conditions, terminal phase) and the
 * status the kubelet last set, `previous` (its own conditions' transition times: as upstream's
 * generateAPIPodStatus takes them from the status manager, since the informer's copy can lag behind its writes and
 * two syncs would otherwise keep writing different transition times over each other).
 */
export const generatePodStatus = (pod: KubeObject, view: PodRuntimeView, now: number, previous?: Record<string, unknown>): Record<string, unknown> => {
  const apiStatus = (pod.status ?? {}) as Record<string, unknown>;
  const initSpecs = (pod.spec?.initContainers ?? []) as SpecContainer[];
  const specs = (pod.spec?.containers ?? []) as SpecContainer[];
  // upstream's default waiting reason says only whether the pod has init containers, for every kind of container
  const ctx = { defaultWaiting: initSpecs.length ? 'PodInitializing' : 'ContainerCreating', deleted: !!pod.metadata?.deletionTimestamp };
  // the statuses as last written: upstream's come from its status manager, else the API's
  const written = (previous ?? apiStatus) as Record<string, StatusOfContainer[] | undefined>;
  const oldOf = (kind: string, name: string): StatusOfContainer | undefined => written[kind]?.find((s) => s.name === name);
  let initStatuses = initSpecs.map((c) => containerStatus(c, view, ctx, c.restartPolicy !== 'Always', oldOf('initContainerStatuses', c.name)));
  let mainStatuses = specs.map((c) => containerStatus(c, view, ctx, false, oldOf('containerStatuses', c.name)))
    .sort((a, b) => String(a.name).localeCompare(String(b.name)));
  if (view.finished) [initStatuses, mainStatuses] = terminateUnknown(pod, initStatuses, mainStatuses);
  // ephemeral containers count for nothing but themselves: never ready, no started (upstream's probe manager skips them)
  const ephemeralStatuses = ((pod.spec?.ephemeralContainers ?? []) as SpecContainer[]).map((c) => {
    const { started: _started, ...status } = containerStatus(c, view, ctx, false, oldOf('ephemeralContainerStatuses', c.name));
    return { ...status, ready: false };
  });
  const oldPhase = apiStatus.phase as Phase | undefined;
  let phase = podPhase(pod, initStatuses, mainStatuses, view.terminal);
  if (oldPhase === 'Succeeded' || oldPhase === 'Failed') phase = oldPhase; // terminal phases never change back

  const ts = formatTime(now);
  const old = (apiStatus.conditions ?? []) as Condition[];
  const own = ((previous ?? apiStatus).conditions ?? []) as Condition[];
  const cond = (type: string, ok: boolean, reason?: string, message?: string): Condition => {
    // PodScheduled comes here only when the API has none: the kubelet adds its own, kept stable the same way
    const prev = (KUBELET_CONDITIONS.includes(type) || type === 'PodScheduled' ? own : old).find((c) => c.type === type);
    const status = ok ? 'True' : 'False';
    return {
      type, status, ...(reason ? { reason } : {}), ...(message ? { message } : {}), lastProbeTime: null,
      lastTransitionTime: prev && prev.status === status ? prev.lastTransitionTime : ts,
    };
  };
  const unready = [...initStatuses.filter((s, i) => initSpecs[i]!.restartPolicy === 'Always' && !s.ready), ...mainStatuses.filter((s) => !s.ready)]
    .map((s) => s.name as string);
  const completed = phase === 'Succeeded' || phase === 'Failed';
  // upstream's isInitContainerInitialized: a sidecar once started (its startup probe passed), any other once ready
  const incompleteInit = initSpecs.filter((c, i) => !(c.restartPolicy === 'Always' ? initStatuses[i]!.started === true : initStatuses[i]!.ready === true))
    .map((c) => c.name);
  // a regular container that ran means the init containers all did, though a sidecar may be restarting now
  const mainStarted = mainStatuses.some((s) => stateOf(s) !== 'waiting');
  const readyMsg = completed ? undefined : `containers with unready status: [${unready.join(' ')}]`;
  const readyReason = phase === 'Failed' ? 'PodFailed' : completed ? 'PodCompleted' : 'ContainersNotReady';
  const allReady = !completed && unready.length === 0;
  // upstream's GeneratePodReadyCondition: ready containers, then the condition of every readiness gate True
  const gates = allReady ? unreadyGates(pod, old) : [];
  const conditions: Condition[] = [
    cond('PodReadyToStartContainers', view.sandboxReady),
    phase === 'Succeeded' ? cond('Initialized', true, 'PodCompleted')
      : incompleteInit.length === 0 || mainStarted ? cond('Initialized', true)
      : cond('Initialized', false, 'ContainersNotInitialized', `containers with incomplete status: [${incompleteInit.join(' ')}]`),
    !allReady ? cond('Ready', false, readyReason, readyMsg) : gates.length ? cond('Ready', false, 'ReadinessGatesNotReady', gates.join(', ')) : cond('Ready', true),
    allReady ? cond('ContainersReady', true) : cond('ContainersReady', false, readyReason, readyMsg),
  ];
  const foreign = old.filter((c) => !KUBELET_CONDITIONS.includes(c.type));
  if (!foreign.some((c) => c.type === 'PodScheduled')) foreign.unshift(cond('PodScheduled', true));
  const podIp = view.podIp ?? (apiStatus.podIP as string | undefined);
  const startTime = (apiStatus.startTime as string | undefined) ?? (view.startTime !== undefined ? formatTime(view.startTime) : undefined);
  return {
    phase,
    conditions: [...conditions, ...foreign],
    hostIP: view.hostIp,
    hostIPs: [{ ip: view.hostIp }],
    ...(podIp ? { podIP: podIp, podIPs: [{ ip: podIp }] } : {}),
    ...(startTime ? { startTime } : {}),
    ...(initStatuses.length ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: mainStatuses,
    ...(ephemeralStatuses.length ? { ephemeralContainerStatuses: ephemeralStatuses } : {}),
    ...(apiStatus.qosClass ? { qosClass: apiStatus.qosClass } : {}),
  };
};
