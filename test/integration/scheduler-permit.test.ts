// An out-of-tree plugin through the registry and the configuration: a Permit plugin holds pods labelled
// hold=true (Wait) until something allows them through the framework handle, or rejects them after its timeout;
// the waits and the Permit extension point show in the scheduler's series.
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../pkg/client/index.js';
import { Code, type Handle, type PermitPlugin } from '../../pkg/scheduler/index.js';
import { registerSchedulerMetrics } from '../../pkg/scheduler/metrics.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { adminClient, createNode, eventsFor, eventually, podObject, startScheduler, waitBound, type RunningScheduler } from './scheduler-support.js';

let api: TestApiServer;
let client: Client;
let sched: RunningScheduler;
let handle: Handle;
const registry = new Registry();
/** The value of one series line of the scheduler's /metrics text, or undefined. */
const sample = async (series: string): Promise<number | undefined> => {
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

beforeAll(async () => {
  api = await startTestApiServer();
  client = await adminClient(api);
  await createNode(client, 'w1');
  const hold = (args: Record<string, any>, h: Handle): PermitPlugin => {
    handle = h;
    return {
      name: 'Hold',
      permit: (_s, pod) => (pod.metadata?.labels?.hold === 'true' ? { status: { code: Code.Wait, reasons: [] }, timeoutMs: args.timeoutMs as number } : { status: null }),
    };
  };
  sched = startScheduler(client, {
    profiles: [{ schedulerName: 'default-scheduler', plugins: { permit: { enabled: [{ name: 'Hold' }] } }, pluginConfig: [{ name: 'Hold', args: { timeoutMs: 1500 } }] }],
  }, () => 0.5, { Hold: hold }, registerSchedulerMetrics(registry, () => sched.scheduler.queue));
});

afterAll(async () => {
  await sched?.stop();
  await client?.close();
  await api?.close();
});

describe('permit', () => {
  it('holds a pod at Permit until the plugin allows it', async () => {
    const created = await client.pods('default').create(podObject('held', { labels: { hold: 'true' } }));
    const waiting = await eventually(async () => handle.waitingPod(created.metadata!.uid!), 10_000, 'waiting pod');
    expect(waiting.pending()).toEqual(['Hold']);
    expect((await client.pods('default').get('held')).spec?.nodeName).toBeUndefined();
    waiting.allow('Hold');
    expect(await waitBound(client, 'held')).toBe('w1');
    await eventually(() => sample('scheduler_permit_wait_duration_seconds_count{result="Success"}'), 5000, 'the wait observed');
    expect(await sample('scheduler_framework_extension_point_duration_seconds_count{extension_point="Permit",status="Wait",profile="default-scheduler"}')).toBe(1);
    expect(await sample('scheduler_pod_scheduling_sli_duration_seconds_count{attempts="1"}')).toBe(1);
  });

  it('rejects a held pod when the wait times out, then retries it', async () => {
    await client.pods('default').create(podObject('timeout', { labels: { hold: 'true' } }));
    const ev = await eventually(async () => (await eventsFor(client, 'timeout')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toBe('rejected due to timeout after waiting 1.5s at plugin Hold');
    const waited = await eventually(() => sample('scheduler_permit_wait_duration_seconds_sum{result="Unschedulable"}'), 5000, 'the timeout observed');
    // a timer fires on the event loop's millisecond clock, the wait is measured on performance.now: up to 1 ms apart
    expect(waited).toBeGreaterThanOrEqual(1.499);
    expect(await sample('scheduler_framework_extension_point_duration_seconds_count{extension_point="Unreserve",status="Success",profile="default-scheduler"}')).toBeGreaterThanOrEqual(1);
    await client.pods('default').create(podObject('free'));
    expect(await waitBound(client, 'free')).toBe('w1');
  });
});
