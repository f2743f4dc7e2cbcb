// Server-side apply as upstream's field manager does it around structured-merge-diff, with the real kubectl:
// moving from client-side to server-side apply without conflicts (lastAppliedManager), an applier's dropped
// list item going whole though another writer set a field inside it, managedFields: [] resetting on an update and
// refused in an applied configuration, and the synced annotation encoded as Go's json.Encoder does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout as ok } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory' }); });
afterAll(async () => { await s?.close(); });

const CMS = '/api/v1/namespaces/default/configmaps';
const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const cm = (name: string, data: Record<string, string>, annotations?: Record<string, string>): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(annotations ? { annotations } : {}) }, data });
const get = async (name: string): Promise<any> => JSON.parse(await ok(s.kubectl('get', 'cm', name, '-o', 'json', '--show-managed-fields')));

describe('server-side apply', () => {
  it('takes over what kubectl apply set client-side, and keeps its annotation in step, Go-encoded', async () => {
    await ok(s.kubectlWithInput(cm('csa', { k1: 'v1' }), 'apply', '-f', '-'));
    expect(await ok(s.kubectlWithInput(cm('csa', { k1: 'changed' }, { note: 'a<b>&c' }), 'apply', '--server-side', '-f', '-')))
      .toBe('configmap/csa serverside-applied\n');
    const live = await get('csa');
    expect(live.data).toEqual({ k1: 'changed' });
    // kubectl, once its apply went through, moves what kubectl-client-side-apply still owns to itself (csaupgrade)
    // (in upstream's order: by operation, then by the second of their time, then by name; the two applies may fall in
    // seconds of their own, so only the set is checked)
    expect(live.metadata.managedFields.map((e: { manager: string }) => e.manager).sort()).toEqual(['kubectl', 'kubectl-last-applied']);
    expect(live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'])
      .toBe('{"apiVersion":"v1","data":{"k1":"changed"},"kind":"ConfigMap","metadata":{"annotations":{"note":"a\\u003cb\\u003e\\u0026c"},"name":"csa","namespace":"default"}}\n');
    // another manager name opts out
    await ok(s.kubectlWithInput(cm('csa-tool', { k1: 'v1' }), 'apply', '-f', '-'));
    const other = await s.kubectlWithInput(cm('csa-tool', { k1: 'changed' }), 'apply', '--server-side', '--field-manager=tool', '-f', '-');
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.k1');
  });

  it('removes a dropped container whole though a patch set a field inside it', async () => {
    const deploy = (containers: string): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: edge}
spec:
  selector: {matchLabels: {app: edge}}
  template:
    metadata: {labels: {app: edge}}
    spec:
      containers:${containers}`;
    const nginx = '\n      - {name: nginx, image: nginx}';
    await ok(s.kubectlWithInput(deploy(`${nginx}\n      - {name: sidecar, image: envoy}`), 'apply', '--server-side', '--field-manager=alice', '-f', '-'));
    await ok(s.kubectl('patch', 'deploy', 'edge', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","resources":{"limits":{"cpu":"100m"}}}]}}}}'));
    await ok(s.kubectlWithInput(deploy(nginx), 'apply', '--server-side', '--field-manager=alice', '-f', '-'));
    const live = JSON.parse(await ok(s.kubectl('get', 'deploy', 'edge', '-o', 'json', '--show-managed-fields')));
    expect(live.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['nginx']);
    expect(JSON.stringify(live.metadata.managedFields)).not.toContain('sidecar');
  });

  it('resets managedFields on an update sending [], and leaves the object untracked', async () => {
    expect((await s.api('PATCH', `${CMS}/reset?fieldManager=apply_test`, cm('reset', { key: 'value' }), APPLY)).status).toBe(201);
    const put = await s.api('PUT', `${CMS}/reset`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reset', managedFields: [] }, data: { key: 'value' } });
    expect(put.status).toBe(200);
    expect(put.body.metadata.managedFields).toBeUndefined();
    const patched = await s.api('PATCH', `${CMS}/reset`, { data: { key: 'other' } }, { 'content-type': 'application/merge-patch+json' });
    expect(patched.body.metadata.managedFields).toBeUndefined();
  });

  it('refuses managedFields in an applied configuration, an empty list too', async () => {
    const applied = await s.api('PATCH', `${CMS}/reset?fieldManager=apply_test`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'reset', managedFields: [] } }, APPLY);
    expect(applied.status).toBe(400);
    expect(applied.body.message).toBe('metadata.managedFields must be nil');
  });
});
