// Response compression (upstream's APIResponseCompression): a body over 128 KiB goes gzipped to a client whose
// Accept-Encoding names gzip (client-go and kubectl always do), never a small one, never to others; the feature gate
// turns it off.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

const COUNT = 60;
const LIST = '/api/v1/namespaces/default/configmaps';

const fill = async (api: TestApiServer): Promise<void> => {
  for (let i = 0; i < COUNT; i++) {
    const res = await api.api('POST', LIST, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data: { blob: 'x'.repeat(3_000) } });
    expect(res.status).toBe(201);
  }
};

const get = async (api: TestApiServer, path: string, headers: Record<string, string>): Promise<{ headers: Record<string, unknown>; bytes: Buffer }> => {
  const res = await request(`${api.url}${path}`, { dispatcher: api.agent, headers });
  return { headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) };
};

describe('response compression', () => {
  let api: TestApiServer;
  let off: TestApiServer;

  beforeAll(async () => {
    [api, off] = await Promise.all([startTestApiServer({ controllers: [] }), startTestApiServer({ controllers: [], featureGates: { APIResponseCompression: false } })]);
    await Promise.all([fill(api), fill(off)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([api?.stop(), off?.stop()]);
  });

  it('gzips a large list for a client that accepts gzip, with Vary; the same list as plain JSON otherwise', async () => {
    const zipped = await get(api, LIST, { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    const list = JSON.parse(gunzipSync(zipped.bytes).toString('utf8')) as { kind: string; items: unknown[] };
    expect(list.kind).toBe('ConfigMapList');
    expect(list.items).toHaveLength(COUNT);
    expect(zipped.bytes.length).toBeLessThan(gunzipSync(zipped.bytes).length / 10);

    const plain = await get(api, LIST, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.equals(gunzipSync(zipped.bytes))).toBe(true);
  });

  it('leaves a small body alone, gzips protobuf and tables too, and kubectl reads it', async () => {
    const one = await get(api, `${LIST}/big-0`, { 'accept-encoding': 'gzip, deflate' });
    expect(one.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(one.bytes.toString('utf8')).metadata.name).toBe('big-0');

    const proto = await get(api, LIST, { 'accept-encoding': 'gzip', accept: 'application/vnd.kubernetes.protobuf' });
    expect(proto.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(proto.bytes).subarray(0, 4).toString('latin1')).toBe('k8s\u0000');

    const table = await get(api, `${LIST}?includeObject=Object`, { 'accept-encoding': 'gzip', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(table.bytes).toString('utf8')).rows).toHaveLength(COUNT);

    // kubectl's transport (Go's) asks for gzip itself and inflates the answer out of sight
    const r = await api.kubectl('get', 'configmaps', '-o', 'name');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').filter((l) => l.startsWith('configmap/big-'))).toHaveLength(COUNT);
  });

  it('sends plain bodies when the APIResponseCompression gate is off', async () => {
    const res = await get(off, LIST, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(res.bytes.toString('utf8')) as { items: unknown[] }).items).toHaveLength(COUNT);
  });
});
