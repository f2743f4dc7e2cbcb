// A built-in kind's list leaves kind and apiVersion out of its items, as upstream's does (kubernetes#3030): the
// Python client and @kubernetes/client-node then see them unset, as against a real cluster. Whatever order a client
// sent the two fields in, JSON, YAML and protobuf lists agree; pkg/client fills them in, as client-go's unstructured
// lists do.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { Client, loadKubeconfig } from '../../pkg/client/index.js';
import { decodeProtobufObject } from '../../pkg/apimachinery/protobuf/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', controllers: [] });
  // one ConfigMap with kind first (as Go's encoder writes it), one with apiVersion first, one without either
  await s.api('POST', '/api/v1/namespaces/default/configmaps', '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a"},"data":{"x":"1"}}');
  await s.api('POST', '/api/v1/namespaces/default/configmaps', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}');
  await s.api('POST', '/api/v1/namespaces/default/configmaps', '{"metadata":{"name":"c"},"data":{"y":"2"}}');
});
afterAll(async () => { await s?.close(); });

describe('list items of a built-in kind', () => {
  it('go without kind and apiVersion in JSON and YAML; the object itself keeps them', async () => {
    const json = (await s.api('GET', '/api/v1/namespaces/default/configmaps')).body;
    expect(json.kind).toBe('ConfigMapList');
    expect(json.apiVersion).toBe('v1');
    expect(json.items.map((i: Record<string, unknown>) => [i.metadata && (i.metadata as { name: string }).name, i.kind, i.apiVersion, Object.keys(i)[0]]))
      .toEqual([['a', undefined, undefined, 'metadata'], ['b', undefined, undefined, 'metadata'], ['c', undefined, undefined, 'metadata']]);
    expect(json.items[0].data).toEqual({ x: '1' });
    const yaml = parseYaml((await s.api('GET', '/api/v1/namespaces/default/configmaps', undefined, { accept: 'application/yaml' })).body);
    expect(yaml.items.map((i: Record<string, unknown>) => i.kind ?? '-')).toEqual(['-', '-', '-']);
    const one = (await s.api('GET', '/api/v1/namespaces/default/configmaps/a')).body;
    expect([one.apiVersion, one.kind]).toEqual(['v1', 'ConfigMap']);
  });

  it('match the protobuf list item for item', async () => {
    const json = (await s.api('GET', '/api/v1/namespaces/default/configmaps')).body;
    const res = await fetchRaw('/api/v1/namespaces/default/configmaps', 'application/vnd.kubernetes.protobuf');
    const pb = decodeProtobufObject(res) as { items: unknown[] };
    expect(pb.items).toEqual(json.items);
  });

  it('are typed again by pkg/client, for informers and owner references', async () => {
    const client = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0 });
    const list = await client.resource({ group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' }, 'default').list();
    expect(list.items.map((i) => `${i.apiVersion} ${i.kind} ${i.metadata?.name}`)).toEqual(['v1 ConfigMap a', 'v1 ConfigMap b', 'v1 ConfigMap c']);
  });
});

async function fetchRaw(path: string, accept: string): Promise<Buffer> {
  const res = await request(s.url + path, { dispatcher: s.agent, headers: { accept } });
  expect(res.statusCode).toBe(200);
  return Buffer.from(await res.body.arrayBuffer());
}
