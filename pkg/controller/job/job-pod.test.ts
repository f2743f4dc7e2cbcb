import { describe, expect, it } from 'vitest';
import { jobPod, podGenerateNameWithIndex } from './job-pod.js';

const job = (name: string) => ({
  apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: 'ns', uid: 'u1' },
  spec: { completionMode: 'Indexed', template: { spec: { hostname: 'mine', containers: [{ name: 'c', image: 'busybox' }] } } },
});

describe('the pods of an Indexed Job', () => {
  it('keep `-<index>-` in a long job name\'s generateName, within the 58 characters of a generated prefix', () => {
    const long = 'a'.repeat(60);
    const g = podGenerateNameWithIndex(long, 12);
    expect(g).toBe(`${'a'.repeat(54)}-12-`);
    expect(g).toHaveLength(58);
    expect(podGenerateNameWithIndex('short', 3)).toBe('short-3-');
    expect(podGenerateNameWithIndex('a'.repeat(55), 0)).toBe(`${'a'.repeat(55)}-0-`);
    expect(jobPod(job(long), 7).metadata!.generateName).toBe(`${'a'.repeat(55)}-7-`);
  });

  it('are named `<job>-<index>` as hosts, whatever hostname the template gives', () => {
    const p = jobPod(job('work'), 2);
    expect(p.spec.hostname).toBe('work-2');
    expect(p.metadata!.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
  });
});
