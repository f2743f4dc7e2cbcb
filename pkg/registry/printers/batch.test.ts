// Expectations from upstream's TestPrintJob and TestPrintCronJob.
import { describe, expect, it } from 'vitest';
import { cronJobPrinter, jobPrinter } from './batch.js';
import { NOW, ago, obj } from './testing.js';

const template = { spec: { containers: [{ name: 'fake-job-container1', image: 'fake-job-image1' }] } };

describe('jobs', () => {
  const job = (spec: Record<string, unknown>, status: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) =>
    jobPrinter.cells(obj('job1', { spec: { template, ...spec }, status, metadata }, 0), NOW);

  it('prints a running job with completions and selector', () => {
    expect(job({ completions: 2, selector: { matchLabels: { 'job-label': 'job-label-value' } } }, { succeeded: 1 })).toEqual([
      'job1',
      'Running',
      '1/2',
      '',
      '0s',
      'fake-job-container1',
      'fake-job-image1',
      'job-label=job-label-value',
    ]);
  });

  it('prints COMPLETIONS for unset completions with and without parallelism', () => {
    expect(job({}, { succeeded: 0 })[2]).toBe('0/1');
    expect(job({ parallelism: 2 }, { succeeded: 0 })[2]).toBe('0/1 of 2');
    expect(job({ parallelism: 1 }, { succeeded: 1 })[2]).toBe('1/1');
  });

  it('prints DURATION from start to completion, or to now while running', () => {
    expect(job({ completions: 2 }, { startTime: ago(600), completionTime: ago(300), succeeded: 2 })[3]).toBe('5m');
    expect(job({ completions: 2 }, { startTime: ago(130) })[3]).toBe('2m10s');
  });

  it('prints STATUS from the conditions, deletion in between', () => {
    const status = (conditions: unknown[], metadata: Record<string, unknown> = {}) => job({}, { conditions }, metadata)[1];
    expect(status([{ type: 'Complete', status: 'True' }])).toBe('Complete');
    expect(status([{ type: 'Failed', status: 'True' }])).toBe('Failed');
    expect(status([{ type: 'Suspended', status: 'True' }])).toBe('Suspended');
    expect(status([{ type: 'Suspended', status: 'True' }], { deletionTimestamp: ago(1) })).toBe('Terminating');
    expect(status([{ type: 'Failed', status: 'True' }], { deletionTimestamp: ago(1) })).toBe('Failed');
    expect(status([{ type: 'FailureTarget', status: 'True' }])).toBe('FailureTarget');
    expect(status([{ type: 'Suspended', status: 'False' }])).toBe('Running');
  });

  it('has the 1.32 columns', () => {
    expect(jobPrinter.columns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Status:0',
      'Completions:0',
      'Duration:0',
      'Age:0',
      'Containers:1',
      'Images:1',
      'Selector:1',
    ]);
  });
});

describe('cron jobs', () => {
  const cronJob = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
    obj(
      'cronjob1',
      {
        spec: {
          schedule: '0/5 * * * ?',
          jobTemplate: { spec: { template, selector: { matchLabels: { a: 'b' } } } },
          ...spec,
        },
        status,
      },
      0,
    );

  it('prints schedule, time zone, suspend, active and last schedule', () => {
    expect(cronJobPrinter.cells(cronJob({ suspend: false }, { lastScheduleTime: ago(30), active: [{}, {}] }), NOW)).toEqual([
      'cronjob1',
      '0/5 * * * ?',
      '<none>',
      'False',
      2,
      '30s',
      '0s',
      'fake-job-container1',
      'fake-job-image1',
      'a=b',
    ]);
  });

  it('prints <unset> suspend, <none> last schedule and the time zone when set', () => {
    const cells = cronJobPrinter.cells(cronJob({ timeZone: 'Europe/Paris' }), NOW);
    expect(cells.slice(2, 6)).toEqual(['Europe/Paris', '<unset>', 0, '<none>']);
    expect(cronJobPrinter.cells(cronJob({ suspend: true }), NOW)[3]).toBe('True');
  });

  it('has the upstream column types', () => {
    expect(cronJobPrinter.columns.map((c) => `${c.name}:${c.type}:${c.priority}`)).toEqual([
      'Name:string:0',
      'Schedule:string:0',
      'Timezone:string:0',
      'Suspend:boolean:0',
      'Active:integer:0',
      'Last Schedule:string:0',
      'Age:string:0',
      'Containers:string:1',
      'Images:string:1',
      'Selector:string:1',
    ]);
  });
});
