// The reference the kubelet's container events are about, as upstream's GenerateContainerRef: the pod, with the
// container's place in its spec as fieldPath. The event correlator keys on it, so each container's events are counted
// apart, and `kubectl get events --field-selector involvedObject.fieldPath=spec.containers{name}` finds them.
import { referenceTo, type KubeObject, type ObjectReference } from '../client/index.js';

const LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

/** Where the named container is in the pod's spec: spec.containers{name} (by index for a nameless one). */
export function containerFieldPath(pod: KubeObject, name: string): string {
  for (const list of LISTS) {
    const items = (pod.spec?.[list] ?? []) as { name?: string }[];
    const i = items.findIndex((c) => c.name === name);
    if (i >= 0) return name === '' ? `spec.${list}[${i}]` : `spec.${list}{${name}}`;
  }
  // upstream's words for a container the spec does not have
  return `implicitly required container ${name}`;
}

export const containerRef = (pod: KubeObject, name: string): ObjectReference => ({ ...referenceTo(pod), fieldPath: containerFieldPath(pod, name) });
