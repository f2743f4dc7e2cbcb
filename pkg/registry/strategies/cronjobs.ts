// CronJobs: upstream's ValidateCronJobCreate and ValidateCronJobUpdate (pkg/apis/batch/validation) around the pod
// spec: a schedule robfig/cron's standard parser takes (no TZ= in it but on objects that already had one), an IANA
// time zone, the concurrency policy, counts not negative, and the job template validated as a job spec whose
// selector the controller generates; a new CronJob's name leaves room for the 11 characters its jobs append.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, notSupported, required } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';
import { cronScheduleError, timeZoneError } from '../validation/cron.js';
import { goLabelSelector, invalidRendered } from '../validation/go-values.js';
import { validateJobSpec } from '../validation/job-spec.js';
import { nonNegative } from '../validation/numbers.js';
import { asObj, str } from '../validation/field-checks.js';
import { generationChanged, jobSpecWarnings, nameWarnings } from './workload-warnings.js';

type Obj = Record<string, any>;


/** DNS1035LabelMaxLength less the "-<timestamp>" suffix of the jobs. */
const MAX_NAME_LENGTH = 63 - 11;
const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];

function validateSchedule(schedule: string, timeZone: unknown, allowTZ: boolean): StatusCause[] {
  const path = 'spec.schedule';
  const causes: StatusCause[] = [];
  const err = cronScheduleError(schedule);
  if (err) causes.push(invalidValue(path, schedule, err));
  if (allowTZ && schedule.includes('TZ') && timeZone !== undefined && timeZone !== null) {
    causes.push(invalidValue(path, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZ && schedule.includes('TZ')) {
    causes.push(invalidValue(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return causes;
}

function validateJobTemplate(jobTemplate: Obj | undefined): StatusCause[] {
  const path = 'spec.jobTemplate.spec';
  const spec = asObj(jobTemplate?.spec) ?? {};
  const causes = validateJobSpec(spec, path);
  if (spec.selector !== undefined && spec.selector !== null) {
    causes.push(invalidRendered(`${path}.selector`, goLabelSelector(spec.selector), '`selector` will be auto-generated'));
  }
  if (spec.manualSelector === true) causes.push(notSupported(`${path}.manualSelector`, true, ['nil', 'false']));
  return causes;
}

/** Upstream's validateCronJobSpec; `old` on updates. */
export function validateCronJobSpec(obj: KubeObject, old?: KubeObject): StatusCause[] {
  const spec = asObj(obj.spec) ?? {};
  const oldSpec = old ? asObj(old.spec) ?? {} : undefined;
  const causes: StatusCause[] = [];
  // an empty or missing schedule is the schema check's "Required value"
  if (typeof spec.schedule === 'string' && spec.schedule !== '') {
    const allowTZ = typeof oldSpec?.schedule === 'string' && oldSpec.schedule.includes('TZ');
    causes.push(...validateSchedule(spec.schedule, spec.timeZone, allowTZ));
  }
  causes.push(...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if ((!oldSpec || (oldSpec.timeZone ?? null) !== (spec.timeZone ?? null)) && typeof spec.timeZone === 'string') {
    const err = timeZoneError(spec.timeZone);
    if (err) causes.push(invalidValue('spec.timeZone', spec.timeZone, err));
  }
  const policy = spec.concurrencyPolicy ?? '';
  if (policy === '') causes.push(required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY_POLICIES.includes(policy)) causes.push(notSupported('spec.concurrencyPolicy', policy, CONCURRENCY_POLICIES));
  causes.push(
    ...validateJobTemplate(asObj(spec.jobTemplate)),
    ...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'),
    ...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'),
  );
  return causes;
}

function validateCronJobCreate(obj: KubeObject): StatusCause[] {
  const causes = validateCronJobSpec(obj);
  const name = obj.metadata?.name ?? '';
  if (name.length > MAX_NAME_LENGTH) causes.push(invalidValue('metadata.name', name, `must be no more than ${MAX_NAME_LENGTH} characters`));
  return causes;
}

const JOB_SPEC = 'spec.jobTemplate.spec';
const jobTemplateSpec = (obj: KubeObject): unknown => asObj(obj.spec?.jobTemplate)?.spec;

export const cronJobStrategy: Strategy = {
  validate: validateCronJobCreate,
  validateUpdate: (obj, old) => validateCronJobSpec(obj, old),
  // the name's length is checked on creates only: older CronJobs with longer names can still be updated
  updateValidationIsComplete: true,
  warningsOnCreate: (obj) => [...nameWarnings(obj, 'workload'), ...jobSpecWarnings(jobTemplateSpec(obj), JOB_SPEC)],
  warningsOnUpdate: (obj, old) => [
    ...(generationChanged(obj, old) ? jobSpecWarnings(jobTemplateSpec(obj), JOB_SPEC) : []),
    // a schedule kept from before TZ was refused (upstream's field path, "spec.spec.schedule", as it is)
    ...(str(obj.spec?.schedule).includes('TZ')
      ? ['cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details']
      : []),
  ],
};
