// Core's metadata rules for built-in kinds beyond apimachinery's: a finalizer with a bare name must be a standard
// one (validateKubeFinalizerName), on create and update; custom resources keep apimachinery's rules alone. An Event
// may own nothing (BannedOwners).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', controllers: [] }); });
afterAll(async () => { await s?.close(); });

const CMS = '/api/v1/namespaces/default/configmaps';
const NOT_QUALIFIED = 'name is neither a standard finalizer name nor is it fully qualified';

describe('finalizer names of built-in kinds', () => {
  it('refuses a bare name that is not a standard finalizer, on create and on update', async () => {
    const bad = await s.api('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f1', finalizers: ['example.com/ok', 'bad_name'] } });
    expect([bad.status, bad.body.reason, bad.body.message]).toEqual([422, 'Invalid',
      `ConfigMap "f1" is invalid: metadata.finalizers[1]: Invalid value: "bad_name": ${NOT_QUALIFIED}`]);
    expect((await s.api('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f2', finalizers: ['orphan'] } })).status).toBe(201);
    const update = await s.api('PATCH', `${CMS}/f2`, { metadata: { finalizers: ['orphan', 'other'] } }, { 'content-type': 'application/merge-patch+json' });
    expect([update.status, update.body.message]).toEqual([422, `ConfigMap "f2" is invalid: metadata.finalizers[1]: Invalid value: "other": ${NOT_QUALIFIED}`]);
    await s.api('PATCH', `${CMS}/f2`, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
  });

  it('lets an Event own nothing', async () => {
    const r = await s.api('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: '1' }] } });
    expect([r.status, r.body.message]).toEqual([422,
      'ConfigMap "owned" is invalid: metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"e", UID:"1", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner']);
  });
});
