// Jobs (STATUS COMPLETIONS DURATION AGE) and cron jobs (SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE).
import type { KubeObject } from '../../../api/types.js';
import { ageColumn, column, containerColumns, nameColumn, type Printer, selectorColumn } from './types.js';
import { age, humanDuration, parseTime, since } from './duration.js';
import { boolPtr, formatLabelSelector, templateContainerCells } from './format.js';

/** True when the first condition of that type has status True. */
const hasCondition = (job: KubeObject, type: string): boolean =>
  (job.status?.conditions ?? []).find((c: { type: string }) => c.type === type)?.status === 'True';

export function jobStatus(job: KubeObject): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

export function jobCompletions(job: KubeObject): string {
  const succeeded = job.status?.succeeded ?? 0;
  const completions = job.spec?.completions;
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** From start to completion, or to now while the job runs; "" before it starts. */
export function jobDuration(job: KubeObject, now: Date): string {
  const start = parseTime(job.status?.startTime);
  if (start === undefined) return '';
  const end = parseTime(job.status?.completionTime);
  return end === undefined ? since(job.status.startTime, now) : humanDuration(end - start);
}

export const jobPrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'The status of the job.'),
    column('Completions', 'Succeeded pods out of the completions asked for.'),
    column('Duration', 'How long the job took to complete (or has been running).'),
    ageColumn,
    ...containerColumns,
    selectorColumn,
  ],
  cells: (job, now) => [
    job.metadata?.name ?? '',
    jobStatus(job),
    jobCompletions(job),
    jobDuration(job, now),
    age(job, now),
    ...templateContainerCells(job.spec),
    formatLabelSelector(job.spec?.selector),
  ],
};

export const cronJobPrinter: Printer = {
  columns: [
    nameColumn,
    column('Schedule', 'The cron schedule of the job.'),
    column('Timezone', 'The time zone the schedule is read in.'),
    column('Suspend', 'Whether new runs are suspended.', 'boolean'),
    column('Active', 'How many jobs are running.', 'integer'),
    column('Last Schedule', 'How long ago a job was last scheduled.'),
    ageColumn,
    ...containerColumns,
    selectorColumn,
  ],
  cells(cj, now) {
    const jobSpec = cj.spec?.jobTemplate?.spec;
    return [
      cj.metadata?.name ?? '',
      cj.spec?.schedule ?? '',
      cj.spec?.timeZone ?? '<none>',
      boolPtr(cj.spec?.suspend),
      (cj.status?.active ?? []).length,
      cj.status?.lastScheduleTime ? since(cj.status.lastScheduleTime, now) : '<none>',
      age(cj, now),
      ...templateContainerCells(jobSpec),
      formatLabelSelector(jobSpec?.selector),
    ];
  },
};
