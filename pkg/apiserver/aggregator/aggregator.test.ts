import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { crdApiServices } from './local-apiservices.js';
import { forwardedHeaders } from '../reverse-proxy.js';
import { remoteUserHeaders } from './proxy.js';
import { fetchOpenApiV3, groupVersionFromDiscovery } from './remote-discovery.js';
import { buildApiGroupList } from '../discovery/legacy.js';

describe('aggregator pieces', () => {
  it('forwards the client\'s headers less credentials and hop-by-hop ones, with who the user is', () => {
    const out = forwardedHeaders({
      ':method': 'GET', ':path': '/apis/x/v1', host: 'api', connection: 'keep-alive', 'transfer-encoding': 'chunked',
      authorization: 'Bearer secret', 'x-remote-user': 'forged', 'x-remote-group': 'system:masters', 'x-remote-extra-scopes': 'all',
      'impersonate-user': 'root', accept: 'application/json', 'content-type': 'application/json',
    }, remoteUserHeaders({ name: 'alice', groups: ['dev', 'system:authenticated'], extra: { 'example.com/team': ['a', 'b'] } }));
    expect(out).toEqual({
      accept: 'application/json', 'content-type': 'application/json',
      'x-remote-user': 'alice', 'x-remote-group': ['dev', 'system:authenticated'], 'x-remote-extra-example.com%2Fteam': ['a', 'b'],
    });
  });

  it('reads an APIResourceList, subresources attached to their resource', () => {
    const gv = groupVersionFromDiscovery('wardle.example.com', 'v1alpha1', {
      kind: 'APIResourceList', groupVersion: 'wardle.example.com/v1alpha1',
      resources: [
        { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'], shortNames: ['fl'] },
        { name: 'flunders/status', singularName: '', namespaced: true, kind: 'Flunder', verbs: ['get', 'update'] },
        { name: 'fischers', singularName: '', namespaced: false, kind: 'Fischer', verbs: ['get'] },
      ],
    });
    expect(gv?.resources).toEqual([
      { group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder', plural: 'flunders', singular: 'flunder', namespaced: true, verbs: ['get', 'list'], shortNames: ['fl'], definition: '',
        subresources: [{ name: 'status', group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder', verbs: ['get', 'update'] }] },
      { group: 'wardle.example.com', version: 'v1alpha1', kind: 'Fischer', plural: 'fischers', singular: 'fischer', namespaced: false, verbs: ['get'], definition: '' },
    ]);
    expect(groupVersionFromDiscovery('g', 'v1', { kind: 'Status' })).toBeUndefined();
  });

  it('gives a custom metrics adapter\'s subresource-only list empty parents, and lists its group even with no resources', () => {
    const gv = groupVersionFromDiscovery('custom.metrics.k8s.io', 'v1beta2', {
      kind: 'APIResourceList', groupVersion: 'custom.metrics.k8s.io/v1beta2',
      resources: [{ name: 'pods/http_requests', singularName: '', namespaced: true, kind: 'MetricValueList', verbs: ['get'] }],
    });
    expect(gv?.resources).toEqual([{
      group: 'custom.metrics.k8s.io', version: 'v1beta2', kind: '', plural: 'pods', singular: '', namespaced: true, verbs: [], definition: '',
      subresources: [{ name: 'http_requests', group: 'custom.metrics.k8s.io', version: 'v1beta2', kind: 'MetricValueList', verbs: ['get'] }],
    }]);
    const empty = groupVersionFromDiscovery('external.metrics.k8s.io', 'v1beta1', { kind: 'APIResourceList', groupVersion: 'external.metrics.k8s.io/v1beta1', resources: [] })!;
    expect(buildApiGroupList([empty]).groups.map((g) => g.name)).toEqual(['external.metrics.k8s.io']);
  });

  it('takes a server without an OpenAPI v3 index as serving none (not as a failure)', async () => {
    const server = createServer((req, res) => { res.writeHead(req.url === '/openapi/v3' ? 404 : 500).end(); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const agent = new Agent();
    try {
      expect(await fetchOpenApiV3(agent, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'custom.metrics.k8s.io', 'v1beta2')).toBeUndefined();
    } finally {
      await agent.close();
      server.close();
    }
  });

  it('takes a failing OpenAPI v3 index as a failure, so that the document read before is kept', async () => {
    const server = createServer((_req, res) => { res.writeHead(503).end(); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const agent = new Agent();
    try {
      await expect(fetchOpenApiV3(agent, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'metrics.k8s.io', 'v1beta1')).rejects.toThrow(/bad status .*: 503/);
    } finally {
      await agent.close();
      server.close();
    }
  });

  it('registers each served CRD version once, as upstream names and ranks them', () => {
    const crd = (name: string, versions: [string, boolean][]) => ({
      metadata: { name }, spec: { group: 'things.example.com', versions: versions.map(([v, served]) => ({ name: v, served, storage: v === 'v1' })) },
    }) as never;
    const wanted = crdApiServices([crd('a.things.example.com', [['v1', true], ['v2', false]]), crd('b.things.example.com', [['v1', true]])]);
    expect([...wanted.keys()]).toEqual(['v1.things.example.com']);
    expect(wanted.get('v1.things.example.com')!.spec).toEqual({ group: 'things.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
  });
});
