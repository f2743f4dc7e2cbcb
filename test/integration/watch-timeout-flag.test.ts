// --min-request-timeout: a watch that sets no timeoutSeconds ends between that many seconds and twice that (upstream
// spreads watch lengths so that re-lists do not come all at once).
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [], minRequestTimeoutSeconds: 1 }); });
afterAll(async () => { await s?.close(); });

it('ends a watch without timeoutSeconds between --min-request-timeout and twice it', async () => {
  const started = Date.now();
  const res = await request(`${s.url}/api/v1/namespaces/default/configmaps?watch=1`, { dispatcher: s.agent });
  await res.body.text();
  const took = Date.now() - started;
  expect(took).toBeGreaterThanOrEqual(900);
  expect(took).toBeLessThan(4_000);
});
