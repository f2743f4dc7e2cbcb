import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { GroupVersion } from '../../../api/types.js';
import { appsV1, coreV1, fixture, widgetsV1 } from '../discovery/fixture.js';
import { definitionPool } from './definitions.js';
import { buildOpenApiV3Documents, groupVersionDocument } from './documents.js';
import { operationInfix, versionTag } from './names.js';
import type { Operation, PathItem } from './operations.js';
import { registerOpenApiV3 } from './v3-routes.js';

const server = async (source: () => GroupVersion[] = fixture) => {
  const app = Fastify();
  registerOpenApiV3(app, source);
  await app.ready();
  return app;
};

const operations = (paths: Record<string, PathItem>): [string, string, Operation][] =>
  Object.entries(paths).flatMap(([p, item]) => (['get', 'put', 'post', 'delete', 'patch'] as const)
    .filter((m) => item[m]).map((m) => [p, m, item[m]!] as [string, string, Operation]));

describe('names', () => {
  it('derives operation infixes and tags as upstream', () => {
    expect(operationInfix('', 'v1')).toBe('CoreV1');
    expect(operationInfix('rbac.authorization.k8s.io', 'v1')).toBe('RbacAuthorizationV1');
    expect(operationInfix('stable.example.com', 'v1beta1')).toBe('StableExampleComV1beta1');
    expect(versionTag('rbac.authorization.k8s.io', 'v1')).toBe('rbacAuthorization_v1');
    expect(versionTag('', 'v1')).toBe('core_v1');
  });
});

describe('group-version document', () => {
  const pool = definitionPool(fixture());
  const core = groupVersionDocument(coreV1, pool);
  const apps = groupVersionDocument(appsV1, pool);

  it('publishes every upstream path and operation id for a namespaced resource', () => {
    const ids = Object.fromEntries(operations(core.paths).map(([p, m, op]) => [`${m} ${p}`, op.operationId]));
    expect(ids).toMatchObject({
      'get /api/v1/': 'getCoreV1APIResources',
      'get /api/v1/namespaces/{namespace}/pods': 'listCoreV1NamespacedPod',
      'post /api/v1/namespaces/{namespace}/pods': 'createCoreV1NamespacedPod',
      'delete /api/v1/namespaces/{namespace}/pods': 'deleteCoreV1CollectionNamespacedPod',
      'get /api/v1/namespaces/{namespace}/pods/{name}': 'readCoreV1NamespacedPod',
      'put /api/v1/namespaces/{namespace}/pods/{name}': 'replaceCoreV1NamespacedPod',
      'patch /api/v1/namespaces/{namespace}/pods/{name}': 'patchCoreV1NamespacedPod',
      'delete /api/v1/namespaces/{namespace}/pods/{name}': 'deleteCoreV1NamespacedPod',
      'get /api/v1/pods': 'listCoreV1PodForAllNamespaces',
      'get /api/v1/watch/namespaces/{namespace}/pods': 'watchCoreV1NamespacedPodList',
      'get /api/v1/watch/namespaces/{namespace}/pods/{name}': 'watchCoreV1NamespacedPod',
      'get /api/v1/watch/pods': 'watchCoreV1PodListForAllNamespaces',
      'get /api/v1/namespaces/{namespace}/pods/{name}/status': 'readCoreV1NamespacedPodStatus',
      'patch /api/v1/namespaces/{namespace}/pods/{name}/status': 'patchCoreV1NamespacedPodStatus',
      'get /api/v1/namespaces/{namespace}/pods/{name}/log': 'readCoreV1NamespacedPodLog',
      'get /api/v1/namespaces/{namespace}/pods/{name}/exec': 'connectCoreV1GetNamespacedPodExec',
      'post /api/v1/namespaces/{namespace}/pods/{name}/exec': 'connectCoreV1PostNamespacedPodExec',
      'post /api/v1/namespaces/{namespace}/pods/{name}/binding': 'createCoreV1NamespacedPodBinding',
      'post /api/v1/namespaces/{namespace}/pods/{name}/eviction': 'createCoreV1NamespacedPodEviction',
      'get /api/v1/namespaces': 'listCoreV1Namespace',
      'get /api/v1/watch/namespaces/{name}': 'watchCoreV1Namespace',
    });
    // Namespaces lack deletecollection, and cluster-scoped kinds have no all-namespaces list.
    expect(ids['delete /api/v1/namespaces']).toBeUndefined();
    expect(Object.values(ids)).not.toContain('listCoreV1NamespaceForAllNamespaces');
    expect(new Set(Object.values(ids)).size).toBe(Object.values(ids).length);
  });

  it('carries actions, GVKs and tags on every resource operation', () => {
    const actions = new Set<string>();
    for (const [, , op] of operations(core.paths)) {
      expect(op.tags).toEqual(['core_v1']);
      if (op.operationId === 'getCoreV1APIResources') continue;
      actions.add(op['x-kubernetes-action']!);
      expect(op['x-kubernetes-group-version-kind']).toBeDefined();
    }
    expect([...actions].sort()).toEqual(
      ['connect', 'delete', 'deletecollection', 'get', 'list', 'patch', 'post', 'put', 'watch', 'watchlist']);
    const scale = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']!;
    expect(scale.get!['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect(scale.get!.operationId).toBe('readAppsV1NamespacedDeploymentScale');
    expect(scale.get!.responses['200']!.content!['application/json']!.schema)
      .toEqual({ $ref: '#/components/schemas/io.k8s.api.autoscaling.v1.Scale' });
  });

  it('lists the PATCH parameters kubectl looks for and the patch content types', () => {
    const patch = core.paths['/api/v1/namespaces/{namespace}/pods/{name}']!.patch!;
    expect(patch.parameters!.map((p) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(Object.keys(patch.requestBody!.content).sort()).toEqual([
      'application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json',
      'application/strategic-merge-patch+json']);
    const list = core.paths['/api/v1/namespaces/{namespace}/pods']!;
    expect(list.get!.parameters!.map((p) => p.name)).toEqual(['allowWatchBookmarks', 'continue', 'fieldSelector',
      'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch']);
    expect(list.parameters!.map((p) => p.name)).toEqual(['namespace', 'pretty']);
    expect(list.delete!.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(
      ['gracePeriodSeconds', 'propagationPolicy', 'orphanDependents', 'labelSelector']));
  });

  it('publishes proxies with and without a trailing path', () => {
    const gv = { ...coreV1, resources: [{ ...coreV1.resources[1]!, plural: 'nodes', kind: 'Node', subresources: [
      { name: 'proxy', group: '', version: 'v1', kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
    ] }] };
    const doc = groupVersionDocument(gv, pool);
    const plain = doc.paths['/api/v1/nodes/{name}/proxy']!;
    const withPath = doc.paths['/api/v1/nodes/{name}/proxy/{path}']!;
    expect(plain.get!.operationId).toBe('connectCoreV1GetNodeProxy');
    expect(plain.get!.parameters!.map((p) => p.name)).toEqual(['path']);
    expect(withPath.put!.operationId).toBe('connectCoreV1PutNodeProxyWithPath');
    expect(withPath.get!.parameters ?? []).toEqual([]);
    expect(withPath.parameters!.map((p) => p.name)).toEqual(['name', 'path']);
    expect(withPath.delete!['x-kubernetes-action']).toBe('connect');
  });

  it('offers strategic merge patch to built-in kinds only', () => {
    const custom = groupVersionDocument(widgetsV1, definitionPool(fixture()));
    const patch = custom.paths['/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}']!.patch!;
    expect(patch.requestBody!.content).not.toHaveProperty('application/strategic-merge-patch+json');
    expect(patch.operationId).toBe('patchStableExampleComV1NamespacedWidget');
    expect(patch.tags).toEqual(['stableExampleCom_v1']);
  });

  it('includes exactly the definitions reachable from its operations', () => {
    const names = Object.keys(apps.components.schemas);
    expect(names).toEqual(expect.arrayContaining([
      'io.k8s.api.apps.v1.Deployment', 'io.k8s.api.apps.v1.DeploymentSpec', 'io.k8s.api.apps.v1.DeploymentList',
      'io.k8s.api.autoscaling.v1.Scale', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'io.k8s.apimachinery.pkg.apis.meta.v1.Status', 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
      'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent', 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
      'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList']));
    expect(names).not.toContain('io.k8s.api.core.v1.Pod');
    expect(names).toEqual([...names].sort());
    const refs = JSON.stringify(apps).match(/#\/components\/schemas\/[^"]+/g) ?? [];
    for (const r of refs) expect(names, r).toContain(r.slice('#/components/schemas/'.length));
  });

  it('lists group, root and version documents', () => {
    expect([...buildOpenApiV3Documents(fixture()).keys()]).toEqual([
      'api', 'api/v1', 'apis', 'apis/apps', 'apis/apps/v1', 'apis/stable.example.com',
      'apis/stable.example.com/v1', 'apis/stable.example.com/v1beta1', 'version']);
    const group = buildOpenApiV3Documents(fixture()).get('apis/apps')!;
    expect(group.paths['/apis/apps/']!.get!.operationId).toBe('getAppsAPIGroup');
  });
});

describe('routes', () => {
  it('indexes every document with its hash and serves it immutable at that hash', async () => {
    const app = await server();
    const index = await app.inject({ url: '/openapi/v3' });
    expect(index.statusCode).toBe(200);
    const { paths } = index.json() as { paths: Record<string, { serverRelativeURL: string }> };
    const url = paths['apis/apps/v1']!.serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const res = await app.inject({ url, headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('public, immutable');
    expect(res.headers.etag).toBe(`"${url.split('hash=')[1]}"`);
    expect(res.json().openapi).toBe('3.0.0');
    const cached = await app.inject({ url, headers: { 'if-none-match': res.headers.etag as string } });
    expect(cached.statusCode).toBe(304);
  });

  it('redirects a stale hash to the current one', async () => {
    const app = await server();
    const current = (await app.inject({ url: '/openapi/v3' })).json().paths['api/v1'].serverRelativeURL as string;
    const res = await app.inject({ url: '/openapi/v3/api/v1?hash=0123' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(current);
  });

  it('answers JSON to a client preferring protobuf, 406 to one that only takes protobuf, 404 for unknown', async () => {
    const app = await server();
    const pb = 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf';
    expect((await app.inject({ url: '/openapi/v3/api/v1', headers: { accept: `${pb},application/json` } }))
      .headers['content-type']).toBe('application/json');
    expect((await app.inject({ url: '/openapi/v3/api/v1', headers: { accept: pb } })).statusCode).toBe(406);
    expect((await app.inject({ url: '/openapi/v3/apis/nope/v1' })).statusCode).toBe(404);
  });

  it('rebuilds when the served set changes', async () => {
    let served: GroupVersion[] = [coreV1];
    const app = await server(() => served);
    expect(Object.keys((await app.inject({ url: '/openapi/v3' })).json().paths)).not.toContain('apis/apps/v1');
    served = [coreV1, appsV1];
    expect(Object.keys((await app.inject({ url: '/openapi/v3' })).json().paths)).toContain('apis/apps/v1');
  });
});
