// The pod's READY, STATUS and RESTARTS cells, computed as upstream's printPod does from the v1 JSON:
// init progress ("Init:1/3", "Init:CrashLoopBackOff", "Init:ExitCode:1"), waiting and terminated reasons,
// "Completed" turned back into "Running"/"NotReady" while a container still runs, "Terminating",
// "Unknown" for pods lost with their node, and restarts with the time of the last one ("3 (5m ago)").
import type { KubeObject } from '../../../api/types.js';
import { humanDuration, parseTime } from './duration.js';

interface ContainerState {
  waiting?: { reason?: string };
  running?: { startedAt?: string };
  terminated?: { exitCode?: number; signal?: number; reason?: string; finishedAt?: string };
}

interface ContainerStatus {
  name: string;
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  state?: ContainerState;
  lastState?: ContainerState;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
}

/** The reason the node lifecycle controller gives pods on a node that stopped answering. */
const NODE_UNREACHABLE_REASON = 'NodeLost';

export interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

/** Counts restarts and remembers the most recent termination among the containers fed to it. */
class RestartTally {
  count = 0;
  last: number | undefined;

  add(status: ContainerStatus): void {
    this.count += status.restartCount ?? 0;
    const finished = status.lastState?.terminated ? parseTime(status.lastState.terminated.finishedAt) : undefined;
    if (finished !== undefined && (this.last === undefined || finished > this.last)) this.last = finished;
  }
}

const conditionTrue = (conditions: Condition[], type: string): boolean =>
  conditions.find((c) => c.type === type)?.status === 'True';

const terminatedReason = (t: NonNullable<ContainerState['terminated']>, prefix: string): string => {
  if (t.reason) return prefix + t.reason;
  return t.signal ? `${prefix}Signal:${t.signal}` : `${prefix}ExitCode:${t.exitCode ?? 0}`;
};

export function summarizePod(pod: KubeObject, now: Date): PodSummary {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const conditions: Condition[] = status.conditions ?? [];
  const initSpecs: { name: string; restartPolicy?: string }[] = spec.initContainers ?? [];
  const sidecars = new Set(initSpecs.filter((c) => c.restartPolicy === 'Always').map((c) => c.name));

  let reason: string = status.reason || status.phase || '';
  if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';

  const totalContainers = (spec.containers ?? []).length + sidecars.size;
  let readyContainers = 0;
  const all = new RestartTally();
  const sidecarTally = new RestartTally();

  let initializing = false;
  const initStatuses: ContainerStatus[] = status.initContainerStatuses ?? [];
  for (const [i, c] of initStatuses.entries()) {
    all.add(c);
    const isSidecar = sidecars.has(c.name);
    if (isSidecar) sidecarTally.add(c);
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (isSidecar && c.started === true) {
      if (c.ready) readyContainers++;
      continue;
    }
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (waiting?.reason && waiting.reason !== 'PodInitializing') reason = `Init:${waiting.reason}`;
    else reason = `Init:${i}/${initSpecs.length}`;
    initializing = true;
    break;
  }

  let restarts = all;
  if (!initializing || conditionTrue(conditions, 'Initialized')) {
    restarts = sidecarTally;
    let hasRunning = false;
    const statuses: ContainerStatus[] = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts.add(c);
      const waiting = c.state?.waiting;
      const terminated = c.state?.terminated;
      if (waiting?.reason) reason = waiting.reason;
      else if (terminated) reason = terminatedReason(terminated, '');
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionTrue(conditions, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata?.deletionTimestamp) {
    if (status.reason === NODE_UNREACHABLE_REASON) reason = 'Unknown';
    else if (status.phase !== 'Succeeded' && status.phase !== 'Failed') reason = 'Terminating';
  }

  const restartText =
    restarts.count !== 0 && restarts.last !== undefined
      ? `${restarts.count} (${humanDuration(now.getTime() - restarts.last)} ago)`
      : String(restarts.count);

  return { ready: `${readyContainers}/${totalContainers}`, status: reason, restarts: restartText };
}
