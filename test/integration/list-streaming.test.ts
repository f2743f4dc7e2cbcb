// A list bigger than 1 MB goes out in chunks as it is assembled (pkg/apiserver/respond.ts): the body must be the
// same JSON a single buffer would have been, for a raw client and for kubectl, with and without a selector. The
// chunks are reused once written, so lists at once, over HTTP/1.1 and HTTP/2, and one a client abandons must not
// spoil each other's bytes.
import { readFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
const N = 400;
const value = 'x'.repeat(4096); // 400 × ~4.3 KB: about 1.7 MB of list, several chunks

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  expect((await s.api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'big' } })).status).toBe(201);
  for (let i = 0; i < N; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, N - i) }, async (_, j) => {
      const n = i + j;
      const r = await s.api('POST', '/api/v1/namespaces/big/configmaps', {
        apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(n).padStart(3, '0')}`, labels: { half: String(n % 2) } }, data: { v: value, n: String(n) },
      });
      expect(r.status).toBe(201);
    }));
  }
});
afterAll(async () => { await s?.close(); });

const names = Array.from({ length: N }, (_, i) => `cm-${String(i).padStart(3, '0')}`);
const LIST = '/api/v1/namespaces/big/configmaps';

/** The list over HTTP/2 as the admin, without gzip (kubectl's --disable-compression); `abandonAfter` bytes, then reset. */
function listHttp2(abandonAfter?: number): Promise<string> {
  const session = connect(s.url, { ca: readFileSync(s.pki.ca.cert), cert: readFileSync(s.pki.admin.cert), key: readFileSync(s.pki.admin.key) });
  return new Promise<string>((resolve, reject) => {
    session.on('error', reject);
    const stream = session.request({ ':method': 'GET', ':path': LIST });
    const chunks: Buffer[] = [];
    let got = 0;
    stream.on('data', (d: Buffer) => {
      chunks.push(d);
      got += d.length;
      if (abandonAfter !== undefined && got >= abandonAfter) {
        stream.close();
        resolve('');
      }
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  }).finally(() => session.close());
}

const itemNames = (text: string): string[] => (JSON.parse(text) as { items: { metadata: { name: string }; data: { v: string } }[] }).items.map((o) => {
  expect(o.data.v).toBe(value);
  return o.metadata.name;
});

describe('large lists', () => {
  it('lists at once over HTTP/1.1 and HTTP/2, and after one a client abandoned, each come whole', async () => {
    await listHttp2(200_000);
    const [a, b, c, d] = await Promise.all([s.api('GET', LIST), listHttp2(), s.api('GET', LIST), listHttp2()]);
    for (const r of [a, c]) expect((r.body as { items: { metadata: { name: string } }[] }).items.map((o) => o.metadata.name)).toEqual(names);
    for (const text of [b, d]) expect(itemNames(text)).toEqual(names);
  });

  it('a raw list of 1.7 MB parses whole, every item once and in order', async () => {
    const r = await s.api('GET', '/api/v1/namespaces/big/configmaps');
    expect(r.status).toBe(200);
    const names = (r.body as { items: { metadata: { name: string }; data: { v: string } }[] }).items.map((o) => o.metadata.name);
    expect(names).toEqual(Array.from({ length: N }, (_, i) => `cm-${String(i).padStart(3, '0')}`));
    expect((r.body as { kind: string; metadata: { resourceVersion: string } }).kind).toBe('ConfigMapList');
    expect((r.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toMatch(/^\d+$/);
  });

  it('kubectl reads it as JSON, and with a label selector', async () => {
    const all = await kubectl(s.kubeconfig, ['get', 'configmaps', '-n', 'big', '-o', 'json']);
    expect(all.code, all.stderr).toBe(0);
    expect((JSON.parse(all.stdout) as { items: unknown[] }).items).toHaveLength(N);
    const half = await kubectl(s.kubeconfig, ['get', 'configmaps', '-n', 'big', '-l', 'half=1', '-o', 'name']);
    expect(half.code, half.stderr).toBe(0);
    expect(half.stdout.trim().split('\n')).toHaveLength(N / 2);
  });
});
