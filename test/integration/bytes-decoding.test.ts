// A []byte field (a Secret's data, a ConfigMap's binaryData, a webhook's caBundle) decodes base64 as Go's
// encoding/base64 StdEncoding does: what it refuses is never stored, and what it takes is written back canonical.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
});
afterAll(async () => {
  await s?.close();
});

const SECRETS = '/api/v1/namespaces/default/secrets';
const secret = (name: string, data: Record<string, string>): string =>
  `apiVersion: v1\nkind: Secret\nmetadata: {name: ${name}}\ndata: ${JSON.stringify(data)}\n`;

describe('[]byte fields', () => {
  it('refuse what is not padded base64 on create and apply, with the byte offset Go names', async () => {
    const created = await s.kubectlWithInput(secret('pw', { password: 's3cr3t!' }), 'create', '-f', '-');
    expect(created.stderr.trim()).toBe('Error from server (BadRequest): error when creating "STDIN": Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 6');
    const applied = await s.kubectlWithInput(secret('pw', { password: 'YWJ' }), 'apply', '-f', '-');
    expect(applied.stderr).toContain('Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0');
    const serverSide = await s.kubectlWithInput(secret('pw', { password: 'YQ=' }), 'apply', '--server-side', '-f', '-');
    expect(serverSide.stderr.trim()).toBe('Error from server (BadRequest): failed to convert new object (default/pw; /v1, Kind=Secret) to proper version: '
      + 'unable to convert unstructured object to /v1, Kind=Secret: error decoding from json: illegal base64 data at input byte 3');
    const cm = await s.api('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bin' }, binaryData: { blob: 'not base64' } });
    expect([cm.status, cm.body.reason, cm.body.message]).toEqual([400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 3']);
    const hook = await s.api('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' },
      webhooks: [{ name: 'v.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { url: 'https://example.com', caBundle: '-----BEGIN' } }],
    });
    expect([hook.status, hook.body.message]).toEqual([400, 'ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: illegal base64 data at input byte 0']);
    expect((await s.kubectl('get', 'secrets,configmaps,validatingwebhookconfigurations', '--no-headers', '--ignore-not-found', '-o', 'name')).stdout).not.toMatch(/pw|bin|\/v$/m);
  });

  it('write back the standard encoding: no line breaks, no leftover bits', async () => {
    const created = await s.api('POST', SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'wrapped' }, data: { a: 'YWJj\nZGVm\r\nZw==', b: 'YR==' } });
    expect([created.status, created.body.data]).toEqual([201, { a: 'YWJjZGVmZw==', b: 'YQ==' }]);
    expect((await s.kubectl('get', 'secret', 'wrapped', '-o', 'jsonpath={.data.a}')).stdout).toBe('YWJjZGVmZw==');
  });

  it('refuse a patch that makes them so: 422 on "patch", the strategic patcher in its converter\'s words', async () => {
    expect((await s.kubectl('create', 'secret', 'generic', 'patched', '--from-literal=a=b')).code).toBe(0);
    const strategic = await s.kubectl('patch', 'secret', 'patched', '-p', '{"data":{"z":"abc"}}');
    expect(strategic.stderr.trim()).toBe('The request is invalid: patch: Invalid value: "map[data:map[z:abc]]": error decoding from json: illegal base64 data at input byte 0');
    const merge = await s.kubectl('patch', 'secret', 'patched', '--type=merge', '-p', '{"data":{"z":"abc"}}');
    expect(merge.stderr).toMatch(/^The request is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"data\\":\{\\"a\\":\\"Yg==\\",\\"z\\":\\"abc\\"\},.*": illegal base64 data at input byte 0\n$/);
    const json = await s.kubectl('patch', 'secret', 'patched', '--type=json', '-p', '[{"op":"add","path":"/data/z","value":"YWJjZA"}]');
    expect(json.stderr).toMatch(/: illegal base64 data at input byte 4\n$/);
    expect((await s.kubectl('get', 'secret', 'patched', '-o', 'jsonpath={.data}')).stdout).toBe('{"a":"Yg=="}');
  });
});
