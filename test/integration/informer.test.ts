// @kubernetes/client-node's informer (list, then watch with bookmarks, relist on 410) against the real apiserver:
// it sees adds, updates and deletes, and a restart from an expired resourceVersion converges by relisting.
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
const HISTORY = 10;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', watchCacheHistorySize: HISTORY });
});
afterAll(async () => {
  await s?.close();
});

async function until(what: string, pred: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !pred();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const cm = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

it('makeInformer on configmaps of a namespace sees add, update and delete, and relists after 410', async () => {
  expect((await s.api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'inf' } })).status).toBe(201);
  expect((await s.api('POST', '/api/v1/namespaces/inf/configmaps', cm('before', { a: '1' }))).status).toBe(201);

  const kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/inf/configmaps', () => core.listNamespacedConfigMap({ namespace: 'inf' }));
  const log: string[] = [];
  const errors: unknown[] = [];
  informer.on('add', (o) => log.push(`add ${o.metadata?.name} ${JSON.stringify(o.data)}`));
  informer.on('update', (o) => log.push(`update ${o.metadata?.name} ${JSON.stringify(o.data)}`));
  informer.on('delete', (o) => log.push(`delete ${o.metadata?.name}`));
  // stop() aborts the watch request, which the informer reports as an AbortError: not a server problem.
  informer.on('error', (err) => {
    if ((err as { name?: string } | undefined)?.name !== 'AbortError') errors.push(err);
  });
  await informer.start();
  try {
    await until('the initial list', () => log.length === 1);
    expect(log).toEqual(['add before {"a":"1"}']);

    expect((await s.api('POST', '/api/v1/namespaces/inf/configmaps', cm('x', { v: '1' }))).status).toBe(201);
    await until('add x', () => log.length === 2);
    expect((await s.api('PATCH', '/api/v1/namespaces/inf/configmaps/x', { data: { v: '2' } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    await until('update x', () => log.length === 3);
    expect((await s.api('DELETE', '/api/v1/namespaces/inf/configmaps/x')).status).toBe(200);
    await until('delete x', () => log.length === 4);
    expect(log.slice(1)).toEqual(['add x {"v":"1"}', 'update x {"v":"2"}', 'delete x']);
    expect(informer.list('inf').map((o) => o.metadata?.name)).toEqual(['before']);

    // Stopped, the informer falls behind by more than the watch cache keeps: its watch gets 410 Expired and it relists.
    await informer.stop();
    for (let i = 0; i < HISTORY + 5; i++) {
      expect((await s.api('POST', '/api/v1/namespaces/inf/configmaps', cm(`late-${i}`, { i: String(i) }))).status).toBe(201);
    }
    expect((await s.api('DELETE', '/api/v1/namespaces/inf/configmaps/before')).status).toBe(200);
    await informer.start();
    await until('the relist', () => informer.list('inf').length === HISTORY + 5 && !informer.get('before', 'inf'));
    expect(log).toContain('delete before');
    expect(log.filter((l) => l.startsWith('add late-'))).toHaveLength(HISTORY + 5);
    const current = (await s.api('GET', '/api/v1/namespaces/inf/configmaps')).body;
    expect(informer.list('inf').map((o) => o.metadata?.resourceVersion).sort()).toEqual(current.items.map((o: V1ConfigMap) => o.metadata?.resourceVersion).sort());

    expect((await s.api('POST', '/api/v1/namespaces/inf/configmaps', cm('y', { v: '1' }))).status).toBe(201);
    await until('add y after the relist', () => log.at(-1) === 'add y {"v":"1"}');
    expect(errors).toEqual([]);
  } finally {
    await informer.stop();
  }
});
