// Lists as upstream 1.32 serves them: limit/continue pages form one consistent snapshot even while objects
// are created and deleted, remainingItemCount, expired continue tokens (410 with a token to carry on),
// resourceVersion=0 / NotOlderThan / Exact; and optimistic concurrency on writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
/** Compacts the store every 50 ms down to the last 10 revisions. */
let compacting: TestApiServer;

beforeAll(async () => {
  [s, compacting] = await Promise.all([
    startTestApiServer({ storageBackend: 'memory' }),
    startTestApiServer({ storageBackend: 'memory', compactionKeepRevisions: 10, compactionIntervalMs: 50 }),
  ]);
});
afterAll(async () => {
  await Promise.all([s?.close(), compacting?.close()]);
});

const cm = (name: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const pad = (i: number): string => String(i).padStart(3, '0');
const names = (list: any): string[] => list.items.map((o: { metadata: { name: string } }) => o.metadata.name);

async function namespace(srv: TestApiServer, name: string): Promise<void> {
  expect((await srv.api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })).status).toBe(201);
}

async function create(srv: TestApiServer, ns: string, obj: object): Promise<any> {
  const r = await srv.api('POST', `/api/v1/namespaces/${ns}/configmaps`, obj);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

async function createMany(srv: TestApiServer, ns: string, n: number, name = (i: number) => `cm-${pad(i)}`): Promise<void> {
  for (let i = 0; i < n; i += 25) {
    await Promise.all(Array.from({ length: Math.min(25, n - i) }, (_, j) => create(srv, ns, cm(name(i + j), { i: String(i + j) }))));
  }
}

async function list(srv: TestApiServer, path: string): Promise<any> {
  const r = await srv.api('GET', path);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

describe('paging', () => {
  it('limit/continue over 250 configmaps returns each object exactly once, as of the first page, under concurrent creates and deletes', async () => {
    await namespace(s, 'p-snap');
    await createMany(s, 'p-snap', 250);
    const base = '/api/v1/namespaces/p-snap/configmaps';
    const first = await list(s, `${base}?limit=37`);
    const rv = first.metadata.resourceVersion;
    expect(first.items).toHaveLength(37);
    expect(first.metadata.remainingItemCount).toBe(213);
    expect(first.metadata.continue).toEqual(expect.any(String));

    const seen = [...names(first)];
    const remaining: number[] = [first.metadata.remainingItemCount];
    let token: string | undefined = first.metadata.continue;
    let round = 0;
    while (token) {
      // Between pages: new objects sorting before, inside and after the rest, and deletes of unseen ones.
      round++;
      await Promise.all([
        create(s, 'p-snap', cm(`cm-${pad(round * 20)}-new`)),
        create(s, 'p-snap', cm(`a-${round}`)),
        create(s, 'p-snap', cm(`zz-${round}`)),
        s.api('DELETE', `${base}/cm-${pad(249 - round)}`).then((r) => expect(r.status).toBe(200)),
        s.api('DELETE', `${base}/cm-${pad(round * 30)}`).then((r) => expect(r.status).toBe(200)),
      ]);
      const page = await list(s, `${base}?limit=37&continue=${encodeURIComponent(token)}`);
      expect(page.metadata.resourceVersion).toBe(rv);
      seen.push(...names(page));
      token = page.metadata.continue;
      if (token) remaining.push(page.metadata.remainingItemCount);
      else expect(page.metadata.remainingItemCount).toBeUndefined();
    }
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => `cm-${pad(i)}`));
    expect(remaining).toEqual([213, 176, 139, 102, 65, 28]);
    // The objects deleted meanwhile came back as they were at the snapshot.
    const now = await list(s, base);
    expect(round).toBe(6);
    expect(now.items).toHaveLength(250 + 3 * round - 2 * round);
  });

  it('a selector pages too, without remainingItemCount', async () => {
    await namespace(s, 'p-sel');
    await Promise.all(Array.from({ length: 30 }, (_, i) => s.api('POST', '/api/v1/namespaces/p-sel/configmaps', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${pad(i)}`, labels: { even: String(i % 2 === 0) } },
    })));
    const got: string[] = [];
    let token = '';
    do {
      const page = await list(s, `/api/v1/namespaces/p-sel/configmaps?labelSelector=even%3Dtrue&limit=4${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
      expect(page.metadata.remainingItemCount).toBeUndefined();
      got.push(...names(page));
      token = page.metadata.continue ?? '';
    } while (token);
    expect(got).toEqual(Array.from({ length: 15 }, (_, i) => `c${pad(i * 2)}`));
  });

  it('a continue token older than compaction is 410 Expired with upstream\'s message and a token that continues at the latest state', async () => {
    await namespace(compacting, 'p-expired');
    await createMany(compacting, 'p-expired', 20);
    const first = await list(compacting, '/api/v1/namespaces/p-expired/configmaps?limit=5');
    for (let i = 0; i < 15; i++) await create(compacting, 'p-expired', cm(`later-${pad(i)}`));
    const path = `/api/v1/namespaces/p-expired/configmaps?limit=5&continue=${encodeURIComponent(first.metadata.continue)}`;
    let r = await compacting.api('GET', path);
    for (const deadline = Date.now() + 10_000; r.status === 200 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      r = await compacting.api('GET', path);
    }
    expect(r.status).toBe(410);
    expect(r.body).toMatchObject({
      kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410,
      message: 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    });
    const carryOn = r.body.metadata.continue as string;
    expect(carryOn).toEqual(expect.any(String));
    const rest = await list(compacting, `/api/v1/namespaces/p-expired/configmaps?continue=${encodeURIComponent(carryOn)}`);
    expect(names(rest)).toEqual([...Array.from({ length: 15 }, (_, i) => `cm-${pad(i + 5)}`), ...Array.from({ length: 15 }, (_, i) => `later-${pad(i)}`)]);
    expect(Number(rest.metadata.resourceVersion)).toBeGreaterThan(Number(first.metadata.resourceVersion));
  });

  it('continue tokens that are malformed, or combined with a resourceVersion, are 400', async () => {
    const bad = await s.api('GET', '/api/v1/namespaces/default/configmaps?limit=1&continue=not-a-token');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(bad.body.message).toBe("invalid continue token: continue key is not valid: invalid character '\\u009e' looking for beginning of value");
    const unpadded = await s.api('GET', '/api/v1/namespaces/default/configmaps?limit=1&continue=abc%3D');
    expect(unpadded.body.message).toBe('invalid continue token: continue key is not valid: illegal base64 data at input byte 3');
    await createMany(s, 'default', 3, (i) => `d-${i}`);
    const first = await list(s, '/api/v1/namespaces/default/configmaps?limit=1');
    const both = await s.api('GET', `/api/v1/namespaces/default/configmaps?limit=1&resourceVersion=5&continue=${encodeURIComponent(first.metadata.continue)}`);
    expect(both.status).toBe(400);
    expect(both.body.message).toBe('specifying resource version is not allowed when using continue');
  });
});

// Upstream's continue token (storage.EncodeContinue) holds the start key relative to the list's key prefix, so a
// token is not tied to the list it came from; DecodeContinue checks the token (encoding/json's words) and the key
// (path.Clean must leave it as it is) before it is put under the list's prefix.
describe('continue tokens', () => {
  const token = (t: unknown): string => Buffer.from(JSON.stringify(t)).toString('base64url');
  const decoded = (t: string): unknown => JSON.parse(Buffer.from(t, 'base64url').toString('utf8'));
  const page = (ns: string, continueToken: string, limit = 10) =>
    s.api('GET', `/api/v1/namespaces/${ns}/configmaps?limit=${limit}&continue=${encodeURIComponent(continueToken)}`);

  it('hold the start key relative to the list: one namespace\'s token lists another from the same name on', async () => {
    for (const ns of ['p-rel-a', 'p-rel-b']) {
      await namespace(s, ns);
      await createMany(s, ns, 4, (i) => `n-${i}`);
    }
    const first = await list(s, '/api/v1/namespaces/p-rel-a/configmaps?limit=2');
    expect(names(first)).toEqual(['n-0', 'n-1']);
    expect(decoded(first.metadata.continue)).toEqual({ v: 'meta.k8s.io/v1', rv: Number(first.metadata.resourceVersion), start: 'n-1\u0000' });
    const other = await page('p-rel-b', first.metadata.continue);
    expect([other.status, names(other.body)]).toEqual([200, ['n-2', 'n-3']]);
    // across namespaces the start holds the namespace too
    const all = await list(s, '/api/v1/configmaps?limit=1');
    expect((decoded(all.metadata.continue) as { start: string }).start).toBe(`${all.items[0].metadata.namespace}/${all.items[0].metadata.name}\u0000`);
    // a start key of the client's own, in any case of the field names, from it on (inclusive), at the latest state
    const own = await page('p-rel-b', token({ V: 'meta.k8s.io/v1', RV: -5, START: 'n-2' }));
    expect([own.status, names(own.body)]).toEqual([200, ['n-2', 'n-3']]);
    // and a token made before the change, holding the absolute key of the last item, still continues its list
    const old = await page('p-rel-a', token({ v: 'meta.k8s.io/v1', rv: Number(first.metadata.resourceVersion), start: '/registry/configmaps/p-rel-a/n-1' }));
    expect([old.status, names(old.body)]).toEqual([200, ['n-2', 'n-3']]);
  });

  it('are refused in DecodeContinue\'s words', async () => {
    const refused = async (t: unknown): Promise<string> => {
      const r = await page('default', typeof t === 'string' ? t : token(t), 1);
      expect(r.status).toBe(400);
      return r.body.message;
    };
    const invalid = 'invalid continue token: continue key is not valid';
    expect(await refused({ v: 'meta.k8s.io/v1', rv: 5, start: '../x' })).toBe(`${invalid}: ../x`);
    expect(await refused({ v: 'meta.k8s.io/v1', rv: 5, start: 'a//b' })).toBe(`${invalid}: a//b`);
    expect(await refused({ v: 'meta.k8s.io/v1', rv: 5, start: 'a/' })).toBe(`${invalid}: a/`);
    expect(await refused({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' })).toBe(`${invalid}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)`);
    expect(await refused({ v: 'meta.k8s.io/v1', rv: 5 })).toBe(`${invalid}: encoded start key empty (version meta.k8s.io/v1)`);
    expect(await refused({ v: 'v2', rv: 5, start: 'a' })).toBe(`${invalid}: server does not recognize this encoded version v2`);
    expect(await refused(null)).toBe(`${invalid}: server does not recognize this encoded version `);
    expect(await refused(5)).toBe(`${invalid}: json: cannot unmarshal number into Go value of type storage.continueToken`);
    expect(await refused({ v: 'meta.k8s.io/v1', rv: '5', start: 'a' })).toBe(`${invalid}: json: cannot unmarshal string into Go struct field continueToken.rv of type int64`);
    expect(await refused({ v: 'meta.k8s.io/v1', rv: 1.5, start: 'a' })).toBe(`${invalid}: json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64`);
    expect(await refused({ v: 1, rv: 5, start: 'a' })).toBe(`${invalid}: json: cannot unmarshal number into Go struct field continueToken.v of type string`);
  });
});

describe('resourceVersion semantics of list', () => {
  it('resourceVersion=0 is served from the cache in full: limit is ignored, as upstream\'s watch cache does', async () => {
    await namespace(s, 'p-zero');
    await createMany(s, 'p-zero', 12);
    const all = await list(s, '/api/v1/namespaces/p-zero/configmaps?resourceVersion=0&limit=5');
    expect(all.items).toHaveLength(12);
    expect(all.metadata.continue).toBeUndefined();
    expect(Number(all.metadata.resourceVersion)).toBeGreaterThan(0);
  });

  it('NotOlderThan: an older or current resourceVersion lists the latest state; a future one is 504 Too large resource version', async () => {
    await namespace(s, 'p-newer');
    const a = await create(s, 'p-newer', cm('a'));
    await create(s, 'p-newer', cm('b'));
    const res = await list(s, `/api/v1/namespaces/p-newer/configmaps?resourceVersion=${a.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`);
    expect(names(res)).toEqual(['a', 'b']);
    expect(Number(res.metadata.resourceVersion)).toBeGreaterThan(Number(a.metadata.resourceVersion));
    const future = Number(res.metadata.resourceVersion) + 100_000;
    const tooLarge = await s.api('GET', `/api/v1/namespaces/p-newer/configmaps?resourceVersion=${future}&resourceVersionMatch=NotOlderThan`);
    expect(tooLarge.status).toBe(504);
    expect(tooLarge.body).toMatchObject({ reason: 'Timeout', code: 504, details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 } });
    expect(tooLarge.body.message).toMatch(/^Too large resource version: \d+, current: \d+$/);
  });

  it('Exact: the state at that resourceVersion, deleted objects and old contents included; pages stay at it; legacy rv+limit is exact too', async () => {
    await namespace(s, 'p-exact');
    await create(s, 'p-exact', cm('keep', { v: '1' }));
    await create(s, 'p-exact', cm('gone'));
    const at = (await list(s, '/api/v1/namespaces/p-exact/configmaps')).metadata.resourceVersion;
    const patched = await s.api('PATCH', '/api/v1/namespaces/p-exact/configmaps/keep', { data: { v: '2' } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.status).toBe(200);
    expect((await s.api('DELETE', '/api/v1/namespaces/p-exact/configmaps/gone')).status).toBe(200);
    await create(s, 'p-exact', cm('new'));

    const exact = await list(s, `/api/v1/namespaces/p-exact/configmaps?resourceVersion=${at}&resourceVersionMatch=Exact`);
    expect(exact.metadata.resourceVersion).toBe(at);
    expect(names(exact)).toEqual(['gone', 'keep']);
    expect(exact.items[1].data).toEqual({ v: '1' });

    const p1 = await list(s, `/api/v1/namespaces/p-exact/configmaps?resourceVersion=${at}&resourceVersionMatch=Exact&limit=1`);
    expect([names(p1), p1.metadata.resourceVersion, p1.metadata.remainingItemCount]).toEqual([['gone'], at, 1]);
    const p2 = await list(s, `/api/v1/namespaces/p-exact/configmaps?limit=1&continue=${encodeURIComponent(p1.metadata.continue)}`);
    expect([names(p2), p2.metadata.resourceVersion, p2.metadata.continue]).toEqual([['keep'], at, undefined]);

    const legacy = await list(s, `/api/v1/namespaces/p-exact/configmaps?resourceVersion=${at}&limit=10`);
    expect([names(legacy), legacy.metadata.resourceVersion]).toEqual([['gone', 'keep'], at]);
    const latest = await list(s, `/api/v1/namespaces/p-exact/configmaps?resourceVersion=${at}`);
    expect(names(latest)).toEqual(['keep', 'new']);
  });

  it('ListOptions validation: resourceVersionMatch needs a resourceVersion, Exact is not for "0" (422 on ListOptions.meta.k8s.io)', async () => {
    const noRv = await s.api('GET', '/api/v1/namespaces/default/configmaps?resourceVersionMatch=Exact');
    expect(noRv.status).toBe(422);
    expect(noRv.body).toMatchObject({ reason: 'Invalid', details: { kind: 'ListOptions', group: 'meta.k8s.io' } });
    expect(noRv.body.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
    const zero = await s.api('GET', '/api/v1/namespaces/default/configmaps?resourceVersion=0&resourceVersionMatch=Exact');
    expect(zero.status).toBe(422);
    const unknown = await s.api('GET', '/api/v1/namespaces/default/configmaps?resourceVersion=1&resourceVersionMatch=Newest');
    expect(unknown.status).toBe(422);
    // sendInitialEvents belongs to watches: a list refuses it, even as false
    const initial = await s.api('GET', '/api/v1/namespaces/default/configmaps?sendInitialEvents=false');
    expect([initial.status, initial.body.message]).toEqual([422, 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']);
  });
});

describe('optimistic concurrency', () => {
  it('a PUT with a stale resourceVersion is 409 Conflict with upstream\'s message', async () => {
    await namespace(s, 'p-cas');
    const x = await create(s, 'p-cas', cm('x', { v: '0' }));
    const first = await s.api('PUT', '/api/v1/namespaces/p-cas/configmaps/x', { ...x, data: { v: '1' } });
    expect(first.status).toBe(200);
    const stale = await s.api('PUT', '/api/v1/namespaces/p-cas/configmaps/x', { ...x, data: { v: '2' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Conflict', code: 409,
      message: 'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'x', kind: 'configmaps' },
    });
    expect((await s.api('GET', '/api/v1/namespaces/p-cas/configmaps/x')).body.data).toEqual({ v: '1' });
  });

  it('of concurrent PUTs from the same resourceVersion exactly one wins', async () => {
    const y = await create(s, 'p-cas', cm('y'));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      s.api('PUT', '/api/v1/namespaces/p-cas/configmaps/y', { ...y, data: { writer: String(i) } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    const winner = results.find((r) => r.status === 200)!.body;
    expect((await s.api('GET', '/api/v1/namespaces/p-cas/configmaps/y')).body.data).toEqual(winner.data);
  });

  it('concurrent guaranteed updates (patches, unconditional PUTs of other objects) all land', async () => {
    await create(s, 'p-cas', cm('z'));
    const patches = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      s.api('PATCH', '/api/v1/namespaces/p-cas/configmaps/z', { data: { [`k${i}`]: String(i) } }, { 'content-type': 'application/merge-patch+json' })));
    expect(patches.every((r) => r.status === 200)).toBe(true);
    const rvs = patches.map((r) => Number(r.body.metadata.resourceVersion));
    expect(new Set(rvs).size).toBe(20);
    const z = (await s.api('GET', '/api/v1/namespaces/p-cas/configmaps/z')).body;
    expect(Object.keys(z.data).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`).sort());
    expect(Number(z.metadata.resourceVersion)).toBe(Math.max(...rvs));

    // Two unconditional updates (no resourceVersion in the body) race: both succeed, the later one is the state.
    const [u1, u2] = await Promise.all(['1', '2'].map((v) => s.api('PUT', '/api/v1/namespaces/p-cas/configmaps/z', cm('z', { v }))));
    expect([u1.status, u2.status]).toEqual([200, 200]);
    const last = Number(u1.body.metadata.resourceVersion) > Number(u2.body.metadata.resourceVersion) ? u1 : u2;
    expect((await s.api('GET', '/api/v1/namespaces/p-cas/configmaps/z')).body.data).toEqual(last.body.data);
  });
});
