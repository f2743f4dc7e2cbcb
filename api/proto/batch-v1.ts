// Protobuf field numbers of batch/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const batchV1: ProtoFields = {
  'io.k8s.api.batch.v1.CronJob': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.batch.v1.CronJobList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.batch.v1.CronJobSpec': {
    1: 'schedule*', 2: 'startingDeadlineSeconds*', 3: 'concurrencyPolicy', 4: 'suspend*', 5: 'jobTemplate',
    6: 'successfulJobsHistoryLimit*', 7: 'failedJobsHistoryLimit*', 8: 'timeZone*',
  },
  'io.k8s.api.batch.v1.CronJobStatus': { 1: 'active', 4: 'lastScheduleTime', 5: 'lastSuccessfulTime' },
  'io.k8s.api.batch.v1.Job': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.batch.v1.JobCondition': {
    1: 'type*', 2: 'status*', 3: 'lastProbeTime', 4: 'lastTransitionTime', 5: 'reason', 6: 'message',
  },
  'io.k8s.api.batch.v1.JobList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.batch.v1.JobSpec': {
    1: 'parallelism*', 2: 'completions*', 3: 'activeDeadlineSeconds*', 4: 'selector', 5: 'manualSelector*',
    6: 'template', 7: 'backoffLimit*', 8: 'ttlSecondsAfterFinished*', 9: 'completionMode*', 10: 'suspend*',
    11: 'podFailurePolicy', 12: 'backoffLimitPerIndex*', 13: 'maxFailedIndexes*', 14: 'podReplacementPolicy*',
    15: 'managedBy*', 16: 'successPolicy',
  },
  'io.k8s.api.batch.v1.JobStatus': {
    1: 'conditions', 2: 'startTime', 3: 'completionTime', 4: 'active', 5: 'succeeded', 6: 'failed',
    7: 'completedIndexes', 8: 'uncountedTerminatedPods', 9: 'ready*', 10: 'failedIndexes*', 11: 'terminating*',
  },
  'io.k8s.api.batch.v1.JobTemplateSpec': { 1: 'metadata', 2: 'spec' },
  'io.k8s.api.batch.v1.PodFailurePolicy': { 1: 'rules' },
  'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement': { 1: 'containerName*', 2: 'operator*', 3: 'values' },
  'io.k8s.api.batch.v1.PodFailurePolicyOnPodConditionsPattern': { 1: 'type*', 2: 'status*' },
  'io.k8s.api.batch.v1.PodFailurePolicyRule': { 1: 'action*', 2: 'onExitCodes', 3: 'onPodConditions' },
  'io.k8s.api.batch.v1.SuccessPolicy': { 1: 'rules' },
  'io.k8s.api.batch.v1.SuccessPolicyRule': { 1: 'succeededIndexes*', 2: 'succeededCount*' },
  'io.k8s.api.batch.v1.UncountedTerminatedPods': { 1: 'succeeded', 2: 'failed' },
};
