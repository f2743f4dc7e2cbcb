// Scheduler extenders (KubeSchedulerConfiguration `extenders`) against HTTP extenders this test serves: filter with
// FailedNodes / FailedAndUnresolvableNodes, prioritize × weight, a binder for pods of a managed resource the
// scheduler ignores (nodeCacheCapable: node names only), an ignorable extender that is down, and a failing one.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { adminClient, createNode, eventsFor, eventually, podObject, startScheduler, waitBound, type RunningScheduler } from './scheduler-support.js';

let api: TestApiServer;
let client: Client;
let sched: RunningScheduler;
let server: Server;
const calls: { path: string; body: any }[] = [];

const readBody = async (req: IncomingMessage): Promise<any> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

/** The extender: /plain/* sees full Node objects, /cached/* node names only. */
const handle = async (path: string, body: any): Promise<[number, unknown]> => {
  const pod = body.Pod as KubeObject | undefined;
  const labels = pod?.metadata?.labels ?? {};
  if (labels.extender === 'error') return [500, { message: 'boom' }];
  switch (path) {
    case '/plain/filter': {
      const items = (body.Nodes.items as KubeObject[]).map((n) => n.metadata!.name!);
      const failed: Record<string, string> = {};
      const unresolvable: Record<string, string> = {};
      for (const n of items) {
        if (n === 'w1') failed[n] = 'w1 is reserved by the extender';
        if (labels.extender === 'reject-all' && n !== 'w1') unresolvable[n] = 'extender says no';
      }
      const keep = (body.Nodes.items as KubeObject[]).filter((n) => !failed[n.metadata!.name!] && !unresolvable[n.metadata!.name!]);
      return [200, { Nodes: { items: keep }, FailedNodes: failed, FailedAndUnresolvableNodes: unresolvable, Error: '' }];
    }
    case '/plain/prioritize':
      return [200, (body.Nodes.items as KubeObject[]).map((n) => ({ Host: n.metadata!.name, Score: n.metadata!.name === 'w3' ? 10 : 0 }))];
    case '/cached/filter':
      return [200, { NodeNames: (body.NodeNames as string[]).filter((n) => n !== 'w2'), FailedNodes: { w2: 'no gpu on w2' } }];
    case '/cached/bind': {
      await client.pods(body.PodNamespace).bind(body.PodName, body.Node, { uid: body.PodUID });
      return [200, { Error: '' }];
    }
    default:
      return [404, {}];
  }
};

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      calls.push({ path: req.url!, body });
      const [code, out] = await handle(req.url!, body);
      res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    }).catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // a port nothing listens on: the ignorable extender is down
  const down = createServer();
  await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
  const downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
  await new Promise<void>((r) => down.close(() => r()));
  api = await startTestApiServer();
  client = await adminClient(api);
  for (const n of ['w1', 'w2', 'w3']) await createNode(client, n);
  sched = startScheduler(client, {
    extenders: [
      { urlPrefix: `${url}/plain`, filterVerb: 'filter', prioritizeVerb: 'prioritize', weight: 5 },
      {
        urlPrefix: `${url}/cached/`, filterVerb: 'filter', bindVerb: 'bind', nodeCacheCapable: true,
        managedResources: [{ name: 'example.com/gpu', ignoredByScheduler: true }],
      },
      { urlPrefix: downUrl, filterVerb: 'filter', ignorable: true, httpTimeout: '2s' },
    ],
  });
});

afterAll(async () => {
  await sched?.stop();
  await client?.close();
  await api?.close();
  await new Promise((r) => server?.close(r));
});

describe('extenders', () => {
  it('filters and prioritizes through the extender (full Node objects), past an ignorable one that is down', async () => {
    await client.pods('default').create(podObject('plain'));
    expect(await waitBound(client, 'plain')).toBe('w3');
    const filter = calls.find((c) => c.path === '/plain/filter' && c.body.Pod.metadata.name === 'plain')!;
    expect(filter.body.Nodes.items.map((n: KubeObject) => n.metadata!.name).sort()).toEqual(['w1', 'w2', 'w3']);
    expect(filter.body.NodeNames).toBeUndefined();
    const prio = calls.find((c) => c.path === '/plain/prioritize' && c.body.Pod.metadata.name === 'plain')!;
    expect(prio.body.Nodes.items.map((n: KubeObject) => n.metadata!.name).sort()).toEqual(['w2', 'w3']);
    // the pod asks for no managed resource: the binder extender is not interested
    expect(calls.some((c) => c.path.startsWith('/cached/') && c.body.Pod?.metadata?.name === 'plain')).toBe(false);
  });

  it('reports the nodes the extender failed in FailedScheduling, as upstream', async () => {
    await client.pods('default').create(podObject('rejected', { labels: { extender: 'reject-all' } }));
    const ev = await eventually(async () => (await eventsFor(client, 'rejected')).find((e) => e.reason === 'FailedScheduling'), 15_000, 'FailedScheduling');
    expect(ev.message).toBe('0/3 nodes are available: 1 w1 is reserved by the extender, 2 extender says no. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.');
  });

  it('lets an interested binder extender (node names only) bind a pod of a resource the scheduler ignores', async () => {
    const pod = podObject('gpu');
    pod.spec!.containers[0].resources = { requests: { cpu: '100m', 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } };
    await client.pods('default').create(pod);
    expect(await waitBound(client, 'gpu')).toBe('w3');
    const filter = calls.find((c) => c.path === '/cached/filter' && c.body.Pod.metadata.name === 'gpu')!;
    expect(filter.body.Nodes).toBeUndefined();
    expect(filter.body.NodeNames.sort()).toEqual(['w2', 'w3']);
    const bind = calls.find((c) => c.path === '/cached/bind')!;
    expect(bind.body).toMatchObject({ PodName: 'gpu', PodNamespace: 'default', Node: 'w3' });
    const events = await eventually(async () => (await eventsFor(client, 'gpu')).find((e) => e.reason === 'Scheduled'), 10_000, 'Scheduled');
    expect(events.message).toBe('Successfully assigned default/gpu to w3');
  });

  it('fails the cycle with the error of a non-ignorable extender', async () => {
    await client.pods('default').create(podObject('broken', { labels: { extender: 'error' } }));
    const ev = await eventually(async () => (await eventsFor(client, 'broken')).find((e) => e.reason === 'FailedScheduling'), 15_000, 'FailedScheduling');
    expect(ev.message).toMatch(/^failed filter with extender at URL http:\/\/127\.0\.0\.1:\d+\/plain\/filter, code 500$/);
    const cond = await eventually(async () => ((await client.pods('default').get('broken')).status?.conditions as KubeObject[] | undefined)?.find((c) => c.type === 'PodScheduled'), 10_000, 'condition');
    expect(cond).toMatchObject({ status: 'False', reason: 'SchedulerError' });
  });
});
