// What a pod's spec may become after its creation, as upstream's ValidatePodUpdate decides: only the images, a
// shorter activeDeadlineSeconds, added tolerations (or another tolerationSeconds), removed scheduling gates, a
// terminationGracePeriodSeconds of 1 after a negative one, and, while the pod is gated, additions to its
// nodeSelector and required node affinity (mutable scheduling directives, GA in 1.30).
import { forbidden, invalidValue, required } from '../../apimachinery/field.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

const UPDATABLE = [
  '`spec.containers[*].image`', '`spec.initContainers[*].image`', '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)', '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
].join(',');
const INT32_MAX = 2 ** 31 - 1;

type Spec = Record<string, any>;
type Term = { matchExpressions?: unknown[]; matchFields?: unknown[] };

/** The causes, in upstream's order; `undefined` spec fields are absent ones. */
export function validatePodSpecUpdate(spec: Spec, old: Spec): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const field of ['containers', 'initContainers']) {
    const now = (spec[field] ?? []) as { image?: string }[];
    if (now.length !== ((old[field] ?? []) as unknown[]).length) return [...causes, forbidden(`spec.${field}`, 'pod updates may not add or remove containers')];
    now.forEach((c, i) => {
      if (!c.image) causes.push(required(`spec.${field}[${i}].image`));
      else if (c.image.trim() !== c.image) causes.push(invalidValue(`spec.${field}[${i}].image`, c.image, 'must not have leading or trailing whitespace'));
    });
  }
  const deadline = spec.activeDeadlineSeconds as number | undefined;
  if (deadline !== undefined) {
    if (deadline < 0 || deadline > INT32_MAX) return [...causes, invalidValue('spec.activeDeadlineSeconds', deadline, `must be between 0 and ${INT32_MAX}, inclusive`)];
    if (old.activeDeadlineSeconds !== undefined && old.activeDeadlineSeconds < deadline) {
      return [...causes, invalidValue('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value')];
    }
  } else if (old.activeDeadlineSeconds !== undefined) {
    causes.push(invalidValue('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  causes.push(...onlyAddedTolerations(spec.tolerations ?? [], old.tolerations ?? []), ...onlyDeletedGates(spec.schedulingGates ?? [], old.schedulingGates ?? []));
  if (jsonEqual(spec, old)) return causes;

  // the updatable fields take their old values; what is left must not have changed
  const munged: Spec = cloneJson(spec);
  for (const field of ['containers', 'initContainers']) {
    (munged[field] as { image?: string }[] | undefined)?.forEach((c, i) => { c.image = old[field][i].image; });
  }
  setOrDelete(munged, 'activeDeadlineSeconds', old.activeDeadlineSeconds);
  setOrDelete(munged, 'schedulingGates', old.schedulingGates);
  setOrDelete(munged, 'tolerations', old.tolerations);
  if (old.terminationGracePeriodSeconds < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = old.terminationGracePeriodSeconds;
  if ((old.schedulingGates ?? []).length > 0) causes.push(...gatedSchedulingChanges(munged, old));
  if (!jsonEqual(munged, old)) causes.push(forbidden('spec', `pod updates may not change fields other than ${UPDATABLE}`));
  return causes;
}

const setOrDelete = (o: Spec, key: string, value: unknown): void => {
  if (value === undefined) delete o[key];
  else o[key] = value;
};

/** Every old toleration is still there, give or take its tolerationSeconds (validateOnlyAddedTolerations). */
function onlyAddedTolerations(now: Spec[], old: Spec[]): StatusCause[] {
  const sansSeconds = ({ tolerationSeconds: _s, ...t }: Spec): Spec => t;
  const kept = old.every((o) => now.some((n) => jsonEqual(sansSeconds(o), sansSeconds(n))));
  return kept ? [] : [forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')];
}

/** No gate the pod did not have (validateOnlyDeletedSchedulingGates). */
function onlyDeletedGates(now: { name?: string }[], old: { name?: string }[]): StatusCause[] {
  const had = new Set(old.map((g) => g.name));
  return now.flatMap((g, i) => (had.has(g.name) ? [] : [forbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${g.name ?? ''}'`)]));
}

/**
 * A gated pod's nodeSelector may gain keys and its required node affinity terms gain requirements; the munged spec
 * takes the old values of both (and of the node affinity's other parts) so that only other changes remain.
 */
function gatedSchedulingChanges(munged: Spec, old: Spec): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!jsonEqual(munged.nodeSelector, old.nodeSelector)) {
    const now = (munged.nodeSelector ?? {}) as Record<string, string>;
    if (Object.entries((old.nodeSelector ?? {}) as Record<string, string>).some(([k, v]) => now[k] !== v)) {
      causes.push(invalidValue('spec.nodeSelector', now, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)'));
    }
    setOrDelete(munged, 'nodeSelector', old.nodeSelector);
  }
  const oldAffinity = old.affinity?.nodeAffinity;
  const nowAffinity = munged.affinity?.nodeAffinity;
  if (jsonEqual(oldAffinity, nowAffinity)) return causes;
  const at = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';
  const oldTerms = (oldAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) as Term[];
  const nowTerms = (nowAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) as Term[];
  if (oldTerms.length > 0 && oldTerms.length !== nowTerms.length) {
    causes.push(invalidValue(at, nowTerms, 'no additions/deletions to non-empty NodeSelectorTerms list are allowed'));
  } else {
    oldTerms.forEach((o, i) => {
      if (!onlyAdditions(nowTerms[i]!, o)) causes.push(invalidValue(`${at}[${i}]`, nowTerms[i], 'only additions are allowed (no mutations or deletions)'));
    });
  }
  // upstream's munging: the old node affinity put back, the affinity dropped if it held nothing else
  if (munged.affinity === undefined) {
    if (oldAffinity !== undefined) munged.affinity = { nodeAffinity: oldAffinity };
  } else if (old.affinity === undefined && !munged.affinity.podAffinity && !munged.affinity.podAntiAffinity) {
    delete munged.affinity;
  } else {
    setOrDelete(munged.affinity, 'nodeAffinity', oldAffinity);
  }
  return causes;
}

/** The term's old requirements, in order, each unchanged, with any new ones after them. */
const onlyAdditions = (now: Term, old: Term): boolean =>
  (['matchExpressions', 'matchFields'] as const).every((k) => {
    const o = old[k] ?? [];
    const n = now[k] ?? [];
    return o.length <= n.length && o.every((x, i) => jsonEqual(x, n[i]));
  });

