// CronJob and the job template it stamps out.
import { arr, bool, enumStr, int32, int64, kind, listKind, obj, ref, str, type Definitions } from '../../schema.js';
import { B, gvk } from './job.js';

const time = (description: string) => ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time', description);

export const cronJobDefinitions: Definitions = {
  [`${B}CronJob`]: kind(gvk('CronJob'), {
    spec: ref(`${B}CronJobSpec`, 'Desired behavior of the CronJob.'),
    status: ref(`${B}CronJobStatus`, 'Most recently observed status of the CronJob.'),
  }, 'A job run on a schedule.'),
  [`${B}CronJobList`]: listKind(gvk('CronJobList'), `${B}CronJob`),
  [`${B}CronJobSpec`]: obj({
    concurrencyPolicy: enumStr(['Allow', 'Forbid', 'Replace'], 'How concurrent runs are treated (default Allow).'),
    failedJobsHistoryLimit: int32('Failed jobs to keep (default 1).'),
    jobTemplate: ref(`${B}JobTemplateSpec`, 'The job to create at each run.'),
    schedule: str('Cron schedule.', { default: '' }),
    startingDeadlineSeconds: int64('Seconds after a missed start time that the run may still start.'),
    successfulJobsHistoryLimit: int32('Successful jobs to keep (default 3).'),
    suspend: bool('Whether later runs are suspended.'),
    timeZone: str('IANA time zone of the schedule.'),
  }, 'Desired state of a CronJob.', { required: ['schedule', 'jobTemplate'] }),
  [`${B}JobTemplateSpec`]: obj({
    metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'Metadata of the jobs created.'),
    spec: ref(`${B}JobSpec`, 'Spec of the jobs created.'),
  }, 'Template of the jobs a CronJob creates.'),
  [`${B}CronJobStatus`]: obj({
    active: arr(ref('io.k8s.api.core.v1.ObjectReference'), 'Jobs currently running.'),
    lastScheduleTime: time('When a job was last scheduled.'),
    lastSuccessfulTime: time('When a job last completed successfully.'),
  }, 'Observed state of a CronJob.'),
};
