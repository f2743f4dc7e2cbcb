// Jobs and CronJobs around the pod spec, each rule with upstream's path and message.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { testContext } from '../generic/testing.js';
import { indexesFormat } from '../validation/job-indexes.js';
import { validateJobSpec } from '../validation/job-spec.js';
import { cronJobStrategy } from './cronjobs.js';
import { jobStrategy } from './jobs.js';

const msgs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const ctx = testContext();
const podTemplate = (podSpec: Record<string, unknown> = {}) => ({ spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }], ...podSpec } });
const spec = (s: Record<string, unknown> = {}) => ({ completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', template: podTemplate(), ...s });

/** A Job as the strategy makes it on create: selector and labels generated. */
const createdJob = (s: Record<string, unknown> = {}, name = 'j'): KubeObject => {
  const job: KubeObject = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: 'd', uid: 'u-1' }, spec: spec(s) };
  jobStrategy.prepareForCreate!(job, ctx);
  return job;
};

describe('job spec', () => {
  const check = (s: Record<string, unknown>): string[] => msgs(validateJobSpec(spec(s), 'spec'));
  it('takes a defaulted spec', () => expect(check({})).toEqual([]));

  it('refuses negative counts', () => {
    expect(check({ parallelism: -1, completions: -1, activeDeadlineSeconds: -1, backoffLimit: -1, ttlSecondsAfterFinished: -1 })).toEqual([
      'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
      'spec.completions: Invalid value: -1: must be greater than or equal to 0',
      'spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('checks the completion mode and per-index backoff', () => {
    expect(check({ completionMode: 'Sometimes' })).toEqual(['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']);
    expect(check({ completionMode: 'Indexed', completions: undefined })).toEqual(['spec.completions: Required value: when completion mode is Indexed']);
    expect(check({ completionMode: 'Indexed', completions: 3, backoffLimitPerIndex: 1, maxFailedIndexes: 4 }))
      .toEqual(['spec.maxFailedIndexes: Invalid value: 4: must be less than or equal to completions']);
    expect(check({ maxFailedIndexes: 1 })).toEqual([
      'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified',
      'spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode',
    ]);
    expect(check({ completionMode: 'Indexed', completions: 200000, parallelism: 200000 }))
      .toEqual(['spec.parallelism: Invalid value: 200000: must be less than or equal to 100000 when completion mode is Indexed']);
  });

  it('checks the restart policy', () => {
    expect(check({ template: podTemplate({ restartPolicy: 'Always' }) })).toEqual(['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
    expect(check({ template: podTemplate({ restartPolicy: 'Sometimes' }) })).toEqual(['spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"']);
  });

  it('checks the pod failure policy', () => {
    const rules = (...r: unknown[]) => ({ podFailurePolicy: { rules: r }, podReplacementPolicy: 'Failed' });
    expect(check(rules({ action: 'FailJob', onExitCodes: { containerName: 'c', operator: 'In', values: [1, 2] } }, { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }))).toEqual([]);
    expect(check(rules({ action: 'Explode', onExitCodes: { containerName: 'x', operator: 'Maybe', values: [3, 3, 1] } }))).toEqual([
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Explode": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "Maybe": supported values: "In", "NotIn"',
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "x": must be one of the container or initContainer names in the pod template',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{3, 3, 1}: must be ordered',
    ]);
    expect(check(rules({ action: 'FailIndex', onPodConditions: [{ type: 'a b' }] }, { action: 'Count' }))).toEqual([
      'spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
      expect.stringMatching(/^spec\.podFailurePolicy\.rules\[0\]\.onPodConditions\[0\]\.type: Invalid value: "a b": name part must consist of/),
      'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value: valid values: ["False" "True" "Unknown"]',
      'spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
    ]);
    expect(check({ ...rules({ action: 'Ignore', onExitCodes: { operator: 'In', values: [] }, onPodConditions: [{ type: 'X', status: 'True' }] }), podReplacementPolicy: 'TerminatingOrFailed' })).toEqual([
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{}: at least one value is required',
      'spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
      'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
    ]);
    expect(check({ ...rules({ action: 'Ignore', onExitCodes: { operator: 'NotIn', values: [0] } }), template: podTemplate({ restartPolicy: 'OnFailure' }) }))
      .toEqual(['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified']);
  });

  it('checks the success policy', () => {
    expect(check({ successPolicy: { rules: [{ succeededCount: 1 }] } }))
      .toEqual(['spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{batch.SuccessPolicyRule{SucceededIndexes:(*string)(nil), SucceededCount:(*int32)(0xc000010000)}}}: requires indexed completion mode']);
    const indexed = (rules: unknown[]) => check({ completionMode: 'Indexed', completions: 5, successPolicy: { rules } });
    expect(indexed([{ succeededIndexes: '0-2,4', succeededCount: 4 }])).toEqual([]);
    expect(indexed([{}, { succeededIndexes: '3-1', succeededCount: 9 }])).toEqual([
      'spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified',
      'spec.successPolicy.rules[1].succeededIndexes: Invalid value: "3-1": error parsing succeededIndexes: non-increasing order, previous: 3, current: 1',
      'spec.successPolicy.rules[1].succeededCount: Invalid value: 9: must be less than or equal to 5 (the number of specified completions)',
      'spec.successPolicy.rules[1].succeededCount: Invalid value: 9: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)',
    ]);
    expect(indexesFormat('1,2-3,9', 5)).toEqual({ total: 0, error: 'too large index: "9"' });
    expect(indexesFormat('a', 5)).toEqual({ total: 0, error: 'cannot convert string to integer for index: "a"' });
  });

  it('checks managedBy', () => {
    expect(check({ managedBy: 'example.com/controller' })).toEqual([]);
    expect(check({ managedBy: 'controller' })).toEqual(['spec.managedBy: Invalid value: "controller": must be a domain-prefixed path (such as "acme.io/foo")']);
  });
});

describe('Job strategy', () => {
  it('takes a created Job and refuses a selector that is not the generated one', () => {
    expect(jobStrategy.validate!(createdJob(), ctx)).toEqual([]);
    const job = createdJob();
    job.spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': 'other' } };
    expect(msgs(jobStrategy.validate!(job, ctx))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"batch.kubernetes.io/controller-uid":"other"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated',
      expect.stringMatching(/^spec\.template\.metadata\.labels: Invalid value: map\[string\]string\{.*\}: `selector` does not match template `labels`$/),
    ]);
  });

  it('labels the template of a Job without a name with an empty name (its missing name is reported elsewhere)', () => {
    const job: KubeObject = { apiVersion: 'batch/v1', kind: 'Job', metadata: { namespace: 'd', uid: 'u-1' }, spec: spec() };
    jobStrategy.prepareForCreate!(job, ctx);
    expect(job.spec.template.metadata.labels).toMatchObject({ 'batch.kubernetes.io/job-name': '', 'job-name': '' });
    expect(jobStrategy.validate!(job, ctx)).toEqual([]);
  });

  it('requires a selector when manual, and a name fit for the last index\'s hostname', () => {
    const manual: KubeObject = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'm', namespace: 'd', uid: 'u' }, spec: spec({ manualSelector: true }) };
    expect(msgs(jobStrategy.validate!(manual, ctx))).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
    ]);
    const name = 'n'.repeat(62);
    expect(msgs(jobStrategy.validate!(createdJob({ completionMode: 'Indexed', completions: 10 }, name), ctx)))
      .toEqual([`metadata.name: Invalid value: "${name}": will not able to create pod with invalid DNS label: ${name}-9`]);
  });

  it('keeps the immutable fields on updates', () => {
    const old = createdJob();
    const next = structuredClone(old);
    next.spec.suspend = true;
    next.spec.parallelism = 4;
    expect(jobStrategy.validateUpdate!(next, old, ctx)).toEqual([]);
    next.spec.completions = 2;
    next.spec.completionMode = 'Indexed';
    next.spec.template.spec.containers[0].image = 'j';
    expect(msgs(jobStrategy.validateUpdate!(next, old, ctx))).toEqual([
      'spec.completions: Invalid value: 2: can only be modified in tandem with spec.parallelism',
      expect.stringMatching(/^spec\.template: Invalid value: .*: field is immutable$/),
      'spec.completionMode: Invalid value: "Indexed": field is immutable',
    ]);
    const plain = structuredClone(old);
    plain.spec.completions = 3;
    expect(msgs(jobStrategy.validateUpdate!(plain, old, ctx))).toEqual(['spec.completions: Invalid value: 3: field is immutable']);
  });

  it('lets a suspended Job that never started change its scheduling directives', () => {
    const old = createdJob({ suspend: true });
    const next = structuredClone(old);
    next.spec.template.spec.nodeSelector = { disk: 'ssd' };
    next.spec.template.spec.tolerations = [{ key: 'k', operator: 'Exists' }];
    next.spec.template.metadata.annotations = { a: 'b' };
    expect(jobStrategy.validateUpdate!(next, old, ctx)).toEqual([]);
    expect(msgs(jobStrategy.validateUpdate!(next, createdJob({ suspend: false }), ctx))).toEqual([expect.stringMatching(/^spec\.template: .*field is immutable$/)]);
  });
});

describe('CronJob strategy', () => {
  const cron = (s: Record<string, unknown> = {}, name = 'cj'): KubeObject => ({
    apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, namespace: 'd' },
    spec: { schedule: '*/5 * * * *', concurrencyPolicy: 'Allow', successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { spec: { template: podTemplate() } }, ...s },
  });
  it('takes a defaulted CronJob', () => expect(cronJobStrategy.validate!(cron(), ctx)).toEqual([]));

  it('checks the schedule, time zone, policy, limits and job template', () => {
    expect(msgs(cronJobStrategy.validate!(cron({
      schedule: 'CRON_TZ=UTC 0 0 * * *', timeZone: 'Nowhere', concurrencyPolicy: 'Never', startingDeadlineSeconds: -1,
      successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -2,
      jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, manualSelector: true, template: podTemplate({ restartPolicy: 'Always' }) } },
    }), ctx))).toEqual([
      'spec.schedule: Invalid value: "CRON_TZ=UTC 0 0 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.timeZone: Invalid value: "Nowhere": unknown time zone Nowhere',
      'spec.concurrencyPolicy: Unsupported value: "Never": supported values: "Allow", "Forbid", "Replace"',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
      'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.failedJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
    ]);
    expect(msgs(cronJobStrategy.validate!(cron({ schedule: '0 0 32 * *' }), ctx))).toEqual(['spec.schedule: Invalid value: "0 0 32 * *": end of range (32) above maximum (31): 32']);
  });

  it('limits new names to 52 characters, not old ones; keeps TZ= on objects that had it', () => {
    const long = 'c'.repeat(53);
    expect(msgs(cronJobStrategy.validate!(cron({}, long), ctx))).toEqual([`metadata.name: Invalid value: "${long}": must be no more than 52 characters`]);
    const old = cron({ schedule: 'TZ=UTC 0 0 * * *' }, long);
    expect(cronJobStrategy.validateUpdate!(cron({ schedule: 'TZ=UTC 0 1 * * *' }, long), old, ctx)).toEqual([]);
    expect(msgs(cronJobStrategy.validateUpdate!(cron({ schedule: 'TZ=UTC 0 1 * * *', timeZone: 'UTC' }, long), old, ctx)))
      .toEqual(['spec.schedule: Invalid value: "TZ=UTC 0 1 * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule']);
  });
});
