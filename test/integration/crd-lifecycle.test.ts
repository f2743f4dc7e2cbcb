// A CRD's life as upstream's apiextensions controllers run it: deletion waits for its custom resources (Terminating
// InstanceDeletionInProgress, InstanceDeletionCheck after the wait times out, retried until the last one goes, then
// InstanceDeletionCompleted with the finalizer gone); names clashing with another CRD's are refused one by one, the
// last conflict naming the reason, while an established CRD stays established under the names it has; a deprecated
// version answers every request with a Warning header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalizerTiming } from '../../pkg/registry/customresources/controller.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { openWatch } from '../support/watch-stream.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [] }); });
afterAll(async () => { await s?.close(); });

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

const crd = (plural: string, kind: string, shortNames: string[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.life.example.com` },
  spec: {
    group: 'life.example.com', scope: 'Cluster',
    names: { plural, kind, shortNames },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
});

async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await check();
    if (r) return r;
    if (Date.now() > deadline) throw new Error(`${what}: not met in time`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

type Cond = { type: string; status: string; reason: string; message: string };
const condition = async (name: string, type: string): Promise<Cond | undefined> =>
  ((await s.api('GET', `${CRDS}/${name}`)).body.status?.conditions as Cond[] | undefined)?.find((c) => c.type === type);
const established = (name: string) => eventually(async () => (await condition(name, 'Established'))?.status === 'True', `${name} established`);

describe('CRD deletion', () => {
  it('waits for a custom resource held by a finalizer past the deletion check\'s deadline, then finalizes the CRD', async () => {
    expect((await s.api('POST', CRDS, crd('holds', 'Hold', []))).status).toBe(201);
    await established('holds.life.example.com');
    const cr = await s.api('POST', '/apis/life.example.com/v1/holds', { apiVersion: 'life.example.com/v1', kind: 'Hold', metadata: { name: 'h', finalizers: ['example.com/keep'] } });
    expect(cr.status).toBe(201);
    const watch = await openWatch(`${s.url}${CRDS}?watch=true&fieldSelector=metadata.name%3Dholds.life.example.com`, s.agent);
    try {
      expect((await s.api('DELETE', `${CRDS}/holds.life.example.com`)).status).toBe(200);
      const reasons = () => watch.events.map((e) => e.object.status?.conditions?.find((c: Cond) => c.type === 'Terminating')?.reason as string | undefined);
      await watch.until(() => reasons().includes('InstanceDeletionInProgress'), 10_000, 'InstanceDeletionInProgress');
      expect(await condition('holds.life.example.com', 'Terminating')).toMatchObject({ status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
      expect(reasons()).toContain('InstanceDeletionPending');
      // the check gives up (at once, here): recorded, and tried again
      finalizerTiming.timeoutMs = 0;
      await watch.until(() => reasons().includes('InstanceDeletionCheck'), 10_000, 'InstanceDeletionCheck');
      const check = watch.events.map((e) => e.object.status.conditions.find((c: Cond) => c.type === 'Terminating')).find((c: Cond) => c?.reason === 'InstanceDeletionCheck');
      expect(check).toMatchObject({ status: 'True', message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition' });
      finalizerTiming.timeoutMs = 60_000;
      // still served for reads and deletes, the object is waiting for its finalizer
      const held = await s.api('GET', '/apis/life.example.com/v1/holds/h');
      expect(held.body.metadata.deletionTimestamp).toBeDefined();
      // but no creates: upstream's crdHandler answers NewMethodNotSupported's Status, its message replaced, before
      // the body is read (this one does not decode)
      const refused = await s.api('POST', '/apis/life.example.com/v1/holds', { apiVersion: 'life.example.com/v1', kind: 'Hold', metadata: { name: 5 } });
      expect([refused.status, refused.body]).toEqual([405, {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'create not allowed while custom resource definition is terminating',
        reason: 'MethodNotAllowed', details: { group: 'life.example.com', kind: 'holds' }, code: 405,
      }]);
      expect((await s.api('PATCH', '/apis/life.example.com/v1/holds/h', { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
      await watch.until((evs) => evs.some((e) => e.type === 'DELETED'), 10_000, 'the CRD deleted');
      // the status write that records InstanceDeletionCompleted takes the last finalizer off: as upstream's store, it
      // deletes instead of writing, and the DELETED event carries the CRD as last stored
      const last = watch.events.find((e) => e.type === 'DELETED')!.object;
      expect(last.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
      expect(last.status.conditions.find((c: Cond) => c.type === 'Terminating')).toMatchObject({ status: 'True', reason: 'InstanceDeletionInProgress' });
    } finally {
      finalizerTiming.timeoutMs = 60_000;
      watch.close();
    }
    expect((await s.api('GET', '/apis/life.example.com/v1/holds')).status).toBe(404);
  });
});

describe('CRD names', () => {
  it('accepts the names that are free, reports the last conflict and keeps an established CRD served', async () => {
    expect((await s.api('POST', CRDS, crd('widgets', 'Widget', ['w']))).status).toBe(201);
    expect((await s.api('POST', CRDS, crd('gadgets', 'Gadget', ['g']))).status).toBe(201);
    await established('widgets.life.example.com');
    await established('gadgets.life.example.com');
    // kind and listKind of an established CRD are immutable: singular and shortNames may clash
    const rename = async (names: object): Promise<void> => {
      const r = await s.api('PATCH', `${CRDS}/gadgets.life.example.com`, { spec: { names } }, { 'content-type': 'application/merge-patch+json' });
      expect(r.body.message ?? '').toBe('');
    };
    await rename({ singular: 'widget', shortNames: ['w'], categories: ['toys'] });
    const refused = await eventually(async () => {
      const c = await condition('gadgets.life.example.com', 'NamesAccepted');
      return c?.status === 'False' && c;
    }, 'NamesAccepted=False');
    expect(refused).toMatchObject({ reason: 'ShortNamesConflict', message: '"w" is already in use' });
    let got = (await s.api('GET', `${CRDS}/gadgets.life.example.com`)).body;
    expect(got.status.acceptedNames).toEqual({ plural: 'gadgets', singular: 'gadget', shortNames: ['g'], kind: 'Gadget', listKind: 'GadgetList', categories: ['toys'] });
    expect(got.status.conditions.find((c: Cond) => c.type === 'Established')).toMatchObject({ status: 'True', reason: 'InitialNamesAccepted' });
    // still served, under its accepted names
    const created = await s.api('POST', '/apis/life.example.com/v1/gadgets', { apiVersion: 'life.example.com/v1', kind: 'Gadget', metadata: { name: 'x' } });
    expect(created.status).toBe(201);
    expect((await s.kubectl('get', 'toys', '-o', 'name')).stdout).toBe('gadget.life.example.com/x\n');

    // a free singular is taken while the shortName still clashes
    await rename({ singular: 'gizmo' });
    await eventually(async () => (await s.api('GET', `${CRDS}/gadgets.life.example.com`)).body.status.acceptedNames.singular === 'gizmo', 'singular accepted');
    got = (await s.api('GET', `${CRDS}/gadgets.life.example.com`)).body;
    expect(got.status.conditions.find((c: Cond) => c.type === 'NamesAccepted')).toMatchObject({ status: 'False', reason: 'ShortNamesConflict' });
    expect((await s.kubectl('get', 'gizmo', 'x', '-o', 'name')).stdout).toBe('gadget.life.example.com/x\n');
    await rename({ shortNames: ['g'] });
    await eventually(async () => (await condition('gadgets.life.example.com', 'NamesAccepted'))?.status === 'True', 'NamesAccepted=True');
  });
});

describe('deprecated versions', () => {
  it('warn on every request, with the deprecationWarning or upstream\'s default naming the newest served version', async () => {
    const version = (name: string, extra: object = {}) => ({ name, served: true, storage: name === 'v1', subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, ...extra });
    const def = {
      ...crd('things', 'Thing', []),
      spec: {
        ...crd('things', 'Thing', []).spec,
        versions: [version('v1alpha1', { deprecated: true }), version('v1beta1', { deprecated: true, deprecationWarning: 'v1beta1 things go away in 2.0' }),
          version('v1'), version('v2beta1'), version('v3', { deprecated: true })],
      },
    };
    expect((await s.api('POST', CRDS, def)).status).toBe(201);
    await established('things.life.example.com');
    const warning = async (method: string, path: string, body?: unknown): Promise<unknown> => {
      const r = await s.api(method, path, body, body ? { 'content-type': 'application/merge-patch+json' } : {});
      return r.headers.warning;
    };
    const created = await s.api('POST', '/apis/life.example.com/v1alpha1/things', { apiVersion: 'life.example.com/v1alpha1', kind: 'Thing', metadata: { name: 't' } });
    expect(created.status).toBe(201);
    expect(created.headers.warning).toBe('299 - "life.example.com/v1alpha1 Thing is deprecated; use life.example.com/v1 Thing"');
    expect(await warning('GET', '/apis/life.example.com/v1alpha1/things')).toBe('299 - "life.example.com/v1alpha1 Thing is deprecated; use life.example.com/v1 Thing"');
    expect(await warning('GET', '/apis/life.example.com/v1beta1/things/t')).toBe('299 - "v1beta1 things go away in 2.0"');
    expect(await warning('PATCH', '/apis/life.example.com/v1beta1/things/t/status', { status: { ok: true } })).toBe('299 - "v1beta1 things go away in 2.0"');
    // no newer version to recommend
    expect(await warning('GET', '/apis/life.example.com/v3/things/t')).toBe('299 - "life.example.com/v3 Thing is deprecated"');
    expect(await warning('GET', '/apis/life.example.com/v1/things/t')).toBeUndefined();
    expect(await warning('GET', '/apis/life.example.com/v2beta1/things/t')).toBeUndefined();
    // a watch's response carries it too, with the chain's Audit-Id
    const watch = await s.api('GET', '/apis/life.example.com/v1alpha1/things?watch=true&timeoutSeconds=1');
    expect(watch.headers.warning).toBe('299 - "life.example.com/v1alpha1 Thing is deprecated; use life.example.com/v1 Thing"');
    expect(String(watch.headers['audit-id'])).toMatch(/^[0-9a-f-]{36}$/);
  });
});
