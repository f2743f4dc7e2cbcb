// Pods: status starts Pending with its QoS class; graceful deletion waits for the kubelet unless
// the pod never reached a node or already finished (upstream: registry/core/pod/strategy.go).
import type { KubeObject } from '../../../api/types.js';
import { forbidden } from '../../apimachinery/field.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { rfc3339 } from '../meta.js';
import type { Strategy } from '../strategy.js';
import { validateEphemeralContainersUpdate } from './ephemeral-containers.js';
import { validatePodAnnotationUpdates } from './pod-annotations.js';
import { validatePodStatusUpdate } from './pod-status.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export const podStrategy: Strategy = {
  returnDeletedObject: true,
  // old kubelets corrupted owner references through /status (upstream keeps them)
  statusKeepsMetadata: ['ownerReferences'],
  prepareForCreate(pod, ctx) {
    pod.status = { phase: 'Pending', qosClass: qosClass(pod) };
    // a gated pod says why it waits (kubectl's STATUS column shows SchedulingGated)
    if ((pod.spec?.schedulingGates as unknown[] | undefined)?.length) {
      pod.status.conditions = [{
        type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: rfc3339(ctx.now),
        reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates',
      }];
    }
  },
  prepareForStatusUpdate(pod, old) {
    // the QoS class is the apiserver's, set at creation: a writer that leaves it out keeps it
    if (!pod.status?.qosClass && old.status?.qosClass) pod.status = { ...pod.status, qosClass: old.status.qosClass };
  },
  prepareForUpdate(pod, old) {
    // spec.nodeName is set only through pods/binding.
    if (old.spec?.nodeName && pod.spec && pod.spec.nodeName !== old.spec.nodeName) pod.spec = { ...pod.spec, nodeName: old.spec.nodeName };
  },
  validate(pod) {
    const causes: StatusCause[] = [];
    const names = new Set<string>();
    for (const [i, c] of ((pod.spec?.containers ?? []) as KubeObject[]).entries()) {
      if (names.has(c.name)) causes.push({ reason: 'FieldValueDuplicate', field: `spec.containers[${i}].name`, message: `Duplicate value: ${JSON.stringify(c.name)}` });
      names.add(c.name);
    }
    if (Array.isArray(pod.spec?.containers) && pod.spec.containers.length === 0) causes.push({ reason: 'FieldValueRequired', field: 'spec.containers', message: 'Required value' });
    return causes;
  },
  validateUpdate(pod, old) {
    const annotations = validatePodAnnotationUpdates(pod, old);
    // Most of a pod's spec is immutable once created (upstream: ValidatePodUpdate).
    if (jsonEqual(pod.spec, old.spec)) return annotations;
    const mutable = (o: KubeObject): unknown => {
      const spec = cloneJson(o.spec ?? {});
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) delete c.image;
      delete spec.activeDeadlineSeconds;
      delete spec.tolerations;
      delete spec.schedulingGates;
      delete spec.terminationGracePeriodSeconds;
      return spec;
    };
    if (!jsonEqual(mutable(pod), mutable(old))) {
      return [...annotations, forbidden('spec', 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)')];
    }
    return annotations;
  },
  validateSubresource(pod, old, _ctx, subresource) {
    if (subresource === 'status') return validatePodStatusUpdate(pod, old);
    return subresource === 'ephemeralcontainers' ? validateEphemeralContainersUpdate(pod, old) : [];
  },
  gracePeriod(pod, opts) {
    // Never scheduled or already finished: nothing to wait for.
    if (!pod.spec?.nodeName || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return 0;
    return opts.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
  },
};

/** Guaranteed when every container's limits equal its requests for cpu and memory; BestEffort with none. */
export function qosClass(pod: KubeObject): string {
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])] as KubeObject[];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      if (req[r] !== undefined || lim[r] !== undefined) any = true;
      const want = req[r] ?? lim[r];
      if (lim[r] === undefined || want !== lim[r]) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
