// What the endpoints and endpointslice controllers share (upstream pkg/api/v1/endpoints and
// controller/util/endpoint): which pods back a service, whether a pod belongs in its endpoints, its readiness, and
// the port a service port targets on it.
import type { KubeObject } from '../../../api/types.js';
import { selectorFromSet } from '../../apimachinery/labels.js';
import type { Lister, SharedIndexInformer } from '../../client/informer.js';
import { deepEqual, objOf } from './controller-utils.js';

export interface ServicePort { name?: string; port: number; protocol?: string; targetPort?: number | string; appProtocol?: string }
export interface EndpointPort { name?: string; port: number; protocol: string; appProtocol?: string }

export const hasSelector = (svc: KubeObject): boolean => !!svc.spec?.selector && Object.keys(svc.spec.selector).length > 0;

/** The services of the pod's namespace whose selector matches it. */
export const servicesSelecting = (services: KubeObject[], pod: KubeObject): KubeObject[] =>
  services.filter((s) => hasSelector(s) && selectorFromSet(s.spec.selector).matches(pod.metadata?.labels));

/**
 * What both endpoints controllers react to: a service as it changes, and the services selecting a pod as it
 * changes (those selecting its old self too, when its labels changed: it may have left them).
 */
export function enqueueServicesAndTheirPods(services: SharedIndexInformer, pods: SharedIndexInformer, enqueue: (service: KubeObject) => void): void {
  const svcLister: Lister = services.lister();
  services.addEventHandler({ onAdd: enqueue, onUpdate: (_o, s) => enqueue(s), onDelete: (o) => enqueue(objOf(o)) });
  const onPod = (pod: KubeObject): void => {
    for (const s of servicesSelecting(svcLister.namespace(pod.metadata!.namespace!).list(), pod)) enqueue(s);
  };
  pods.addEventHandler({
    onAdd: onPod,
    onUpdate: (old, pod) => { onPod(pod); if (!deepEqual(old.metadata?.labels, pod.metadata?.labels)) onPod(old); },
    onDelete: (o) => onPod(objOf(o)),
  });
}

export { isPodReady } from '../../../api/core/v1/pod-conditions.js';

/** Upstream ShouldPodBeInEndpoints: it has an IP and may still run (terminating ones only when asked). */
export function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  if (!pod.status?.podIP) return false;
  if (!includeTerminating && pod.metadata?.deletionTimestamp) return false;
  const phase = pod.status?.phase;
  switch (pod.spec?.restartPolicy) {
    case 'Never': return phase !== 'Failed' && phase !== 'Succeeded';
    case 'OnFailure': return phase !== 'Succeeded';
    default: return true;
  }
}

/** The container port a service port reaches on this pod (upstream FindPort), or undefined. */
export function findPort(pod: KubeObject, sp: ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = sp.protocol ?? 'TCP';
  for (const c of (pod.spec?.containers ?? []) as { ports?: { name?: string; containerPort: number; protocol?: string }[] }[]) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
}

/** The endpoint ports of a pod for every service port it serves; undefined when one named port is missing. */
export function endpointPorts(pod: KubeObject, svc: KubeObject): EndpointPort[] | undefined {
  const out: EndpointPort[] = [];
  for (const sp of (svc.spec?.ports ?? []) as ServicePort[]) {
    const port = findPort(pod, sp);
    if (port === undefined) return undefined;
    out.push({ ...(sp.name ? { name: sp.name } : {}), port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

export const podTargetRef = (pod: KubeObject): Record<string, string> =>
  ({ kind: 'Pod', namespace: pod.metadata!.namespace!, name: pod.metadata!.name!, uid: pod.metadata!.uid! });
