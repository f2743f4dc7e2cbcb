// The `endpoints.kubernetes.io/last-change-trigger-time` annotation of Endpoints and EndpointSlices (upstream's
// TriggerTimeTracker, pkg/controller/util/endpoint): when the change the written object reflects happened. A pod's
// change is its Ready condition's lastTransitionTime, a service's its creationTimestamp; a sync reports the earliest
// of those that moved since the service's previous sync (the oldest change not yet published), and a service seen
// for the first time its creation. Zero (undefined) when nothing moved: the annotation is then removed.
import type { KubeObject } from '../../../api/types.js';

export const LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

interface ServiceState { service: number; pods: Map<string, number> }

const parse = (t: unknown): number | undefined => {
  if (typeof t !== 'string') return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
};

const podTriggerTime = (pod: KubeObject): number | undefined =>
  parse(((pod.status?.conditions ?? []) as { type?: string; lastTransitionTime?: string }[]).find((c) => c.type === 'Ready')?.lastTransitionTime);

/** Go's `t.UTC().Format(time.RFC3339Nano)`: no fraction for whole seconds, trailing zeros trimmed otherwise. */
export const formatTriggerTime = (ms: number): string => new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');

export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  /** The trigger time of this sync of `service` over its selected `pods`, as an annotation value or undefined. */
  compute(service: KubeObject, pods: KubeObject[]): string | undefined {
    const key = `${service.metadata?.namespace}/${service.metadata?.name}`;
    const previous = this.states.get(key);
    let earliest: number | undefined;
    const changed = (t: number): void => { if (earliest === undefined || t < earliest) earliest = t; };
    const seen = new Map<string, number>();
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      if (t === undefined) continue;
      seen.set(pod.metadata!.name!, t);
      if (t > (previous?.pods.get(pod.metadata!.name!) ?? -Infinity)) changed(t);
    }
    const created = parse(service.metadata?.creationTimestamp) ?? 0;
    if (created > (previous?.service ?? -Infinity)) changed(created);
    this.states.set(key, { service: created, pods: seen });
    const at = previous ? earliest : created;
    return at === undefined ? undefined : formatTriggerTime(at);
  }

  /** Forgets a deleted service. */
  delete(namespace: string, name: string): void { this.states.delete(`${namespace}/${name}`); }
}

/** `annotations` with the trigger time set, or removed when there is none (upstream's addTriggerTimeAnnotation). */
export function withTriggerTime(annotations: Record<string, string> | undefined, time: string | undefined): Record<string, string> {
  const { [LAST_CHANGE_TRIGGER_TIME]: _old, ...rest } = annotations ?? {};
  return time === undefined ? rest : { ...rest, [LAST_CHANGE_TRIGGER_TIME]: time };
}
