// Pods: status starts Pending with its QoS class; graceful deletion waits for the kubelet unless
// the pod never reached a node or already finished (upstream: registry/core/pod/strategy.go).
import type { KubeObject } from '../../../api/types.js';
import { forbidden } from '../../apimachinery/field.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { rfc3339 } from '../meta.js';
import type { Strategy } from '../strategy.js';
import { validateEphemeralContainersUpdate } from './ephemeral-containers.js';
import { validatePodAnnotationUpdates } from './pod-annotations.js';
import { applyAppArmorVersionSkew } from './pod-apparmor.js';
import { validatePodStatusUpdate } from './pod-status.js';
import { validatePodSpecUpdate } from './pod-update.js';
import { validatePodVolumeClaims } from '../validation/volumes.js';
import { podWarnings } from './pod-warnings.js';
import { nameWarnings } from './workload-warnings.js';

export const podStrategy: Strategy = {
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
    mutatePodAffinity(pod);
    applyAppArmorVersionSkew(pod, ctx);
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
    // ValidatePodCreate: what only a new pod is refused for, besides its spec (pod-spec-kinds.ts)
    const causes = validatePodOnly(pod);
    const spec = pod.spec;
    if (!spec || typeof spec !== 'object') return causes;
    if (Array.isArray(spec.ephemeralContainers) && spec.ephemeralContainers.length > 0) {
      causes.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
    }
    if (spec.nodeName && Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) {
      causes.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
    }
    return causes;
  },
  // validate is create-only: an update has validatePodOnly and its own rules (pod-spec-kinds.ts adds the spec's)
  updateValidationIsComplete: true,
  validateUpdate(pod, old) {
    const annotations = [...validatePodOnly(pod), ...validatePodAnnotationUpdates(pod, old)];
    // Most of a pod's spec is immutable once created (upstream: ValidatePodUpdate).
    return [...annotations, ...validatePodSpecUpdate(pod.spec ?? {}, old.spec ?? {})];
  },
  // none on update: pods are mostly written by controllers and kubelets, often (upstream's reasoning)
  warningsOnCreate: (pod) => [...nameWarnings(pod, 'pod'), ...podWarnings(pod)],
  validateSubresource(pod, old, _ctx, subresource) {
    if (subresource === 'status') return validatePodStatusUpdate(pod, old);
    return subresource === 'ephemeralcontainers' ? validateEphemeralContainersUpdate(pod, old) : [];
  },
  gracePeriod(pod, opts) {
    // Never scheduled or already finished: nothing to wait for.
    if (!pod.spec?.nodeName || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return 0;
    const period = opts.gracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
    // a negative grace period (accepted, with a warning, at creation) is treated as 1
    return period < 0 ? 1 : period;
  },
};

/**
 * What ValidatePodCreate and ValidatePodUpdate check of a pod but not of a template's pod spec
 * (validatePodMetadataAndSpec): the claims its ephemeral volumes create are named <pod>-<volume>, and a projected
 * service account token needs a service account.
 */
function validatePodOnly(pod: KubeObject): StatusCause[] {
  const spec = pod.spec;
  if (!spec || typeof spec !== 'object') return [];
  const causes = validatePodVolumeClaims(pod.metadata?.name ?? '', spec.volumes, 'spec.volumes');
  if (!spec.serviceAccountName && Array.isArray(spec.volumes)) {
    spec.volumes.forEach((v: KubeObject, vi: number) => {
      const sources = v?.projected?.sources;
      if (!Array.isArray(sources)) return;
      sources.forEach((s: KubeObject, si: number) => {
        if (s?.serviceAccountToken && typeof s.serviceAccountToken === 'object') {
          causes.push(forbidden(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  return causes;
}

/**
 * mutatePodAffinity (MatchLabelKeysInPodAffinity, on by default in 1.32): a pod (anti-)affinity term's
 * matchLabelKeys and mismatchLabelKeys become `In` and `NotIn` requirements of its labelSelector, with the values
 * of the new pod's labels (a term without a selector matches nothing and stays so).
 */
function mutatePodAffinity(pod: KubeObject): void {
  const affinity = pod.spec?.affinity;
  if (!affinity || typeof affinity !== 'object') return;
  const labels: Record<string, unknown> = pod.metadata?.labels ?? {};
  const apply = (term: KubeObject | undefined): void => {
    const selector = term?.labelSelector;
    if (!selector || typeof selector !== 'object') return;
    const match = Array.isArray(term.matchLabelKeys) ? term.matchLabelKeys as unknown[] : [];
    const mismatch = Array.isArray(term.mismatchLabelKeys) ? term.mismatchLabelKeys as unknown[] : [];
    if (match.length === 0 && mismatch.length === 0) return;
    const add = (keys: unknown[], operator: string): void => {
      for (const key of keys) {
        if (typeof key !== 'string' || typeof labels[key] !== 'string') continue;
        if (!Array.isArray(selector.matchExpressions)) selector.matchExpressions = [];
        selector.matchExpressions.push({ key, operator, values: [labels[key]] });
      }
    };
    add(match, 'In');
    add(mismatch, 'NotIn');
  };
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const rules = affinity[kind];
    if (!rules || typeof rules !== 'object') continue;
    for (const w of Array.isArray(rules.preferredDuringSchedulingIgnoredDuringExecution) ? rules.preferredDuringSchedulingIgnoredDuringExecution : []) apply(w?.podAffinityTerm);
    for (const t of Array.isArray(rules.requiredDuringSchedulingIgnoredDuringExecution) ? rules.requiredDuringSchedulingIgnoredDuringExecution : []) apply(t);
  }
}

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
