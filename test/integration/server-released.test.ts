// A stopped apiserver leaves nothing of itself in its process: tests and embedders start many in one, and what a
// stopped one kept (its stores, caches and watch rings) added up to a gigabyte over this suite. Kept once by
// prom-client's process collectors (each registry's own GC observer), then by node's idle timer of every HTTP/2
// session a client (kubectl) had closed.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Whether the server `use`d, then stopped, is still reachable from anything once garbage is collected. */
async function keptAfterClose(use: (s: TestApiServer) => Promise<void>): Promise<boolean> {
  let s: TestApiServer | undefined = await startTestApiServer({ controllers: [] });
  await use(s);
  const server = new WeakRef(s.server);
  await s.close();
  s = undefined;
  for (let i = 0; i < 10 && server.deref(); i++) {
    await new Promise((r) => setTimeout(r, 50));
    gc();
  }
  return server.deref() !== undefined;
}

it('is garbage once stopped, its /metrics served', async () => {
  expect(await keptAfterClose(async (s) => { expect((await s.api('GET', '/metrics')).body).toContain('process_cpu_seconds_total'); })).toBe(false);
});

it('is garbage once stopped after kubectl talked to it over HTTP/2', async () => {
  expect(await keptAfterClose(async (s) => { expect((await s.kubectl('get', 'namespaces')).code).toBe(0); })).toBe(false);
});
