import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

const { definitions, defaulters } = groupVersion;
const run = (kind: string, obj: Record<string, any>) => {
  defaulters![`io.k8s.api.batch.v1.${kind}`](obj);
  return obj;
};

describe('batch/v1', () => {
  it('references only known definitions (core aside)', () => {
    const outside = danglingRefs(definitions, { ...meta, ...definitions }).filter((r) => !r.includes('-> io.k8s.api.core.v1.'));
    expect(outside).toEqual([]);
  });

  it('defaults a plain Job like upstream and copies template labels', () => {
    const job = run('Job', { metadata: { name: 'j' }, spec: { template: { metadata: { labels: { app: 'x' } } } } });
    expect(job.metadata.labels).toEqual({ app: 'x' });
    const { template: _, ...spec } = job.spec;
    expect(spec).toEqual({
      completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
    });
  });

  it('leaves completions unset when only parallelism is given, and follows the failure policies', () => {
    const spec = run('Job', {
      spec: { parallelism: 3, backoffLimitPerIndex: 1, podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } },
    }).spec;
    expect(spec.completions).toBeUndefined();
    expect(spec.backoffLimit).toBe(2147483647);
    expect(spec.podReplacementPolicy).toBe('Failed');
    expect(spec.podFailurePolicy.rules[0].onPodConditions[0].status).toBe('True');
  });

  it('defaults a CronJob like upstream', () => {
    expect(run('CronJob', { spec: { schedule: '* * * * *' } }).spec).toEqual({
      schedule: '* * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1,
    });
  });

  it('serves cronjobs as cj in category all', () => {
    const cj = groupVersion.resources.find((r) => r.plural === 'cronjobs')!;
    expect([cj.shortNames, cj.categories, cj.subresources?.[0].name]).toEqual([['cj'], ['all'], 'status']);
  });
});
