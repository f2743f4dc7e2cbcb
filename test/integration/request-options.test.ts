// A write's query options as upstream's handlers check them: ValidateCreateOptions and its siblings answer 422 on
// the options' kind (meta.k8s.io CreateOptions, PatchOptions, DeleteOptions); reads ignore write options; a query
// boolean is false only for "0" or "false".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.close();
});

const CMS = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });

describe('write options', () => {
  it('refuses bad create, patch and delete options with a 422 on their kind', async () => {
    const dry = await s.api('POST', `${CMS}?dryRun=Foo`, cm('x'));
    expect(dry.status).toBe(422);
    expect(dry.body.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Foo"}: supported values: "All"');
    expect(dry.body.details).toMatchObject({ group: 'meta.k8s.io', kind: 'CreateOptions' });
    const validation = await s.api('POST', `${CMS}?fieldValidation=Bogus`, cm('x'));
    expect(validation.body.message).toBe('CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"');
    const manager = await s.api('POST', `${CMS}?fieldManager=${'m'.repeat(129)}`, cm('x'));
    expect(manager.body.message).toBe('CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    const control = await s.api('POST', `${CMS}?fieldManager=%01x`, cm('x'));
    expect(control.body.message).toBe('CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "\\u0001x": invalid character U+0001 (at position 0)');

    expect((await s.api('POST', CMS, cm('x'))).status).toBe(201);
    const force = await s.api('PATCH', `${CMS}/x?force=false`, { data: { c: 'd' } }, { 'content-type': 'application/merge-patch+json' });
    expect(force.status).toBe(422);
    expect(force.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    // a server-side apply must name its manager, whatever the user agent
    const apply = await s.api('PATCH', `${CMS}/x`, cm('x'), { 'content-type': 'application/apply-patch+yaml', 'user-agent': 'Go-http-client/2.0' });
    expect(apply.status).toBe(422);
    expect(apply.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const del = await s.api('DELETE', `${CMS}/x?dryRun=Bar`);
    expect(del.status).toBe(422);
    expect(del.body.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bar"}: supported values: "All"');
    // a delete has no fieldValidation to check
    expect((await s.api('DELETE', `${CMS}/x?fieldValidation=Bogus&dryRun=All`)).status).toBe(200);
  });

  it('leaves a read\'s write options alone, and reads query booleans as upstream\'s codec', async () => {
    await s.api('POST', CMS, cm('r'));
    expect((await s.api('GET', `${CMS}/r?dryRun=Foo&fieldValidation=Bogus`)).status).toBe(200);
    expect((await s.api('GET', `${CMS}?fieldManager=${'m'.repeat(200)}`)).body.kind).toBe('ConfigMapList');
    // ?watch=yes is a watch (only "0" and "false" are false): it streams until its timeout
    const watch = await s.api('GET', `${CMS}?watch=yes&timeoutSeconds=1`);
    expect(String(watch.headers['content-type'])).toContain('application/json');
    expect(JSON.parse(String(watch.body).split('\n')[0] ?? '{}')).toMatchObject({ type: 'ADDED' });
    const list = await s.api('GET', `${CMS}?watch=False`);
    expect(list.body.kind).toBe('ConfigMapList');
  });

  it('answers as upstream\'s router and filters do: 415, 405, a Status as itself, Audit-Id and Cache-Control', async () => {
    const merge = await s.api('POST', CMS, cm('m'), { 'content-type': 'application/merge-patch+json' });
    expect(merge.status).toBe(415);
    expect(merge.body.message).toBe('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    expect((await s.api('PATCH', `${CMS}/m`, {}, { 'content-type': 'application/json' })).body.message).toBe('415: Unsupported Media Type');
    const put = await s.api('PUT', CMS, cm('m'));
    expect([put.status, put.body.message]).toEqual([405, 'the server does not allow this method on the requested resource']);

    await s.api('POST', CMS, cm('gone'));
    const del = await s.api('DELETE', `${CMS}/gone`, undefined, { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' });
    expect(del.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'gone', kind: 'configmaps' } });

    const got = await s.api('GET', `${CMS}?limit=1`, undefined, { 'audit-id': 'my-request-1' });
    expect(got.headers['audit-id']).toBe('my-request-1');
    expect(got.headers['cache-control']).toBe('no-cache, private');
    expect(String((await s.api('GET', '/version')).headers['audit-id'])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names the Scale in a scale\'s validation error, as upstream\'s scale storages do', async () => {
    await s.api('POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const r = await s.api('PATCH', '/apis/apps/v1/namespaces/default/deployments/d/scale', { spec: { replicas: -1 } }, { 'content-type': 'application/merge-patch+json' });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Scale.autoscaling "d" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('applies a Scale server-side, its managers taking and losing the object\'s replicas as upstream\'s ScaleHandler', async () => {
    const apply = (manager: string, replicas: number, force = false) => s.api('PATCH', `/apis/apps/v1/namespaces/default/deployments/d/scale?fieldManager=${manager}${force ? '&force=true' : ''}`,
      { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'd' }, spec: { replicas } }, { 'content-type': 'application/apply-patch+yaml' });
    // the creator owns the defaulted replicas (as upstream's create records them): taking them needs force
    expect((await apply('scaler-a', 2)).status).toBe(409);
    const first = await apply('scaler-a', 2, true);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ kind: 'Scale', spec: { replicas: 2 } });
    const managersOfReplicas = async () => ((await s.api('GET', '/apis/apps/v1/namespaces/default/deployments/d')).body.metadata.managedFields as Array<Record<string, any>>)
      .filter((e) => e.fieldsV1?.['f:spec']?.['f:replicas']).map((e) => [e.manager, e.operation, e.subresource, e.apiVersion]);
    expect(await managersOfReplicas()).toContainEqual(['scaler-a', 'Apply', 'scale', 'apps/v1']);

    const conflict = await apply('scaler-b', 4);
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toContain('conflict with "scaler-a"');
    const forced = await apply('scaler-b', 4, true);
    expect(forced.status).toBe(200);
    expect((await s.api('GET', '/apis/apps/v1/namespaces/default/deployments/d')).body.spec.replicas).toBe(4);
    expect(await managersOfReplicas()).toEqual([['scaler-b', 'Apply', 'scale', 'apps/v1']]);
    const wrong = await s.api('PATCH', '/apis/apps/v1/namespaces/default/deployments/d/scale?fieldManager=x', { apiVersion: 'v1', kind: 'Secret' }, { 'content-type': 'application/apply-patch+yaml' });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'invalid object type: /v1, Kind=Secret']);
  });
});
