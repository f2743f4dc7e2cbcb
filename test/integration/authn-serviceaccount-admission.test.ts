// The ServiceAccount admission plugin over real HTTPS, with the controllers that keep what it needs in every namespace
// (serviceaccount: a "default" ServiceAccount; root-ca-cert-publisher: the kube-root-ca.crt ConfigMap), and without
// them (an apiserver alone refuses pods, as upstream's).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;

const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }, { name: 'd', image: 'busybox' }], ...spec },
});

const waitFor = async <T>(f: () => Promise<T | undefined>): Promise<T> => {
  for (let i = 0; i < 100; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
};

beforeAll(async () => {
  s = await startTestApiServer({ controllers: ['serviceaccount', 'root-ca-cert-publisher'] });
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('ServiceAccount admission', () => {
  it('every system namespace gets a default ServiceAccount and kube-root-ca.crt from the controllers', async () => {
    const ca = await readFile(s.pki.ca.cert, 'utf8');
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      await waitFor(async () => ((await s.api('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200 ? true : undefined));
      const cm = await waitFor(async () => {
        const r = await s.api('GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`);
        return r.status === 200 ? r : undefined;
      });
      expect(cm.body.data['ca.crt']).toBe(ca);
    }
  });

  it('a new namespace gets them too, and a pod created right away in it is admitted (the plugin waits for "default")', async () => {
    expect((await s.api('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } })).status).toBe(201);
    const r = await s.api('POST', '/api/v1/namespaces/fresh/pods', pod('p'));
    expect(r.body.message).toBeUndefined();
    expect(r.status).toBe(201);
    expect(r.body.spec.serviceAccountName).toBe('default');
    await waitFor(async () => ((await s.api('GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt')).status === 200 ? true : undefined));
    expect((await s.api('GET', '/api/v1/namespaces/fresh/serviceaccounts/default')).status).toBe(200);
  });

  it('defaults serviceAccountName and mounts the projected token volume in every container', async () => {
    const r = await s.api('POST', '/api/v1/namespaces/default/pods', pod('mounted', { initContainers: [{ name: 'i', image: 'busybox' }] }));
    expect(r.body.message).toBeUndefined();
    expect(r.status).toBe(201);
    const spec = r.body.spec;
    expect(spec.serviceAccountName).toBe('default');
    const vol = spec.volumes.find((v: any) => v.name.startsWith('kube-api-access-'));
    expect(vol.name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    expect(vol.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    for (const c of [...spec.containers, ...spec.initContainers]) {
      expect(c.volumeMounts).toEqual([{ name: vol.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    }
  });

  it('does not mount when the pod or its account turns automounting off', async () => {
    const off = await s.api('POST', '/api/v1/namespaces/default/pods', pod('nomount', { automountServiceAccountToken: false }));
    expect(off.status).toBe(201);
    expect(off.body.spec.volumes).toBeUndefined();
    expect(off.body.spec.containers[0].volumeMounts).toBeUndefined();
    await s.api('POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'quiet' }, automountServiceAccountToken: false, imagePullSecrets: [{ name: 'regcred' }] });
    const q = await s.api('POST', '/api/v1/namespaces/default/pods', pod('quiet', { serviceAccountName: 'quiet' }));
    expect(q.status).toBe(201);
    expect(q.body.spec.volumes).toBeUndefined();
    expect(q.body.spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    // The pod's own true wins over the account's false.
    const on = await s.api('POST', '/api/v1/namespaces/default/pods', pod('loud', { serviceAccountName: 'quiet', automountServiceAccountToken: true }));
    expect(on.body.spec.volumes).toHaveLength(1);
  });

  it('refuses a pod whose service account does not exist, with upstream\'s message', async () => {
    const r = await s.api('POST', '/api/v1/namespaces/default/pods', pod('ghost', { serviceAccountName: 'ghost' }));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('pods "ghost" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found');
  });

  it('leaves a namespace that does not exist to NamespaceLifecycle', async () => {
    const r = await s.api('POST', '/api/v1/namespaces/nowhere/pods', pod('p'));
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('namespaces "nowhere" not found');
  });
});

describe('ServiceAccount admission on an apiserver alone', () => {
  let bare: TestApiServer;
  beforeAll(async () => {
    bare = await startTestApiServer({ controllers: [] });
  }, 60_000);
  afterAll(async () => {
    await bare?.close();
  });

  it('refuses a pod while no controller has made the default account, and admits it once the account exists', async () => {
    const r = await bare.api('POST', '/api/v1/namespaces/default/pods', pod('early'));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('pods "early" is forbidden: error looking up service account default/default: serviceaccount "default" not found');
    expect((await bare.api('POST', '/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } })).status).toBe(201);
    expect((await bare.api('POST', '/api/v1/namespaces/default/pods', pod('early'))).status).toBe(201);
  });
});
