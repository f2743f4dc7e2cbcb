// What a write through pods/status may say (upstream: ValidatePodStatusUpdate): the QoS class never changes, a
// nominated node is a node name, a container that ended stays ended unless the pod restarts it, pod and host IPs
// are IPs (one per family), condition types of the pod's own are qualified names. Phases and messages are free;
// its annotations are checked as any write's are (pod-specific-annotations.ts).
import { isIP } from 'node:net';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue } from '../../apimachinery/field.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../apimachinery/names.js';
import { validatePodAnnotationsOnUpdate } from '../validation/pod-specific-annotations.js';
import { validatePodAnnotationUpdates } from './pod-annotations.js';

interface ContainerStatus { name?: string; state?: { terminated?: { exitCode?: number } } }
type Restarts = (name: string) => 'Always' | 'OnFailure' | 'Never';

/** Condition types the kubelet owns; any other is a readiness gate's or a controller's, a qualified name. */
const BUILTIN_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);
const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

export function validatePodStatusUpdate(pod: KubeObject, old: KubeObject): StatusCause[] {
  const status = pod.status ?? {};
  const was = old.status ?? {};
  // ValidatePodSpecificAnnotationUpdates: what may not change, then the new annotations as any write checks them
  const causes = [...validatePodAnnotationUpdates(pod, old),
    ...validatePodAnnotationsOnUpdate(pod.metadata?.annotations ?? {}, old.metadata?.annotations ?? {}, pod.spec ?? {}, 'metadata.annotations')];
  for (const [i, c] of ((status.conditions ?? []) as { type?: string }[]).entries()) {
    if (BUILTIN_CONDITIONS.has(c.type ?? '')) continue;
    // upstream's path, capital T and all
    for (const msg of isQualifiedName(c.type ?? '')) causes.push(invalidValue(`metadata.conditions[${i}].Type`, c.type ?? '', msg));
  }
  const nominated = status.nominatedNodeName as string | undefined;
  if (nominated && nominated !== was.nominatedNodeName) {
    for (const msg of isDNS1123Subdomain(nominated)) causes.push(invalidValue('status.nominatedNodeName', nominated, msg));
  }
  if ((status.qosClass ?? '') !== (was.qosClass ?? '')) causes.push(invalidValue('status.qosClass', status.qosClass ?? '', 'field is immutable'));

  const policy = (old.spec?.restartPolicy ?? 'Always') as 'Always' | 'OnFailure' | 'Never';
  causes.push(...stayTerminated('status.containerStatuses', status.containerStatuses, was.containerStatuses, () => policy));
  // a sidecar (an init container that restarts always) may start again
  const sidecars = new Set(((old.spec?.initContainers ?? []) as { name: string; restartPolicy?: string }[]).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  causes.push(...stayTerminated('status.initContainerStatuses', status.initContainerStatuses, was.initContainerStatuses, (n) => (sidecars.has(n) ? 'Always' : policy)));
  causes.push(...stayTerminated('status.ephemeralContainerStatuses', status.ephemeralContainerStatuses, was.ephemeralContainerStatuses, () => 'Never'));

  causes.push(...validateIPs('status.podIPs', ((status.podIPs ?? []) as { ip?: string }[]).map((p) => p.ip ?? '')));
  const hostIPs = ((status.hostIPs ?? []) as { ip?: string }[]).map((p) => p.ip ?? '');
  if (hostIPs.length > 0) {
    if ((status.hostIP ?? '') !== hostIPs[0]) causes.push(invalidValue('status.hostIPs[0].ip', hostIPs[0], 'must be equal to `hostIP`'));
    causes.push(...validateIPs('status.hostIPs', hostIPs));
  }
  return causes;
}

/** A container whose old state was terminated may not leave it unless its restart policy restarts it. */
function stayTerminated(path: string, next: unknown, before: unknown, restarts: Restarts): StatusCause[] {
  const causes: StatusCause[] = [];
  const now = (next ?? []) as ContainerStatus[];
  for (const [i, o] of ((before ?? []) as ContainerStatus[]).entries()) {
    const ended = o.state?.terminated;
    const policy = restarts(o.name ?? '');
    if (!ended || policy === 'Always' || (policy === 'OnFailure' && ended.exitCode !== 0)) continue;
    if (now.some((n) => n.name === o.name && !n.state?.terminated)) causes.push(forbidden(`${path}[${i}].state`, 'may not be transitioned to non-terminated state'));
  }
  return causes;
}

/** Each entry an IP, none twice, at most one per family. */
function validateIPs(path: string, ips: string[]): StatusCause[] {
  const causes: StatusCause[] = [];
  ips.forEach((ip, i) => { if (isIP(ip) === 0) causes.push(invalidValue(`${path}[${i}]`, ip, INVALID_IP)); });
  if (causes.length > 0 || ips.length < 2) return causes;
  if (ips.length > 2 || isIP(ips[0]!) === isIP(ips[1]!)) causes.push(invalidValue(path, ips, 'may specify no more than one IP for each IP family'));
  ips.forEach((ip, i) => { if (ips.indexOf(ip) < i) causes.push(duplicate(`${path}[${i}]`, ip)); });
  return causes;
}
