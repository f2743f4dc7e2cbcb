// The namespace, serviceaccount and root-ca-cert-publisher controllers (in this process, each with its own
// service-account credentials under RBAC) with the real kubectl: `kubectl delete namespace` completes and takes
// the namespace's contents with it; every namespace keeps a `default` ServiceAccount and a `kube-root-ca.crt`
// ConfigMap holding the cluster CA.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { controllerManagerKubeconfig, eventually, exists, startInProcess } from './controllers-support.js';

let s: TestApiServer;
let cm: { stop(): Promise<void> };

beforeAll(async () => {
  // controllers: [] — the serviceaccount controller under test is the controller-manager's below, not the harness's.
  s = await startTestApiServer({ storageBackend: 'memory', controllers: [] });
  cm = await startInProcess(await controllerManagerKubeconfig(s), {
    controllers: ['namespace', 'serviceaccount', 'root-ca-cert-publisher', 'garbagecollector'],
  });
}, 30_000);

afterAll(async () => {
  await cm?.stop();
  await s?.close();
});

describe('namespace controller', () => {
  it('kubectl delete namespace removes its contents, then the namespace', async () => {
    expect((await s.kubectl('create', 'namespace', 'doomed')).code).toBe(0);
    expect((await s.kubectl('-n', 'doomed', 'create', 'configmap', 'c1', '--from-literal=a=b')).code).toBe(0);
    expect((await s.kubectl('-n', 'doomed', 'create', 'secret', 'generic', 's1', '--from-literal=a=b')).code).toBe(0);
    expect((await s.kubectl('-n', 'doomed', 'create', 'deployment', 'web', '--image=nginx')).code).toBe(0);
    expect((await s.kubectl('-n', 'doomed', 'run', 'p1', '--image=busybox')).code).toBe(0);
    const r = await s.kubectl('delete', 'namespace', 'doomed', '--timeout=40s');
    expect(r.code, r.stderr).toBe(0);
    expect(await exists(s, '/api/v1/namespaces/doomed')).toBe(false);
    for (const path of ['/api/v1/namespaces/doomed/configmaps', '/api/v1/namespaces/doomed/pods', '/apis/apps/v1/namespaces/doomed/deployments']) {
      const list = await s.api('GET', path);
      expect((list.body as { items: unknown[] }).items, path).toEqual([]);
    }
  }, 60_000);

  it('a namespace whose content is held by a finalizer stays Terminating with upstream conditions', async () => {
    expect((await s.kubectl('create', 'namespace', 'held')).code).toBe(0);
    await s.api('POST', '/api/v1/namespaces/held/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stuck', finalizers: ['example.com/hold'] } });
    expect((await s.kubectl('delete', 'namespace', 'held', '--wait=false')).code).toBe(0);
    const ns = await eventually(() => s.api('GET', '/api/v1/namespaces/held'),
      (r) => ((r.body as KubeObject).status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True'),
      'the finalizer conditions');
    const conds = Object.fromEntries(((ns.body as KubeObject).status!.conditions as { type: string; reason: string; message: string }[]).map((c) => [c.type, c]));
    expect((ns.body as KubeObject).status!.phase).toBe('Terminating');
    expect(conds.NamespaceContentRemaining).toMatchObject({ status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' });
    expect(conds.NamespaceFinalizersRemaining).toMatchObject({ reason: 'SomeFinalizersRemain', message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances' });
    expect(conds.NamespaceDeletionDiscoveryFailure).toMatchObject({ status: 'False', reason: 'ResourcesDiscovered' });
    // The finalizer goes: the namespace follows (the controller looks again after upstream's 15 s estimate / 2 + 1).
    await s.api('PATCH', '/api/v1/namespaces/held/configmaps/stuck', { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
    await eventually(() => exists(s, '/api/v1/namespaces/held'), (v) => v === false, 'the namespace to go', 20_000);
  }, 40_000);

  it('an APIService that cannot be reached holds a namespace\'s deletion with NamespaceDeletionDiscoveryFailure, as upstream', async () => {
    const APISERVICE = '/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.bogus.example.com';
    await s.api('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1beta1.bogus.example.com' },
      spec: { group: 'bogus.example.com', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true, service: { name: 'nosvc', namespace: 'default', port: 443 } },
    });
    expect((await s.kubectl('create', 'namespace', 'blocked')).code).toBe(0);
    expect((await s.kubectl('delete', 'namespace', 'blocked', '--wait=false')).code).toBe(0);
    const ns = await eventually(() => s.api('GET', '/api/v1/namespaces/blocked'),
      (r) => ((r.body as KubeObject).status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'NamespaceDeletionDiscoveryFailure' && c.status === 'True'),
      'the discovery failure');
    const failure = ((ns.body as KubeObject).status!.conditions as { type: string; reason: string; message: string }[]).find((c) => c.type === 'NamespaceDeletionDiscoveryFailure');
    expect(failure).toMatchObject({ reason: 'DiscoveryFailed' });
    // client-go's aggregated discovery: the group-version served Stale is a StaleGroupVersionError in ErrGroupDiscoveryFailed
    expect(failure!.message).toBe('Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: '
      + 'bogus.example.com/v1beta1: stale GroupVersion discovery: bogus.example.com/v1beta1');
    // the APIService goes: the namespace follows
    expect((await s.api('DELETE', APISERVICE)).status).toBe(200);
    await eventually(() => exists(s, '/api/v1/namespaces/blocked'), (v) => v === false, 'the namespace to go', 30_000);
  }, 50_000);
});

describe('serviceaccount and root-ca-cert-publisher controllers', () => {
  it('a new namespace has a default ServiceAccount and kube-root-ca.crt; both come back when removed or changed', async () => {
    expect((await s.kubectl('create', 'namespace', 'fresh')).code).toBe(0);
    await eventually(() => exists(s, '/api/v1/namespaces/fresh/serviceaccounts/default'), Boolean, 'the default service account');
    const ca = await readFile(s.pki.ca.cert, 'utf8');
    const cm = await eventually(() => s.api('GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt'), (r) => r.status === 200, 'kube-root-ca.crt');
    expect((cm.body as KubeObject).data['ca.crt']).toBe(ca);

    expect((await s.kubectl('-n', 'fresh', 'delete', 'serviceaccount', 'default')).code).toBe(0);
    await eventually(() => exists(s, '/api/v1/namespaces/fresh/serviceaccounts/default'), Boolean, 'the default service account to be re-created');

    await s.api('PATCH', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt', { data: { 'ca.crt': 'tampered' } }, { 'content-type': 'application/merge-patch+json' });
    await eventually(() => s.api('GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt'), (r) => (r.body as KubeObject).data?.['ca.crt'] === ca, 'the CA to be restored');
    expect((await s.kubectl('-n', 'fresh', 'delete', 'configmap', 'kube-root-ca.crt')).code).toBe(0);
    await eventually(() => s.api('GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt'), (r) => r.status === 200, 'kube-root-ca.crt to be re-created');
  });
});
