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

/**
 * Upstream ShouldPodBeInEndpoints: not terminal (Succeeded or Failed, whatever its restartPolicy: a kubelet may
 * stop a restartPolicy Always pod for good, as on node shutdown or eviction), with an IP, and not terminating unless asked.
 */
export function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  if (!pod.status?.podIP) return false; // podIPs[0] is podIP: the addresses written are podIP
  return includeTerminating || !pod.metadata?.deletionTimestamp;
}

interface ContainerPorts { ports?: { name?: string; containerPort: number; protocol?: string }[]; restartPolicy?: string }

const namedPort = (containers: ContainerPorts[] | undefined, name: string, protocol: string): number | undefined => {
  for (const c of containers ?? []) {
    for (const p of c.ports ?? []) if (p.name === name && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
};

/**
 * The container port a service port reaches on this pod (upstream FindPort), or undefined: a number as is, a name
 * looked up in the containers, then in the sidecars (init containers with restartPolicy Always).
 */
export function findPort(pod: KubeObject, sp: ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = sp.protocol ?? 'TCP';
  return namedPort(pod.spec?.containers as ContainerPorts[] | undefined, target, protocol)
    ?? namedPort((pod.spec?.initContainers as ContainerPorts[] | undefined)?.filter((c) => c.restartPolicy === 'Always'), target, protocol);
}

/**
 * The endpoint ports of a pod: one for each service port found on it, those not found skipped (upstream's per-port
 * loop of the endpoints controller, and getEndpointPorts of the EndpointSlice one).
 */
export function endpointPorts(pod: KubeObject, svc: KubeObject): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of (svc.spec?.ports ?? []) as ServicePort[]) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    out.push({ ...(sp.name ? { name: sp.name } : {}), port, protocol: sp.protocol ?? 'TCP', ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

export const podTargetRef = (pod: KubeObject): Record<string, string> =>
  ({ kind: 'Pod', namespace: pod.metadata!.namespace!, name: pod.metadata!.name!, uid: pod.metadata!.uid! });
