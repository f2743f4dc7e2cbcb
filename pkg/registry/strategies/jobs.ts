// Jobs: unless spec.manualSelector, the server picks the selector from the job's uid and labels the pod template to
// match (upstream: registry/batch/job/strategy.go generateSelector). Validation as upstream's ValidateJob and
// ValidateJobUpdate (pkg/apis/batch/validation) around the pod spec: the generated selector, the job spec's rules
// (validation/job-spec.ts), the selector and template, and on updates the fields that never change; /status as
// upstream's status strategy (validation/job-status.ts).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, required } from '../../apimachinery/field.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { labelSelectorAsSelector, validateLabelSelector, type LabelSelector } from '../../apimachinery/labels.js';
import { isDNS1123Label } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';
import { goLabelSelector, goStringMap, invalidRendered } from '../validation/go-values.js';
import { validateJobSpec } from '../validation/job-spec.js';
import { validateJobStatusUpdate } from '../validation/job-status.js';
import { labelsOf } from '../validation/pod-template.js';
import { asObj } from '../validation/field-checks.js';
import { generationChanged, jobSpecWarnings, nameWarnings } from './workload-warnings.js';

type Obj = Record<string, any>;

const UID = 'batch.kubernetes.io/controller-uid';
const NAME = 'batch.kubernetes.io/job-name';
const LEGACY_UID = 'controller-uid';
const LEGACY_NAME = 'job-name';


/** The selector as LabelSelectorAsSelector reads it; undefined when it would fail (its errors are reported apart). */
const parse = (selector: unknown): ReturnType<typeof labelSelectorAsSelector> | undefined => {
  if (!asObj(selector) || validateLabelSelector(selector as LabelSelector, '').length) return undefined;
  try {
    return labelSelectorAsSelector(selector as LabelSelector);
  } catch {
    return undefined;
  }
};

/** Upstream's validateGeneratedSelector: a generated selector must select the job's own uid and name. */
function validateGeneratedSelector(job: KubeObject): StatusCause[] {
  const spec = asObj(job.spec) ?? {};
  if (spec.manualSelector === true || !asObj(spec.selector)) return [];
  const causes: StatusCause[] = [];
  const uid = job.metadata?.uid ?? '';
  const name = job.metadata?.name ?? '';
  if (!uid) causes.push(required('metadata.uid'));
  const labels = labelsOf(spec.template) ?? {};
  const expected: Record<string, string> = { [UID]: uid, [NAME]: name, [LEGACY_UID]: uid, [LEGACY_NAME]: name };
  for (const [key, value] of Object.entries(expected)) {
    if (!Object.hasOwn(labels, key)) causes.push(required(`spec.template.metadata.labels[${key}]`, value));
    else if (labels[key] !== value) causes.push(invalidValue(`spec.template.metadata.labels[${key}]`, labels, `must be '${value}'`));
  }
  const selector = parse(spec.selector);
  if (selector && !selector.matches(expected)) {
    causes.push(invalidRendered('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
  }
  return causes;
}

/** Upstream's ValidateJobSpec: the shared spec rules, then the selector and the template it must select. */
function validateJobSpecAndSelector(job: KubeObject): StatusCause[] {
  const spec = asObj(job.spec) ?? {};
  const causes = validateJobSpec(spec, 'spec');
  if (!asObj(spec.selector)) causes.push(required('spec.selector'));
  else causes.push(...validateLabelSelector(spec.selector as LabelSelector, 'spec.selector'));
  // an absent selector selects nothing: upstream reports the template as unmatched too
  const selector = asObj(spec.selector) ? parse(spec.selector) : undefined;
  if (!asObj(spec.selector) || (selector && !selector.matches(labelsOf(spec.template) ?? {}))) {
    causes.push(invalidRendered('spec.template.metadata.labels', goStringMap(labelsOf(spec.template)), '`selector` does not match template `labels`'));
  }
  return causes;
}

function validateJobCreate(job: KubeObject): StatusCause[] {
  const spec = asObj(job.spec) ?? {};
  const causes = [...validateGeneratedSelector(job), ...validateJobSpecAndSelector(job)];
  const completions = spec.completions;
  if (spec.completionMode === 'Indexed' && typeof completions === 'number' && completions > 0) {
    const name = job.metadata?.name ?? '';
    const hostname = `${name}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      causes.push(invalidValue('metadata.name', name, `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return causes;
}

/**
 * The template may change only while the job is suspended and has never started, and then only in its scheduling
 * directives (node affinity, node selector, tolerations, scheduling gates) and metadata (upstream's
 * AllowMutableSchedulingDirectives).
 */
function templateChanged(job: KubeObject, old: KubeObject): boolean {
  const template = asObj(job.spec?.template) ?? {};
  const oldTemplate = asObj(old.spec?.template) ?? {};
  const mutable = old.spec?.suspend === true && !old.status?.startTime;
  if (!mutable) return !jsonEqual(template, oldTemplate);
  const strip = (t: Obj): Obj => {
    const spec: Obj = { ...(asObj(t.spec) ?? {}) };
    delete spec.nodeSelector;
    delete spec.tolerations;
    delete spec.schedulingGates;
    const affinity = asObj(spec.affinity);
    if (affinity) {
      const { nodeAffinity: _dropped, ...rest } = affinity;
      void _dropped;
      if (Object.keys(rest).length === 0) delete spec.affinity;
      else spec.affinity = rest;
    }
    const meta: Obj = { ...(asObj(t.metadata) ?? {}) };
    delete meta.labels;
    delete meta.annotations;
    return { ...t, metadata: meta, spec };
  };
  return !jsonEqual(strip(template), strip(oldTemplate));
}

function validateJobUpdate(job: KubeObject, old: KubeObject): StatusCause[] {
  const spec = asObj(job.spec) ?? {};
  const oldSpec = asObj(old.spec) ?? {};
  const causes = validateJobSpecAndSelector(job);
  // completions: immutable, but for Indexed jobs changed together with parallelism (elastic indexed jobs)
  if (!jsonEqual(spec.completions ?? null, oldSpec.completions ?? null)) {
    if (spec.completionMode !== 'Indexed') causes.push(invalidValue('spec.completions', spec.completions ?? null, 'field is immutable'));
    else if (typeof spec.completions === 'number' && spec.completions !== spec.parallelism) {
      causes.push(invalidValue('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism'));
    }
  }
  if (!jsonEqual(spec.selector ?? null, oldSpec.selector ?? null)) {
    causes.push(invalidRendered('spec.selector', goLabelSelector(spec.selector), 'field is immutable'));
  }
  if (templateChanged(job, old)) causes.push(invalidValue('spec.template', spec.template ?? null, 'field is immutable'));
  for (const f of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) {
    if (!jsonEqual(spec[f] ?? null, oldSpec[f] ?? null)) causes.push(invalidValue(`spec.${f}`, spec[f] ?? null, 'field is immutable'));
  }
  return causes;
}

export const jobStrategy: Strategy = {
  // batch/v1 keeps a Job's pods unless told otherwise (kubectl sends Background)
  defaultGarbageCollectionPolicy: 'Orphan',
  defaultOrphanWarning: 'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning',
  prepareForCreate(job) {
    const spec = (job.spec ??= {});
    if (spec.manualSelector === true) return;
    const uid = job.metadata!.uid!;
    const name = job.metadata!.name ?? ''; // a create without a name fails validation, not here
    const template = (spec.template ??= {});
    const meta = (template.metadata ??= {});
    // Both the current labels and the legacy ones, as upstream still writes both.
    meta.labels = { ...meta.labels, [UID]: uid, [NAME]: name, [LEGACY_UID]: uid, [LEGACY_NAME]: name };
    spec.selector ??= { matchLabels: { [UID]: uid } };
  },
  validate: validateJobCreate,
  validateUpdate: validateJobUpdate,
  validateSubresource: (job, old, _ctx, subresource) => (subresource === 'status' ? validateJobStatusUpdate(job, old) : []),
  warningsOnCreate: (job) => [...nameWarnings(job, 'workload'), ...jobSpecWarnings(job.spec, 'spec')],
  warningsOnUpdate: (job, old) => (generationChanged(job, old) ? jobSpecWarnings(job.spec, 'spec') : []),
  // the generated-selector and pod-hostname checks are for creates only
  updateValidationIsComplete: true,
};
