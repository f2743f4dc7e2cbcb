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
});
