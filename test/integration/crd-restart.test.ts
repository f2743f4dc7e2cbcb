// CRDs and their objects survive an apiserver restart: the stored CRDs are served again before the server is
// ready, with their objects, names and conditions.
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

const servers: TestApiServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  if (servers[0]) await rm(servers[0].dataDir, { recursive: true, force: true });
});

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.persist.example.com}
spec:
  group: persist.example.com
  scope: Cluster
  names: {plural: gadgets, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer, default: 3}}}
`;

describe('custom resources across a restart', () => {
  it('serves stored CRDs and their objects again', async () => {
    const first = await startTestApiServer({ authorizationModes: ['AlwaysAllow'] });
    servers.push(first);
    expect((await first.kubectlWithInput(CRD, 'apply', '-f', '-')).code).toBe(0);
    expect((await first.kubectl('wait', '--for', 'condition=established', '--timeout=20s', 'crd/gadgets.persist.example.com')).code).toBe(0);
    const created = await first.kubectlWithInput('apiVersion: persist.example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {}\n', 'create', '-f', '-');
    expect(created.stderr).toBe('');
    await first.stop();

    const second = await startTestApiServer({ authorizationModes: ['AlwaysAllow'], dataDir: first.dataDir });
    servers.push(second);
    const got = await second.api('GET', '/apis/persist.example.com/v1/gadgets/g');
    expect(got.status).toBe(200);
    expect(got.body.spec).toEqual({ size: 3 });
    expect(got.body.metadata.namespace).toBeUndefined();
    const names = await second.kubectl('get', 'gadgets', '-o', 'name');
    expect(names.stdout).toBe('gadget.persist.example.com/g\n');
  });
});
