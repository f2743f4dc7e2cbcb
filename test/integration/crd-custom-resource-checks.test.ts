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
