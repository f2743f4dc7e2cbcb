import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { builtinGroupVersions } from '../../../api/index.js';
import type { GroupVersion } from '../../../api/types.js';
import { appsV1, coreV1, fixture, widgetsV1 } from './fixture.js';
import { compareVersions, storageVersionHash } from './groups.js';
import { buildApiResourceList } from './legacy.js';
import { negotiateDiscovery } from './negotiate.js';
import { registerDiscovery } from './routes.js';
import { hashGroupVersions } from './source.js';

const CLIENT_GO_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,'
  + 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

const server = async (source: () => GroupVersion[] = fixture) => {
  const app = Fastify();
  registerDiscovery(app, source, { serverAddress: () => '10.0.0.1:6443' });
  await app.ready();
  return app;
};

describe('pure builders', () => {
  it('hashes the storage version as upstream does', () => {
    // Values a real apiserver reports for pods and deployments.
    expect(storageVersionHash('', 'v1', 'Pod')).toBe('xPOwRZ+Yhw8=');
    expect(storageVersionHash('apps', 'v1', 'Deployment')).toBe('8aSe+NMegvE=');
  });

  it('gives a storage version hash to stored resources only (not bindings, componentstatuses or reviews), as upstream', () => {
    const hashed = (group: string, plural: string) => {
      const gv = builtinGroupVersions.find((g) => g.group === group && g.version === 'v1')!;
      return buildApiResourceList(gv).resources.find((r) => r.name === plural)?.storageVersionHash;
    };
    expect(hashed('', 'pods')).toBe('xPOwRZ+Yhw8=');
    for (const [group, plural] of [['', 'bindings'], ['', 'componentstatuses'], ['authentication.k8s.io', 'tokenreviews'], ['authorization.k8s.io', 'subjectaccessreviews']]) {
      expect(hashed(group, plural), plural).toBeUndefined();
    }
  });

  it('orders versions GA, beta, alpha, then others', () => {
    const vs = ['v1alpha1', 'foo', 'v1beta1', 'v2', 'v1', 'v1beta2', 'v2beta1'];
    expect(vs.sort(compareVersions)).toEqual(['v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v1alpha1', 'foo']);
  });

  it('lists subresources as their own entries with group/version only where they differ', () => {
    const apps = buildApiResourceList(appsV1);
    expect(apps).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'apps/v1' });
    expect(apps.resources.map((r) => r.name)).toEqual(['deployments', 'deployments/scale', 'deployments/status']);
    expect(apps.resources[1]).toEqual({
      name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1',
      kind: 'Scale', verbs: ['get', 'patch', 'update'],
    });
    expect(apps.resources[2]).toEqual({
      name: 'deployments/status', singularName: '', namespaced: true, kind: 'Deployment',
      verbs: ['get', 'patch', 'update'],
    });
    expect(apps.resources[0]).toEqual({
      name: 'deployments', singularName: 'deployment', namespaced: true, kind: 'Deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'], categories: ['all'], storageVersionHash: '8aSe+NMegvE=',
    });
    const core = buildApiResourceList(coreV1);
    expect(core).not.toHaveProperty('apiVersion');
    expect(core.resources.find((r) => r.name === 'pods/eviction')).toMatchObject({ group: 'policy', version: 'v1' });
  });

  it('negotiates the aggregated form only for the apidiscovery media types', () => {
    expect(negotiateDiscovery(CLIENT_GO_ACCEPT)).toMatchObject({ kind: 'aggregated', version: 'v2', contentType: V2 });
    expect(negotiateDiscovery(`${V2BETA1},application/json`)).toMatchObject({ version: 'v2beta1', contentType: V2BETA1 });
    expect(negotiateDiscovery('application/json')).toEqual({ kind: 'legacy', contentType: 'application/json' });
    expect(negotiateDiscovery(undefined)).toEqual({ kind: 'legacy', contentType: 'application/json' });
    expect(negotiateDiscovery(`${V2};q=0.5,application/json`)).toMatchObject({ kind: 'legacy' });
    expect(negotiateDiscovery('application/json;as=Table;v=v1;g=meta.k8s.io,application/json'))
      .toMatchObject({ kind: 'legacy' });
  });

  it('hashes the served set by content, not identity', () => {
    expect(hashGroupVersions(fixture())).toBe(hashGroupVersions(fixture()));
    expect(hashGroupVersions([coreV1])).not.toBe(hashGroupVersions([coreV1, appsV1]));
  });
});

describe('routes', () => {
  it('serves legacy /api with the server address', async () => {
    const app = await server();
    const res = await app.inject({ url: '/api', headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      kind: 'APIVersions', versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' }],
    });
  });

  it('serves legacy /apis with preferred versions and skips definition-only group-versions', async () => {
    const app = await server();
    const body = (await app.inject({ url: '/apis' })).json();
    expect(body.kind).toBe('APIGroupList');
    expect(body.groups.map((g: { name: string }) => g.name)).toEqual(['apps', 'stable.example.com']);
    expect(body.groups[1]).toEqual({
      name: 'stable.example.com',
      versions: [
        { groupVersion: 'stable.example.com/v1', version: 'v1' },
        { groupVersion: 'stable.example.com/v1beta1', version: 'v1beta1' },
      ],
      preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
    });
  });

  it('serves /apis/<group> and /apis/<group>/<version>, otherwise the not-found handler\'s plain-text 404', async () => {
    const app = await server();
    const group = (await app.inject({ url: '/apis/apps' })).json();
    expect(group).toMatchObject({ kind: 'APIGroup', apiVersion: 'v1', name: 'apps' });
    const list = (await app.inject({ url: '/apis/apps/v1' })).json();
    expect(list.resources.map((r: { name: string }) => r.name)).toContain('deployments/scale');
    expect((await app.inject({ url: '/api/v1' })).json().groupVersion).toBe('v1');
    // Generated clients add a trailing slash.
    expect((await app.inject({ url: '/api/v1/' })).json().groupVersion).toBe('v1');
    expect((await app.inject({ url: '/apis/apps/' })).json().name).toBe('apps');
    expect((await app.inject({ url: '/apis/apps/v1/' })).json().groupVersion).toBe('apps/v1');
    for (const url of ['/apis/nope', '/apis/apps/v9', '/api/v2', '/apis/autoscaling/v1']) {
      const res = await app.inject({ url });
      expect([res.statusCode, res.headers['content-type'], res.body], url).toEqual([404, 'text/plain; charset=utf-8', '404 page not found\n']);
    }
  });

  it('answers client-go with aggregated v2 under the exact media type, and honours If-None-Match', async () => {
    const app = await server();
    const res = await app.inject({ url: '/apis', headers: { accept: CLIENT_GO_ACCEPT } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(V2);
    expect(res.headers.vary).toBe('Accept');
    const body = res.json();
    expect(body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' });
    const widgets = body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'stable.example.com');
    expect(widgets.versions.map((v: { version: string }) => v.version)).toEqual(['v1', 'v1beta1']);
    const apps = body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'apps');
    expect(apps.versions[0].freshness).toBe('Current');
    expect(apps.versions[0].resources[0]).toEqual({
      resource: 'deployments', responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      scope: 'Namespaced', singularResource: 'deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'], categories: ['all'],
      subresources: [
        { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
          verbs: ['get', 'patch', 'update'] },
        { subresource: 'status', responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
          verbs: ['get', 'patch', 'update'] },
      ],
    });

    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    const again = await app.inject({ url: '/apis', headers: { accept: CLIENT_GO_ACCEPT, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers /api aggregated with one nameless group, v2beta1 when asked', async () => {
    const app = await server();
    const res = await app.inject({ url: '/api', headers: { accept: `${V2BETA1},application/json` } });
    expect(res.headers['content-type']).toBe(V2BETA1);
    const body = res.json();
    expect(body.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    expect(body.items).toHaveLength(1);
    expect(body.items[0].metadata).toEqual({ creationTimestamp: null });
    const pods = body.items[0].versions[0].resources.find((r: { resource: string }) => r.resource === 'pods');
    expect(pods.responseKind).toEqual({ group: '', version: 'v1', kind: 'Pod' });
    expect(pods.subresources.map((s: { subresource: string }) => s.subresource))
      .toEqual(['binding', 'eviction', 'exec', 'log', 'status']);
  });

  it('follows the source: a group-version added at run time shows up and changes the ETag', async () => {
    let served: GroupVersion[] = [coreV1, appsV1];
    const app = await server(() => served);
    const before = await app.inject({ url: '/apis', headers: { accept: CLIENT_GO_ACCEPT } });
    expect(before.json().items).toHaveLength(1);
    expect((await app.inject({ url: '/apis/stable.example.com/v1' })).statusCode).toBe(404);
    served = [...served, widgetsV1];
    const after = await app.inject({ url: '/apis', headers: { accept: CLIENT_GO_ACCEPT } });
    expect(after.json().items).toHaveLength(2);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await app.inject({ url: '/apis/stable.example.com/v1' })).statusCode).toBe(200);
  });
});
