// A Job's status as its /status subresource accepts it: upstream's ValidateJobStatusUpdate with the options its
// status strategy sets in 1.32, where JobManagedBy is on (beta) so that a controller other than the job controller
// cannot leave a status clients would misread. Counters are never negative and the failed counter never goes
// down; a terminal condition stays; a finished job has a start time and no active or uncounted pods; a complete one
// a completion time; the index strings parse and do not overlap. Most rules apply only when a field they read
// changes, so a status that was already off can still be updated in its other fields.
//
//   validateJobStatusUpdate(job, old): StatusCause[]
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, invalidValue, required } from '../../apimachinery/field.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { goQuote, goTime, invalidOmitted, invalidRendered } from './go-values.js';
import { indexesFormat, overlappingIndex } from './job-indexes.js';
import { nonNegative } from './numbers.js';
import { asObj } from './field-checks.js';

type Obj = Record<string, any>;

const conditionTrue = (status: Obj, type: string): boolean =>
  Array.isArray(status.conditions) && status.conditions.some((c: Obj) => c?.type === type && c?.status === 'True');
const finished = (s: Obj): boolean => conditionTrue(s, 'Complete') || conditionTrue(s, 'Failed');
/** A *metav1.Time compared as ptr.Equal does: both absent, or the same instant. */
const sameTime = (a: unknown, b: unknown): boolean =>
  (a == null || b == null ? a == null && b == null : new Date(String(a)).getTime() === new Date(String(b)).getTime());
const uids = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** *batch.UncountedTerminatedPods as %#v prints it, dereferenced. */
const goUncounted = (u: Obj): string => {
  const list = (v: unknown): string => (Array.isArray(v) ? `[]types.UID{${v.map((x) => goQuote(String(x ?? ''))).join(', ')}}` : '[]types.UID(nil)');
  return `batch.UncountedTerminatedPods{Succeeded:${list(u.succeeded)}, Failed:${list(u.failed)}}`;
};

/** Upstream's validateJobStatus: the uids of uncounted pods are set and each appears once. */
function validateUncounted(uncounted: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  for (const list of ['succeeded', 'failed']) {
    uids(uncounted[list]).forEach((uid, i) => {
      const path = `status.uncountedTerminatedPods.${list}[${i}]`;
      const key = String(uid ?? '');
      if (key === '') causes.push(invalidValue(path, '', 'must not be empty'));
      else if (seen.has(key)) causes.push(duplicate(path, key));
      else seen.add(key);
    });
  }
  return causes;
}

export function validateJobStatusUpdate(job: KubeObject, old: KubeObject): StatusCause[] {
  const s: Obj = asObj(job.status) ?? {};
  const o: Obj = asObj(old.status) ?? {};
  const spec: Obj = asObj(job.spec) ?? {};
  const indexed = spec.completionMode === 'Indexed';
  const completions = typeof spec.completions === 'number' ? spec.completions : undefined;
  const failedIndexes = typeof s.failedIndexes === 'string' ? s.failedIndexes : undefined;
  const changed = {
    finished: finished(o) !== finished(s),
    complete: conditionTrue(o, 'Complete') !== conditionTrue(s, 'Complete'),
    failed: conditionTrue(o, 'Failed') !== conditionTrue(s, 'Failed'),
    failureTarget: conditionTrue(o, 'FailureTarget') !== conditionTrue(s, 'FailureTarget'),
    completedIndexes: (o.completedIndexes ?? '') !== (s.completedIndexes ?? ''),
    failedIndexes: (o.failedIndexes ?? null) !== (s.failedIndexes ?? null),
    active: (o.active ?? 0) !== (s.active ?? 0),
    startTime: !sameTime(o.startTime, s.startTime),
    completionTime: !sameTime(o.completionTime, s.completionTime),
    // a nil pointer differs from an empty struct; nil and empty lists are the same (Semantic.DeepEqual)
    uncounted: (o.uncountedTerminatedPods == null) !== (s.uncountedTerminatedPods == null)
      || !jsonEqual([uids(o.uncountedTerminatedPods?.succeeded), uids(o.uncountedTerminatedPods?.failed)],
        [uids(s.uncountedTerminatedPods?.succeeded), uids(s.uncountedTerminatedPods?.failed)]),
  };
  const complete = conditionTrue(s, 'Complete');
  const failed = conditionTrue(s, 'Failed');
  const failureTarget = conditionTrue(s, 'FailureTarget');
  const successCriteriaMet = conditionTrue(s, 'SuccessCriteriaMet');
  const isFinished = complete || failed;

  const causes: StatusCause[] = [];
  for (const f of ['active', 'succeeded', 'failed', 'ready', 'terminating']) causes.push(...nonNegative(s[f], `status.${f}`));
  const uncounted = asObj(s.uncountedTerminatedPods);
  if (uncounted) causes.push(...validateUncounted(uncounted));
  if ((changed.complete || changed.failed) && complete && failed) {
    causes.push(invalidOmitted('status.conditions', 'cannot set Complete=True and Failed=true conditions'));
  }
  if ((changed.complete || changed.failureTarget) && complete && failureTarget) {
    causes.push(invalidOmitted('status.conditions', 'cannot set Complete=True and FailureTarget=true conditions'));
  }
  if (changed.complete || changed.completionTime) {
    if (s.completionTime != null && !complete) {
      causes.push(invalidRendered('status.completionTime', goTime(String(s.completionTime)), 'cannot set completionTime when there is no Complete=True condition'));
    }
    if (s.completionTime == null && complete) causes.push(required('status.completionTime', 'completionTime is required for Complete jobs'));
  }
  if ((changed.startTime || changed.completionTime) && s.startTime != null && s.completionTime != null
    && new Date(String(s.completionTime)).getTime() < new Date(String(s.startTime)).getTime()) {
    causes.push(invalidRendered('status.completionTime', goTime(String(s.completionTime)), 'completionTime cannot be set before startTime'));
  }
  if ((changed.finished || changed.active) && (s.active ?? 0) > 0 && isFinished) {
    causes.push(invalidValue('status.active', s.active, 'active>0 is invalid for finished job'));
  }
  if ((changed.finished || changed.startTime) && s.startTime == null && isFinished) {
    causes.push(required('status.startTime', 'startTime is required for finished job'));
  }
  if ((changed.finished || changed.uncounted) && isFinished && uncounted
    && uids(uncounted.succeeded).length + uids(uncounted.failed).length > 0) {
    causes.push(invalidRendered('status.uncountedTerminatedPods', goUncounted(uncounted), 'uncountedTerminatedPods needs to be empty for finished job'));
  }
  if (changed.completedIndexes && completions !== undefined) {
    const { error } = indexesFormat(String(s.completedIndexes ?? ''), completions);
    if (error) causes.push(invalidValue('status.completedIndexes', String(s.completedIndexes ?? ''), `error parsing completedIndexes: ${error}`));
  }
  if (changed.failedIndexes && completions !== undefined && spec.backoffLimitPerIndex != null && failedIndexes !== undefined) {
    const { error } = indexesFormat(failedIndexes, completions);
    if (error) causes.push(invalidValue('status.failedIndexes', failedIndexes, `error parsing failedIndexes: ${error}`));
  }
  if (changed.completedIndexes && s.completedIndexes && !indexed) {
    causes.push(invalidValue('status.completedIndexes', s.completedIndexes, 'cannot set non-empty completedIndexes when non-indexed completion mode'));
  }
  if (changed.failedIndexes && spec.backoffLimitPerIndex == null && failedIndexes !== undefined) {
    causes.push(invalidValue('status.failedIndexes', failedIndexes, 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if ((changed.failedIndexes || changed.completedIndexes) && completions !== undefined && failedIndexes !== undefined) {
    const at = overlappingIndex(String(s.completedIndexes ?? ''), failedIndexes, completions);
    if (at !== undefined) causes.push(invalidValue('status.failedIndexes', failedIndexes, `failedIndexes and completedIndexes overlap at index: ${at}`));
  }
  if (successCriteriaMet && failed) causes.push(invalidOmitted('status.conditions', 'cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (successCriteriaMet && failureTarget) causes.push(invalidOmitted('status.conditions', 'cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (spec.successPolicy != null && !successCriteriaMet && complete) {
    causes.push(invalidOmitted('status.conditions', 'cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  }
  return [...causes, ...validateTransitions(job, s, o)];
}

/** What may not change from the old status to the new. */
function validateTransitions(job: KubeObject, s: Obj, o: Obj): StatusCause[] {
  const spec: Obj = asObj(job.spec) ?? {};
  const causes: StatusCause[] = [];
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (conditionTrue(o, type) && !conditionTrue(s, type)) causes.push(invalidOmitted('status.conditions', `cannot disable the terminal ${type}=True condition`));
  }
  if ((s.failed ?? 0) < (o.failed ?? 0)) causes.push(invalidValue('status.failed', s.failed ?? 0, 'cannot decrease the failed counter'));
  // an Indexed job whose completions equal its parallelism may be scaled down, and its succeeded count with it
  const scalable = spec.completionMode === 'Indexed' && (spec.completions ?? null) === (spec.parallelism ?? null);
  if (!scalable && (s.succeeded ?? 0) < (o.succeeded ?? 0)) causes.push(invalidValue('status.succeeded', s.succeeded ?? 0, 'cannot decrease the succeeded counter'));
  if (s.completionTime != null && o.completionTime != null && !sameTime(s.completionTime, o.completionTime)) {
    causes.push(invalidRendered('status.completionTime', goTime(String(s.completionTime)), 'completionTime cannot be mutated'));
  }
  if (o.startTime != null && !sameTime(o.startTime, s.startTime) && spec.suspend !== true) {
    causes.push(required('status.startTime', 'startTime cannot be removed for unsuspended job'));
  }
  if (conditionTrue(o, 'SuccessCriteriaMet') && !conditionTrue(s, 'SuccessCriteriaMet')) {
    causes.push(invalidOmitted('status.conditions', 'cannot disable the SuccessCriteriaMet=True condition'));
  }
  if (conditionTrue(o, 'Complete') && !conditionTrue(o, 'SuccessCriteriaMet') && conditionTrue(s, 'SuccessCriteriaMet')) {
    causes.push(invalidOmitted('status.conditions', 'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'));
  }
  return causes;
}
