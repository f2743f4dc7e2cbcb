// pkg/client against a real apiserver over HTTPS with the admin kubeconfig: CRUD, every patch type, server-side
// apply, the status, scale and binding subresources, YAML, paging, delete collections and typed errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, isAlreadyExists, isConflict, isInvalid, isNotFound, loadKubeconfig, Resources, StatusError } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let c: Client;

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0, userAgent: 'client-crud-test' });
  await c.namespaces().create({ metadata: { name: 'crud' } });
});
afterAll(async () => {
  await c?.close();
  await s?.close();
});

const deployment = (name: string, replicas = 1) => ({
  metadata: { name, labels: { app: name } },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

describe('pkg/client against a real apiserver', () => {
  it('creates, gets, lists, updates and deletes, with typed errors', async () => {
    const cms = c.configMaps('crud');
    const created = await cms.create({ metadata: { name: 'a', labels: { t: 'x' } }, data: { k: 'v' } });
    expect(created).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'crud' } });
    expect(isAlreadyExists(await cms.create({ metadata: { name: 'a' } }).catch((e: unknown) => e))).toBe(true);
    const got = await cms.get('a');
    expect(got.data).toEqual({ k: 'v' });
    const updated = await cms.update({ ...got, data: { k: 'w' } });
    expect(Number(updated.metadata!.resourceVersion)).toBeGreaterThan(Number(got.metadata!.resourceVersion));
    expect(isConflict(await cms.update({ ...got, data: { k: 'stale' } }).catch((e: unknown) => e))).toBe(true);
    expect((await c.configMaps().list({ labelSelector: 't=x' })).items.map((i) => i.metadata!.name)).toEqual(['a']);
    await cms.delete('a');
    const missing = await cms.get('a').catch((e: unknown) => e);
    expect(isNotFound(missing)).toBe(true);
    expect(missing).toBeInstanceOf(StatusError);
    expect((missing as StatusError).message).toBe('configmaps "a" not found');
    const invalid = await cms.create({ metadata: { name: 'Not_Valid' } }).catch((e: unknown) => e);
    expect(isInvalid(invalid)).toBe(true);
  });

  it('patches with json, merge and strategic patches', async () => {
    const deps = c.deployments('crud');
    await deps.create(deployment('p'));
    await deps.patch('p', 'json', [{ op: 'replace', path: '/spec/replicas', value: 2 }]);
    await deps.patch('p', 'merge', { metadata: { labels: { merged: 'yes' } } });
    const d = await deps.patch('p', 'strategic', { spec: { template: { spec: { containers: [{ name: 'side', image: 'busybox' }] } } } });
    expect(d.spec.replicas).toBe(2);
    expect(d.metadata!.labels).toMatchObject({ app: 'p', merged: 'yes' });
    expect(d.spec.template.spec.containers.map((x: { name: string }) => x.name).sort()).toEqual(['c', 'side']);
  });

  it('applies server-side: conflicts between managers unless forced', async () => {
    const cms = c.configMaps('crud');
    const applied = await cms.apply({ metadata: { name: 'ssa' }, data: { a: '1' } }, { fieldManager: 'one' });
    expect(applied.data).toEqual({ a: '1' });
    expect(applied.metadata!.managedFields?.[0]?.manager).toBe('one');
    const clash = await cms.apply({ metadata: { name: 'ssa' }, data: { a: '2' } }, { fieldManager: 'two' }).catch((e: unknown) => e);
    expect(isConflict(clash)).toBe(true);
    const forced = await cms.apply({ metadata: { name: 'ssa' }, data: { a: '2' } }, { fieldManager: 'two', force: true });
    expect(forced.data).toEqual({ a: '2' });
  });

  it('updates status through the status subresource only, and scales through scale', async () => {
    const deps = c.deployments('crud');
    const d = await deps.create(deployment('st', 1));
    const withStatus = await deps.updateStatus({ ...d, spec: { ...d.spec, replicas: 9 }, status: { observedGeneration: 1, replicas: 1 } });
    expect(withStatus.status).toMatchObject({ replicas: 1 });
    expect(withStatus.spec.replicas).toBe(1); // spec changes are ignored on status
    const scale = await deps.scale('st', 4);
    expect(scale.spec?.replicas).toBe(4);
    expect((await deps.getScale('st')).spec?.replicas).toBe(4);
    expect((await deps.get('st')).spec.replicas).toBe(4);
  });

  it('binds a pod to a node through pods/binding', async () => {
    await c.nodes().create({ metadata: { name: 'node-1' } });
    const pods = c.pods('crud');
    await pods.create({ metadata: { name: 'p1' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const stale = await s.api('POST', '/api/v1/namespaces/crud/pods/p1/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p1', uid: 'not-its-uid' }, target: { name: 'node-1' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('Precondition failed: UID in precondition: not-its-uid');
    await pods.bind('p1', 'node-1');
    expect((await pods.get('p1')).spec.nodeName).toBe('node-1');
    await expect(pods.bind('p1', 'node-1')).rejects.toThrow('pod p1 is already assigned to node "node-1"');
  });

  it('pages with listAll, deletes collections, and speaks YAML', async () => {
    const cms = c.configMaps('crud');
    for (let i = 0; i < 7; i++) await cms.create({ metadata: { name: `page-${i}`, labels: { page: 'yes' } } });
    const all = await cms.listAll({ labelSelector: 'page=yes', limit: 3 });
    expect(all.items).toHaveLength(7);
    expect(all.metadata.continue).toBeUndefined();
    await cms.deleteCollection({ labelSelector: 'page=yes' });
    expect((await cms.list({ labelSelector: 'page=yes' })).items).toHaveLength(0);
    const y = await cms.create({ metadata: { name: 'yaml' }, data: { x: 'y' } }, { format: 'yaml' });
    expect(y).toMatchObject({ kind: 'ConfigMap', data: { x: 'y' } });
    expect((await cms.get('yaml', { format: 'yaml' })).data).toEqual({ x: 'y' });
  });

  it('the dynamic client reaches any resource, and a watch streams typed events', async () => {
    const leases = c.resource(Resources.leases, 'crud');
    const ac = new AbortController();
    const w = await leases.watch({ signal: ac.signal, allowWatchBookmarks: true, resourceVersion: '0' });
    await leases.create({ metadata: { name: 'l1' }, spec: { holderIdentity: 'me' } });
    for await (const ev of w) {
      if (ev.type === 'ADDED' && ev.object.metadata?.name === 'l1') break;
    }
    w.stop();
    expect((await leases.get('l1')).spec.holderIdentity).toBe('me');
  });

  it('a deletion moves the generation on; taking the last finalizer off deletes without writing the update: one DELETED, of the object as stored', async () => {
    const cms = c.configMaps('crud');
    const made = await cms.create({ metadata: { name: 'fin', finalizers: ['example.com/hold'] }, data: { a: 'b' } });
    expect(made.metadata?.generation).toBeUndefined(); // a ConfigMap has none to move
    const deps = c.deployments('crud');
    await deps.create({ ...deployment('fin-dep'), metadata: { name: 'fin-dep', finalizers: ['example.com/hold'] } });
    await deps.delete('fin-dep');
    const marked = await deps.get('fin-dep');
    expect(marked.metadata).toMatchObject({ generation: 2, deletionGracePeriodSeconds: 0 });
    await deps.delete('fin-dep'); // marked already: no second move
    expect((await deps.get('fin-dep')).metadata?.generation).toBe(2);
    await deps.patch('fin-dep', 'json', [{ op: 'remove', path: '/metadata/finalizers' }]);

    await cms.delete('fin');
    const held = await cms.get('fin');
    const ac = new AbortController();
    const w = await cms.watch({ signal: ac.signal, resourceVersion: held.metadata!.resourceVersion, fieldSelector: 'metadata.name=fin' });
    const answered = await cms.patch('fin', 'merge', { metadata: { finalizers: null } });
    expect(answered.metadata?.finalizers).toBeUndefined();
    const seen: { type: string; finalizers?: unknown }[] = [];
    for await (const ev of w) {
      seen.push({ type: ev.type, finalizers: ev.object.metadata?.finalizers });
      if (ev.type === 'DELETED') break;
    }
    w.stop();
    expect(seen).toEqual([{ type: 'DELETED', finalizers: ['example.com/hold'] }]);
    await expect(cms.get('fin')).rejects.toMatchObject({ code: 404 });
  });

  it('a status apply owns no metadata field its status strategy keeps as stored (a Deployment\'s labels)', async () => {
    await c.deployments('crud').create(deployment('st-apply'));
    const r = await s.api('PATCH', '/apis/apps/v1/namespaces/crud/deployments/st-apply/status?fieldManager=st', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'st-apply', labels: { zz: '1' } }, status: { observedGeneration: 1 },
    }, { 'content-type': 'application/apply-patch+yaml' });
    expect(r.status).toBe(200);
    expect(r.body.metadata.labels?.zz).toBeUndefined();
    const entry = r.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'st');
    expect(entry).toMatchObject({ operation: 'Apply', subresource: 'status', fieldsV1: { 'f:status': { 'f:observedGeneration': {} } } });
    expect(entry.fieldsV1['f:metadata']).toBeUndefined();
  });
});
