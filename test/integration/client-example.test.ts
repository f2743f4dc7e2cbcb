// The README's example controller, run against a real apiserver: it mirrors labelled ConfigMaps, follows their
// changes, re-creates a deleted mirror and removes the mirror when the label goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, isNotFound, loadKubeconfig } from '../../pkg/client/index.js';
import { runMirrorController } from '../../pkg/client/examples/mirror-controller.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let c: Client;

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 50, burst: 100 });
  await c.namespaces().create({ metadata: { name: 'mirror' } });
});
afterAll(async () => {
  await c?.close();
  await s?.close();
});

const eventually = async <T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch((e: unknown) => e as T);
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('example mirror controller', () => {
  it('reconciles mirrors of labelled ConfigMaps', async () => {
    const cms = c.configMaps('mirror');
    const ac = new AbortController();
    const run = runMirrorController(c, ac.signal);
    await cms.create({ metadata: { name: 'src', labels: { mirror: 'true' } }, data: { a: '1' } });
    await cms.create({ metadata: { name: 'plain' }, data: { a: '1' } });
    const m = await eventually(() => cms.get('src-mirror'), (x) => x.data?.a === '1', 'mirror created');
    expect(m.metadata!.ownerReferences?.[0]).toMatchObject({ kind: 'ConfigMap', name: 'src', controller: true });
    await cms.patch('src', 'merge', { data: { a: '2' } });
    await eventually(() => cms.get('src-mirror'), (x) => x.data?.a === '2', 'mirror updated');
    await cms.delete('src-mirror');
    await eventually(() => cms.get('src-mirror'), (x) => x.data?.a === '2', 'mirror re-created');
    await cms.patch('src', 'merge', { metadata: { labels: { mirror: null } } });
    await eventually(() => cms.get('src-mirror'), (e) => isNotFound(e), 'mirror removed');
    expect(isNotFound(await cms.get('plain-mirror').catch((e: unknown) => e))).toBe(true);
    const events = await eventually(() => c.events('mirror').list(), (l) => l.items.some((e) => e.reason === 'Mirrored'), 'event');
    expect(events.items.find((e) => e.reason === 'Mirrored')?.involvedObject.name).toBe('src');
    ac.abort();
    await run;
  });
});
