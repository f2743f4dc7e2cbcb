import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory' }); });
afterAll(async () => { await s?.close(); });

describe('smoke', () => {
  it('serves version, namespaces and configmaps', async () => {
    const v = await s.api('GET', '/version');
    expect(v.body.gitVersion).toMatch(/^v1\.32/);
    const ns = await s.api('GET', '/api/v1/namespaces');
    expect(ns.body.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual(["default", "kube-node-lease", "kube-public", "kube-system"]);
    const cm = await s.api('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: 'y' } });
    expect(cm.status).toBe(201);
    const r = await s.kubectl('get', 'cm', '-A');
    expect(r.stdout).toMatch(/default\s+a\s+1/);
  });
});
