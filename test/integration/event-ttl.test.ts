// --event-ttl: an Event is deleted once it has gone that long without a write, its watchers seeing DELETED (upstream
// leases every Event write in etcd); a write renews it.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

const TTL_MS = 1_500;
let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ authorizationModes: ['AlwaysAllow'], controllers: [], eventTtlMs: TTL_MS });
});
afterAll(async () => { await s?.close(); });

const event = (name: string, at: Date) => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: 'default' },
  involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'Tested', message: name, type: 'Normal',
  firstTimestamp: at.toISOString().replace(/\.\d+Z$/, 'Z'), lastTimestamp: at.toISOString().replace(/\.\d+Z$/, 'Z'), count: 1,
});

const until = async (what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const exists = async (name: string): Promise<boolean> => (await s.api('GET', `/api/v1/namespaces/default/events/${name}`)).status === 200;

describe('--event-ttl', () => {
  it('deletes an Event a TTL after its last write, renews one written again, and tells its watchers', async () => {
    const listed = await s.api('GET', '/api/v1/namespaces/default/events');
    const watch = await request(`${s.url}/apis/events.k8s.io/v1/namespaces/default/events?watch=1&resourceVersion=${listed.body.metadata.resourceVersion}`, { dispatcher: s.agent });
    const start = Date.now();
    expect((await s.api('POST', '/api/v1/namespaces/default/events', event('short', new Date()))).status).toBe(201);
    expect((await s.api('POST', '/api/v1/namespaces/default/events', event('renewed', new Date()))).status).toBe(201);
    await new Promise((r) => setTimeout(r, TTL_MS * 0.6));
    const patched = await s.api('PATCH', '/api/v1/namespaces/default/events/renewed', { count: 2 }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    const renewedAt = Date.now();

    await until('the unrenewed event to expire', async () => !(await exists('short')));
    expect(Date.now() - start).toBeGreaterThanOrEqual(TTL_MS);
    expect(await exists('renewed')).toBe(true);
    await until('the renewed event to expire', async () => !(await exists('renewed')));
    expect(Date.now() - renewedAt).toBeGreaterThanOrEqual(TTL_MS - 100);

    const seen: string[] = [];
    let text = '';
    for await (const chunk of watch.body) {
      text += String(chunk);
      const lines = text.split('\n');
      text = lines.pop()!;
      for (const l of lines) seen.push(((e: { type: string; object: { metadata: { name: string } } }) => `${e.type} ${e.object.metadata.name}`)(JSON.parse(l)));
      if (seen.length >= 5) break;
    }
    expect(seen).toEqual(['ADDED short', 'ADDED renewed', 'MODIFIED renewed', 'DELETED short', 'DELETED renewed']);
  }, 20_000);
});
