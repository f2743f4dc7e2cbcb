// PUT /api/v1/namespaces/<name>/finalize as upstream's namespaceFinalizeStrategy: the body's spec.finalizers are
// validated entry by entry (ValidateNamespaceFinalizeUpdate), its metadata changes apply, only status is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', controllers: [] });
}, 30_000);
afterAll(async () => {
  await s?.close();
});

const finalize = async (name: string, change: (ns: any) => void) => {
  const ns = (await s.api('GET', `/api/v1/namespaces/${name}`)).body;
  change(ns);
  return s.api('PUT', `/api/v1/namespaces/${name}/finalize`, ns);
};

describe('namespaces/finalize', () => {
  it('refuses a finalizer neither standard nor qualified, naming its index', async () => {
    await s.api('POST', '/api/v1/namespaces', { metadata: { name: 'fin-bad' } });
    const r = await finalize('fin-bad', (ns) => { ns.spec = { finalizers: ['example.com/x', 'bad_name'] }; });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Namespace "fin-bad" is invalid: spec.finalizers[1]: Invalid value: "bad_name": name is neither a standard finalizer name nor is it fully qualified');
    expect(r.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.finalizers[1]', message: 'Invalid value: "bad_name": name is neither a standard finalizer name nor is it fully qualified' }]);
    expect((await s.api('GET', '/api/v1/namespaces/fin-bad')).body.spec).toEqual({ finalizers: ['kubernetes'] });
  });

  it('applies the metadata changes, keeps the status and the name label', async () => {
    await s.api('POST', '/api/v1/namespaces', { metadata: { name: 'fin-meta' } });
    const r = await finalize('fin-meta', (ns) => {
      ns.metadata.labels = { via: 'finalize' };
      ns.spec = { finalizers: ['example.com/x'] };
      ns.status = { phase: 'Terminating' };
    });
    expect(r.status).toBe(200);
    const got = (await s.api('GET', '/api/v1/namespaces/fin-meta')).body;
    expect(got.metadata.labels).toEqual({ via: 'finalize', 'kubernetes.io/metadata.name': 'fin-meta' });
    expect(got.spec).toEqual({ finalizers: ['example.com/x'] });
    expect(got.status).toEqual({ phase: 'Active' });
  });

  it('a body without spec.finalizers empties them', async () => {
    await s.api('POST', '/api/v1/namespaces', { metadata: { name: 'fin-none' } });
    const r = await finalize('fin-none', (ns) => { delete ns.spec; });
    expect(r.status).toBe(200);
    expect(r.body.spec).toEqual({});
    expect((await s.api('GET', '/api/v1/namespaces/fin-none')).body.spec).toEqual({});
  });

  it('validates the metadata as an update of it', async () => {
    await s.api('POST', '/api/v1/namespaces', { metadata: { name: 'fin-label' } });
    const r = await finalize('fin-label', (ns) => { ns.metadata.labels = { 'bad key!': 'x' }; });
    expect(r.status).toBe(422);
    expect(r.body.details.causes.map((c: { field: string }) => c.field)).toEqual(['metadata.labels']);
  });
});
