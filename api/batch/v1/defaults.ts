// batch/v1 computed defaults (upstream pkg/apis/batch/v1/defaults.go).
import type { Defaulter } from '../../types.js';
import { B } from './job.js';

const MAX_INT32 = 2147483647;

const job: Defaulter = (o) => {
  const spec = (o.spec ??= {});
  if (spec.completions == null && spec.parallelism == null) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex != null ? MAX_INT32 : 6;
  const templateLabels = spec.template?.metadata?.labels;
  const meta = (o.metadata ??= {});
  if (templateLabels && Object.keys(meta.labels ?? {}).length === 0) meta.labels = { ...templateLabels };
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) pattern.status ||= 'True';
  }
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
};

const cronJob: Defaulter = (o) => {
  const spec = (o.spec ??= {});
  spec.concurrencyPolicy ||= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
};

export const defaulters: Record<string, Defaulter> = { [`${B}Job`]: job, [`${B}CronJob`]: cronJob };
