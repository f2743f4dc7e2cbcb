// Lifecycle hooks as upstream's handlerRunner runs them (pkg/kubelet/lifecycle/handlers.go): an exec in the
// container, an HTTP GET that fails only when it cannot be sent (its status does not count), or a sleep; a failure
// is worded with the hook's kind, the container and the pod ("name_namespace(uid)"), as the waiting message of a
// container whose postStart failed shows it (never an event: the output may hold secrets).
import type { KubeObject } from '../../api/types.js';
import { realClock, type Clock } from '../client/index.js';
import { runAction, type Probe, type ProbeResult } from './probes.js';
import type { Runtime } from './runtime/types.js';

export type Hook = Probe & { sleep?: { seconds: number } };

export interface HookContext {
  pod: KubeObject;
  container: string;
  podIp?: string;
  ports?: { name?: string; containerPort: number }[];
  /** 0: none. */
  timeoutSeconds: number;
  /** What a sleep waits on (default: the wall clock). */
  clock?: Clock;
  /** Upstream's context: its end ends any hook (a kill cancelled). */
  signal?: AbortSignal;
  /** The container has stopped: an exec in it, or a GET to it, ends with it, as its processes do. A sleep goes on. */
  stopped?: AbortSignal;
}

/** Upstream's runSleepHandler: the seconds, unless the hook's context ends first. */
const sleepHook = async (seconds: number, clock: Clock, signal?: AbortSignal): Promise<ProbeResult> => {
  try {
    await clock.sleep(seconds * 1000, signal);
    return { ok: true };
  } catch {
    return { ok: false, message: 'container terminated before sleep hook finished' };
  }
};

/** undefined when the hook ran; else upstream's message about it. */
export async function runHook(rt: Runtime, containerId: string, hook: Hook, c: HookContext): Promise<string | undefined> {
  const ends = [c.signal, c.stopped].filter((s): s is AbortSignal => s !== undefined);
  const res = await (hook.sleep
    ? sleepHook(hook.sleep.seconds, c.clock ?? realClock, c.signal)
    : runAction(rt, containerId, hook, { podIp: c.podIp, ports: c.ports, timeoutSeconds: c.timeoutSeconds, anyStatus: true, signal: ends.length ? AbortSignal.any(ends) : undefined }))
    .catch((e: unknown) => ({ ok: false, message: (e as Error).message, output: undefined }));
  if (res.ok) return undefined;
  const m = c.pod.metadata ?? {};
  const where = `for Container ${JSON.stringify(c.container)} in Pod ${JSON.stringify(`${m.name ?? ''}_${m.namespace ?? ''}(${m.uid ?? ''})`)} failed - error: ${res.message ?? ''}`;
  if (hook.exec) return `Exec lifecycle hook ([${(hook.exec.command ?? []).join(' ')}]) ${where}, message: ${JSON.stringify(res.output ?? '')}`;
  if (hook.httpGet) return `HTTP lifecycle hook (${hook.httpGet.path ?? ''}) ${where}`;
  if (hook.sleep) return `Sleep lifecycle hook (${hook.sleep.seconds}) ${where}`;
  return `Cannot run handler: ${res.message ?? ''}`;
}
