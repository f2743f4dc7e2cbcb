// Server-side apply and updates as kubectl sees them from upstream: a wrong type in an applied configuration is
// structured-merge-diff's 500, and a custom resource without a status subresource counts a status change in its
// generation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { succeeded } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] }); });
afterAll(async () => { await s?.close(); });

const ok = async (...args: string[]): Promise<string> => (await succeeded(s.kubectl(...args), args)).stdout;

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
          status: {type: object, properties: {ready: {type: boolean}}}
`;

describe('server-side apply and updates, as upstream answers kubectl', () => {
  it('answers a value of the wrong type in an applied configuration with structured-merge-diff\'s words, as a 400', async () => {
    const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: envnum}
spec:
  selector: {matchLabels: {app: envnum}}
  template:
    metadata: {labels: {app: envnum}}
    spec: {containers: [{name: c, image: busybox, env: [{name: PORT, value: 8080}]}]}
`;
    const r = await s.kubectlWithInput(deployment, 'apply', '--server-side', '-f', '-');
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe('Error from server (BadRequest): failed to create typed patch object (default/envnum; apps/v1, Kind=Deployment): '
      + '.spec.template.spec.containers[name="c"].env[name="PORT"].value: expected string, got &value.valueUnstructured{Value:8080}');
  });

  it('raises a custom resource\'s generation on a status change when its CRD has no status subresource', async () => {
    await succeeded(s.kubectlWithInput(WIDGET_CRD, 'apply', '-f', '-'), ['apply', 'crd']);
    await ok('wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.com');
    await succeeded(s.kubectlWithInput('apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 1}\n', 'create', '-f', '-'), ['create', 'widget']);
    await ok('patch', 'widget', 'w', '--type=merge', '-p', '{"status":{"ready":true}}');
    const obj = JSON.parse(await ok('get', 'widget', 'w', '-o', 'json'));
    expect([obj.metadata.generation, obj.status]).toEqual([2, { ready: true }]);
    await ok('patch', 'widget', 'w', '--type=merge', '-p', '{"metadata":{"labels":{"a":"b"}}}');
    expect(JSON.parse(await ok('get', 'widget', 'w', '-o', 'json')).metadata.generation).toBe(2);
  });
});
