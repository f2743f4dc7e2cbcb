// Managed fields as upstream's field manager keeps them, with a real apiserver and the real kubectl: a /scale write
// nobody owned the replicas before is not recorded (ScaleHandler and skipNonApplied), so a later apply of them
// conflicts with nobody; an apply that creates drops a resourceVersion; kubectl's last-applied annotation is dropped
// rather than grown past the annotations' size limit; managedFields sent on an update that do not decode are ignored
// for the live ones, and of a manager sent twice the last entry counts (decodeLiveOrNew); a custom resource's applied
// map-list item without a key field (nor its default) is refused, as structured-merge-diff cannot key it; entries of
// a version the server has no schema of are dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout as ok } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  await ok(s.kubectlWithInput(WIDGET_CRD, 'apply', '-f', '-'));
  await ok(s.kubectl('wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.ssa.example.com'));
});
afterAll(async () => { await s?.close(); });

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.ssa.example.com}
spec:
  group: ssa.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}, scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name, proto]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    proto: {type: string, default: TCP}
                    value: {type: string}
          status:
            type: object
            properties:
              replicas: {type: integer}
`;

type Entry = { manager: string; operation: string; subresource?: string; fieldsV1: Record<string, unknown> };
const managed = async (...what: string[]): Promise<Entry[]> =>
  JSON.parse(await ok(s.kubectl('get', ...what, '-o', 'json', '--show-managed-fields'))).metadata.managedFields;
const applyAs = (manager: string, manifest: string): ReturnType<TestApiServer['kubectl']> =>
  s.kubectlWithInput(manifest, 'apply', '--server-side', `--field-manager=${manager}`, '-f', '-');

const deployment = (name: string, replicas?: number): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:${replicas === undefined ? '' : `\n  replicas: ${replicas}`}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: c, image: nginx}]
`;

describe('/scale writes', () => {
  it('are not recorded while nobody owns the replicas, so a later apply of them does not conflict', async () => {
    await ok(applyAs('A', deployment('unowned')));
    expect(await ok(s.kubectl('scale', 'deploy', 'unowned', '--replicas=3'))).toBe('deployment.apps/unowned scaled\n');
    expect((await managed('deploy', 'unowned')).map((e) => e.manager)).toEqual(['A']);
    const applied = await applyAs('A', deployment('unowned', 5));
    expect(applied.stderr).toBe('');
    expect(JSON.parse(await ok(s.kubectl('get', 'deploy', 'unowned', '-o', 'json'))).spec.replicas).toBe(5);
  });

  it('are recorded when someone owns the replicas, who loses them', async () => {
    await ok(applyAs('A', deployment('owned', 2)));
    await ok(s.kubectl('scale', 'deploy', 'owned', '--replicas=3'));
    const entries = await managed('deploy', 'owned');
    expect(entries.map((e) => [e.manager, e.operation, e.subresource])).toEqual([['A', 'Apply', undefined], ['kubectl', 'Update', 'scale']]);
    expect(entries[1].fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect((await applyAs('A', deployment('owned', 5))).stderr).toContain('conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas');
  });

  it('of a custom resource are not recorded while nobody owns its replicas', async () => {
    await ok(applyAs('A', 'apiVersion: ssa.example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {tags: [a]}\n'));
    await ok(s.kubectl('scale', 'widget', 'w', '--replicas=3'));
    expect((await managed('widget', 'w')).map((e) => e.manager)).toEqual(['A']);
    expect((await applyAs('A', 'apiVersion: ssa.example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {tags: [a], replicas: 5}\n')).stderr).toBe('');
  });
});

describe('an apply that creates', () => {
  it('drops a resourceVersion its configuration gives, as upstream\'s Store.Update; a POST still refuses one', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'newrv', resourceVersion: '987654' }, data: { a: 'b' } };
    const applied = await s.api('PATCH', '/api/v1/namespaces/default/configmaps/newrv?fieldManager=A', cm, { 'content-type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(201);
    expect(applied.body.metadata.resourceVersion).not.toBe('987654');
    const posted = await s.api('POST', '/api/v1/namespaces/default/configmaps', { ...cm, metadata: { ...cm.metadata, name: 'postrv' } });
    expect([posted.status, posted.body.message]).toEqual([400, 'resourceVersion should not be set on objects to be created']);
  });
});

describe('kubectl apply --server-side after a client-side apply', () => {
  it('drops the last-applied annotation it would grow past 256 KiB instead of failing validation', async () => {
    const cm = (data: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: data } });
    await ok(s.kubectlWithInput(cm('1'), 'apply', '-f', '-'));
    expect(await ok(s.kubectlWithInput(cm('x'.repeat(300 * 1024)), 'apply', '--server-side', '-f', '-'))).toBe('configmap/big serverside-applied\n');
    const live = JSON.parse(await ok(s.kubectl('get', 'cm', 'big', '-o', 'json')));
    expect(live.data.a).toHaveLength(300 * 1024);
    expect(live.metadata.annotations).toBeUndefined();
  });
});

describe('managedFields sent on an update', () => {
  const CMS = '/api/v1/namespaces/default/configmaps';
  const sentEntry = { manager: 'edited', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } };
  const put = async (name: string, managedFields: unknown[], data: Record<string, string>) => {
    const live = (await s.api('GET', `${CMS}/${name}`)).body;
    return s.api('PUT', `${CMS}/${name}?fieldManager=putter`, { ...live, metadata: { ...live.metadata, managedFields }, data });
  };

  it('are ignored, the live ones kept, when one of them does not decode', async () => {
    expect((await s.api('POST', `${CMS}?fieldManager=creator`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inv' }, data: { a: '1' } })).status).toBe(201);
    for (const bad of [{ operation: 'Bogus' }, { apiVersion: '' }, { fieldsType: undefined }, { fieldsV1: { 'f:data': { 'k:1': {} } } }]) {
      const r = await put('inv', [sentEntry, { ...sentEntry, manager: 'bad', ...bad }], { a: String(Math.random()) });
      expect(r.status).toBe(200);
      expect(r.body.metadata.managedFields.map((e: { manager: string }) => e.manager)).toEqual(['creator', 'putter']);
    }
  });

  it('keep the last entry of a manager sent twice', async () => {
    expect((await s.api('POST', `${CMS}?fieldManager=creator`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dup' }, data: { a: '1', b: '2' } })).status).toBe(201);
    const r = await put('dup', [sentEntry, { ...sentEntry, fieldsV1: { 'f:data': { 'f:b': {} } } }], { a: '1', b: '2' });
    expect(r.body.metadata.managedFields.map((e: { manager: string; fieldsV1: unknown }) => [e.manager, e.fieldsV1]))
      .toEqual([['edited', { 'f:data': { 'f:b': {} } }]]);
  });
});

describe('entries of a version the server has no schema of', () => {
  it('are dropped at the next write, so their stale ownership conflicts with nobody', async () => {
    const CMS = '/api/v1/namespaces/default/configmaps';
    expect((await s.api('POST', `${CMS}?fieldManager=creator`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'obsolete' }, data: { a: '1' } })).status).toBe(201);
    const live = (await s.api('GET', `${CMS}/obsolete`)).body;
    const old = { manager: 'old', operation: 'Update', apiVersion: 'v0', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } };
    const r = await s.api('PUT', `${CMS}/obsolete?fieldManager=putter`, { ...live, metadata: { ...live.metadata, managedFields: [...live.metadata.managedFields, old] }, data: { a: '1', b: '2' } });
    expect(r.status).toBe(200);
    expect(r.body.metadata.managedFields.map((e: { manager: string }) => e.manager)).toEqual(['creator', 'putter']);
  });
});

describe('an applied map-list item without a key field', () => {
  it('is refused when the field has no default, as structured-merge-diff cannot key it', async () => {
    const widget = (ports: unknown[]): unknown => ({ apiVersion: 'ssa.example.com/v1', kind: 'Widget', metadata: { name: 'keys' }, spec: { ports } });
    const apply = (body: unknown) => s.api('PATCH', '/apis/ssa.example.com/v1/namespaces/default/widgets/keys?fieldManager=A', body, { 'content-type': 'application/apply-patch+yaml' });
    const refused = await apply(widget([{ name: 'a' }, { value: 'x' }, { value: 'y' }]));
    expect([refused.status, refused.body.message]).toEqual([400, 'failed to create typed patch object (/keys; ssa.example.com/v1, Kind=Widget): '
      + '.spec.ports: element 1: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)']);
    // a key field with a default may be left out
    const applied = await apply(widget([{ name: 'a' }]));
    expect(applied.status).toBe(201);
    expect(applied.body.metadata.managedFields[0].fieldsV1['f:spec']['f:ports']).toEqual({ 'k:{"name":"a","proto":"TCP"}': { '.': {}, 'f:name': {} } });
  });
});
