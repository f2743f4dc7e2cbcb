// An out-of-tree plugin through the registry and the configuration: a Permit plugin holds pods labelled
// hold=true (Wait) until something allows them through the framework handle, or rejects them after its timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../pkg/client/index.js';
import { Code, type Handle, type PermitPlugin } from '../../pkg/scheduler/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { adminClient, createNode, eventsFor, eventually, podObject, startScheduler, waitBound, type RunningScheduler } from './scheduler-support.js';

let api: TestApiServer;
let client: Client;
let sched: RunningScheduler;
let handle: Handle;

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
  }, () => 0.5, { Hold: hold });
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
  });

  it('rejects a held pod when the wait times out, then retries it', async () => {
    await client.pods('default').create(podObject('timeout', { labels: { hold: 'true' } }));
    const ev = await eventually(async () => (await eventsFor(client, 'timeout')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toBe('rejected due to timeout after waiting 1.5s at plugin Hold');
    await client.pods('default').create(podObject('free'));
    expect(await waitBound(client, 'free')).toBe('w1');
  });
});
