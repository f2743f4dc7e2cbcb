// What a custom resource is checked against, as upstream 1.32 checks it: embedded resources (apiVersion a
// group/version, kind a mixed-case DNS-1035 label, valid metadata; a non-string apiVersion refused while decoding).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [] });
  const created = await s.api('POST', CRDS, {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: 'checks.crcheck.example.com' },
    spec: {
      group: 'crcheck.example.com', scope: 'Namespaced',
      names: { plural: 'checks', singular: 'check', kind: 'Check' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
                  templates: { type: 'object', additionalProperties: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
                },
              },
            },
          },
        },
      }],
    },
  });
  expect(created.status).toBe(201);
  const deadline = Date.now() + 10_000;
  while ((await s.api('GET', `${CHECKS}`)).status !== 200) {
    if (Date.now() > deadline) throw new Error('checks not served in time');
    await new Promise((r) => setTimeout(r, 20));
  }
});
afterAll(async () => { await s?.close(); });

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CHECKS = '/apis/crcheck.example.com/v1/namespaces/default/checks';
const check = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'crcheck.example.com/v1', kind: 'Check', metadata: { name }, spec });
const causes = (body: { details?: { causes?: Array<{ field: string; message: string }> } }): string[] =>
  (body.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);

describe('embedded resources', () => {
  it('checks apiVersion, kind and metadata as upstream\'s objectmeta validation', async () => {
    const bad = await s.api('POST', CHECKS, check('bad', {
      template: { apiVersion: 'a/b/c', kind: 'no_such', metadata: { labels: { 'bad key': 'x' } } },
      templates: { one: { metadata: { name: 'a/b' } } },
    }));
    expect(bad.status).toBe(422);
    expect(causes(bad.body)).toEqual([
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      'spec.template.kind: Invalid value: "no_such": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')',
      'spec.template.metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      'spec.templates[one].apiVersion: Required value: must not be empty',
      'spec.templates[one].kind: Required value: must not be empty',
      'spec.templates[one].metadata.name: Invalid value: "a/b": may not contain \'/\'',
    ]);
    const empty = await s.api('POST', CHECKS, check('empty', { template: { apiVersion: '', kind: '' } }));
    expect(causes(empty.body)).toEqual([
      'spec.template.apiVersion: Invalid value: "": must not be empty',
      'spec.template.kind: Invalid value: "": must not be empty',
    ]);
    const good = await s.api('POST', CHECKS, check('good', { template: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { labels: { app: 'x' } } } }));
    expect(good.status).toBe(201);
  });

  it('refuses a non-string apiVersion or kind while decoding, with 400', async () => {
    const r = await s.api('POST', CHECKS, check('num', { template: { apiVersion: 1, kind: 'Pod' } }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ reason: 'BadRequest', message: 'Check in version "v1" cannot be handled as a Check: spec.template.apiVersion: Invalid value: 1: must be a string' });
    const obj = await s.api('POST', CHECKS, check('obj', { templates: { a: { apiVersion: 'v1', kind: { x: 'y' } } } }));
    expect(obj.body.message).toBe('Check in version "v1" cannot be handled as a Check: spec.templates[a].kind: Invalid value: map[string]interface {}{"x":"y"}: must be a string');
  });
});

// Upstream's schemaCoercingDecoder decodes the metadata of a custom resource into ObjectMeta (objectmeta.GetObjectMeta:
// the map marshaled again, its keys sorted, and json.Unmarshal'd), so a time that does not parse, or a field of the
// wrong JSON type, is the decoder's error, as for a built-in kind.
describe('metadata decoded as ObjectMeta', () => {
  const cannotHandle = (error: string): string => `Check in version "v1" cannot be handled as a Check: ${error}`;
  const badTime = (v: string): string => `parsing time "${v}" as "2006-01-02T15:04:05Z07:00": cannot parse "${v}" as "2006"`;
  const withMeta = (metadata: unknown) => ({ apiVersion: 'crcheck.example.com/v1', kind: 'Check', metadata, spec: {} });

  it('refuses a create or update whose metadata does not decode, with 400', async () => {
    const post = async (metadata: unknown): Promise<[number, string]> => {
      const r = await s.api('POST', CHECKS, withMeta(metadata));
      return [r.status, r.body.message];
    };
    expect(await post({ name: 't1', creationTimestamp: 'bad' })).toEqual([400, cannotHandle(badTime('bad'))]);
    expect(await post({ name: 't2', deletionTimestamp: 'soon' })).toEqual([400, cannotHandle(badTime('soon'))]);
    expect(await post({ name: 't3', managedFields: [{ manager: 'm', operation: 'Update', time: 'then' }] })).toEqual([400, cannotHandle(badTime('then'))]);
    // the keys in Go's order, sorted: creationTimestamp before deletionTimestamp; a time's error before a type error
    expect(await post({ name: 't4', labels: 5, deletionTimestamp: 'later', creationTimestamp: 'first' })).toEqual([400, cannotHandle(badTime('first'))]);
    expect(await post({ name: 't5', creationTimestamp: 5 })).toEqual([400, cannotHandle('json: cannot unmarshal number into Go value of type string')]);
    expect(await post({ name: 't6', labels: 5 })).toEqual([400, cannotHandle('json: cannot unmarshal number into Go struct field ObjectMeta.labels of type map[string]string')]);
    expect(await post({ name: 't7', labels: { a: 5 } })).toEqual([400, cannotHandle('json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string')]);
    expect(await post({ name: 't8', generation: 'x' })).toEqual([400, cannotHandle('json: cannot unmarshal string into Go struct field ObjectMeta.generation of type int64')]);
    expect(await post('t9')).toEqual([400, cannotHandle('json: cannot unmarshal string into Go value of type v1.ObjectMeta')]);
    expect((await s.api('GET', `${CHECKS}?fieldSelector=metadata.name%3Dt1`)).body.items).toEqual([]);

    const created = await s.api('POST', CHECKS, withMeta({ name: 'timed', creationTimestamp: '2026-01-02T03:04:05+02:00', labels: null }));
    expect(created.status).toBe(201);
    const put = await s.api('PUT', `${CHECKS}/timed`, withMeta({ ...created.body.metadata, deletionTimestamp: 'never' }));
    expect([put.status, put.body.message]).toEqual([400, cannotHandle(badTime('never'))]);
  });

  it('refuses a merge or JSON patch whose result does not decode, with 422 on "patch"; an apply is the field manager\'s', async () => {
    expect((await s.api('POST', CHECKS, withMeta({ name: 'patched' }))).status).toBe(201);
    const merge = await s.api('PATCH', `${CHECKS}/patched`, { metadata: { deletionTimestamp: 'bad' } }, { 'content-type': 'application/merge-patch+json' });
    expect([merge.status, merge.body.reason]).toEqual([422, 'Invalid']);
    expect(merge.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'patch', message: expect.stringMatching(/"deletionTimestamp\\":\\"bad\\".*: parsing time "bad" as /) }]);
    const json = await s.api('PATCH', `${CHECKS}/patched`, [{ op: 'add', path: '/metadata/labels', value: 'x' }], { 'content-type': 'application/json-patch+json' });
    expect([json.status, json.body.details.causes[0].message]).toEqual([422,
      expect.stringMatching(/: json: cannot unmarshal string into Go struct field ObjectMeta\.labels of type map\[string\]string$/)]);
    // the field manager converts without decoding the metadata, and the server sets creationTimestamp over it
    const applied = await s.api('PATCH', `${CHECKS}/applied?fieldManager=t`, withMeta({ name: 'applied', creationTimestamp: 'bad' }), { 'content-type': 'application/apply-patch+yaml' });
    expect(applied.status).toBe(201);
    expect(applied.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('refuses an embedded resource\'s metadata that does not decode, on its path', async () => {
    const r = await s.api('POST', CHECKS, check('embedded', { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', creationTimestamp: 'bad' } } }));
    expect([r.status, r.body.message]).toEqual([400,
      cannotHandle(`spec.template.metadata: Invalid value: map[string]interface {}{"creationTimestamp":"bad", "name":"p"}: ${badTime('bad')}`)]);
  });
});
