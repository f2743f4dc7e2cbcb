// A Job's /status refuses what upstream 1.32's status strategy refuses (JobManagedBy on): negative counters, a
// terminal condition taken back, a failed counter going down, a finished job without a start time, a complete one
// without a completion time, index strings that do not parse or overlap. An external controller (spec.managedBy)
// writes the status here, as it would against a real cluster; the job controller is not running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', controllers: [] }); });
afterAll(async () => { await s?.close(); });

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const T0 = '2026-12-04T16:00:00Z';
const T1 = '2026-12-04T16:05:00Z';
const cond = (type: string) => ({ type, status: 'True', lastProbeTime: T1, lastTransitionTime: T1 });

async function job(name: string, spec: Record<string, unknown> = {}): Promise<void> {
  const res = await s.api('POST', JOBS, {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name },
    spec: { managedBy: 'example.com/runner', ...spec, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  });
  expect(res.status).toBe(201);
}

/** Merge-patches the status; the Status's causes on a refusal. */
async function patchStatus(name: string, status: Record<string, unknown>): Promise<{ code: number; causes: string[]; message: string }> {
  const res = await s.api('PATCH', `${JOBS}/${name}/status`, { status }, { 'content-type': 'application/merge-patch+json' });
  const body = res.body as { message?: string; details?: { causes?: { field: string; message: string }[] } };
  return { code: res.status, message: body.message ?? '', causes: (body.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`) };
}

describe('a Job status update', () => {
  it('refuses negative counters and bad uncounted pod uids', async () => {
    await job('counters');
    const res = await patchStatus('counters', { active: -1, ready: -2, uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] } });
    expect(res.code).toBe(422);
    expect(res.causes).toEqual([
      'status.active: Invalid value: -1: must be greater than or equal to 0',
      'status.ready: Invalid value: -2: must be greater than or equal to 0',
      'status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty',
      'status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"',
    ]);
    expect(res.message).toMatch(/^Job.batch "counters" is invalid: \[status.active: Invalid value: -1/);
  });

  it('keeps a finished job finished: its start time, its terminal condition and its failed count', async () => {
    await job('finishing');
    // finished without a start time, with pods still active
    expect((await patchStatus('finishing', { active: 1, failed: 2, conditions: [cond('FailureTarget'), cond('Failed')] })).causes).toEqual([
      'status.active: Invalid value: 1: active>0 is invalid for finished job',
      'status.startTime: Required value: startTime is required for finished job',
    ]);
    expect((await patchStatus('finishing', { startTime: T0, failed: 2, conditions: [cond('FailureTarget'), cond('Failed')] })).code).toBe(200);
    // as the job controller would have to start it again
    expect((await patchStatus('finishing', { failed: 1, conditions: null })).causes).toEqual([
      'status.conditions: Invalid value: cannot disable the terminal Failed=True condition',
      'status.conditions: Invalid value: cannot disable the terminal FailureTarget=True condition',
      'status.failed: Invalid value: 1: cannot decrease the failed counter',
    ]);
    expect((await patchStatus('finishing', { startTime: null })).causes).toEqual([
      'status.startTime: Required value: startTime is required for finished job',
      'status.startTime: Required value: startTime cannot be removed for unsuspended job',
    ]);
    // an update of what is unrelated goes through
    expect((await patchStatus('finishing', { failed: 3 })).code).toBe(200);
  });

  it('asks a complete job for its completion time, no later than its start, and never changed', async () => {
    await job('completing');
    expect((await patchStatus('completing', { startTime: T1, succeeded: 1, conditions: [cond('SuccessCriteriaMet'), cond('Complete')] })).causes).toEqual([
      'status.completionTime: Required value: completionTime is required for Complete jobs',
    ]);
    expect((await patchStatus('completing', { startTime: T1, completionTime: T0, succeeded: 1 })).causes).toEqual([
      'status.completionTime: Invalid value: 2026-12-04 16:00:00 +0000 UTC: cannot set completionTime when there is no Complete=True condition',
      'status.completionTime: Invalid value: 2026-12-04 16:00:00 +0000 UTC: completionTime cannot be set before startTime',
    ]);
    expect((await patchStatus('completing', { startTime: T0, completionTime: T1, succeeded: 1, conditions: [cond('SuccessCriteriaMet'), cond('Complete')] })).code).toBe(200);
    expect((await patchStatus('completing', { completionTime: '2026-12-04T16:06:00Z', succeeded: 0 })).causes).toEqual([
      'status.succeeded: Invalid value: 0: cannot decrease the succeeded counter',
      'status.completionTime: Invalid value: 2026-12-04 16:06:00 +0000 UTC: completionTime cannot be mutated',
    ]);
  });

  it('checks the index strings against the job', async () => {
    await job('plain');
    expect((await patchStatus('plain', { completedIndexes: '0', failedIndexes: '' })).causes).toEqual([
      'status.completedIndexes: Invalid value: "0": cannot set non-empty completedIndexes when non-indexed completion mode',
      'status.failedIndexes: Invalid value: "": cannot set non-null failedIndexes when backoffLimitPerIndex is null',
    ]);
    await job('indexed', { completionMode: 'Indexed', completions: 5, parallelism: 2, backoffLimitPerIndex: 1 });
    expect((await patchStatus('indexed', { completedIndexes: '1,3-2', failedIndexes: '7' })).causes).toEqual([
      'status.completedIndexes: Invalid value: "1,3-2": error parsing completedIndexes: non-increasing order, previous: 3, current: 2',
      'status.failedIndexes: Invalid value: "7": error parsing failedIndexes: too large index: "7"',
    ]);
    expect((await patchStatus('indexed', { completedIndexes: '0,2-3', failedIndexes: '1,3' })).causes).toEqual([
      'status.failedIndexes: Invalid value: "1,3": failedIndexes and completedIndexes overlap at index: 3',
    ]);
    expect((await patchStatus('indexed', { completedIndexes: '0,2-3', failedIndexes: '1,4' })).code).toBe(200);
  });
});
