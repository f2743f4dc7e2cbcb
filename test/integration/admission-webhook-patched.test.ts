// What a mutating webhook's patch turns into, as upstream's dispatcher does it: the patched object is decoded into
// the kind again (fields the kind does not have dropped, omitempty zeros gone) and defaulted, so a sidecar injected
// with only a name and an image gets its container defaults, and the admission chain goes on with that object.
// (Before, the sidecar was stored without them and a field no container has was kept.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { startTestWebhook, type TestWebhook } from '../support/admission-webhook.js';

let s: TestApiServer;
let hook: TestWebhook;

/** Injects a sidecar (with a field no container has) and a zero hostNetwork. */
function respond(_path: string, request: any): Record<string, unknown> {
  const patch = [
    { op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'busybox', notAField: 1 } },
    { op: 'add', path: '/spec/hostNetwork', value: false },
  ];
  return { uid: request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
}

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [] });
  hook = await startTestWebhook(respond);
  // no controllers run here: the service account admission plugin needs the namespace's default account
  expect((await s.kubectl('create', 'serviceaccount', 'default')).stderr).toBe('');
  const r = await s.kubectlWithInput(JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'inject' },
    webhooks: [{
      name: 'inject.example.com', clientConfig: { url: `${hook.base}/inject`, caBundle: hook.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      sideEffects: 'None', admissionReviewVersions: ['v1'],
    }],
  }), 'create', '-f', '-');
  expect(r.stderr).toBe('');
});
afterAll(async () => {
  await s?.close();
  await hook?.close();
});

describe('a mutating webhook\'s patched object', () => {
  it('is decoded and defaulted again: the injected sidecar has its defaults, unknown fields and omitempty zeros go', async () => {
    expect((await s.kubectl('run', 'app', '--image=nginx')).stderr).toBe('');
    // the stored object as it is, not as kubectl's typed decoding would show it
    const pod = JSON.parse((await s.kubectl('get', '--raw', '/api/v1/namespaces/default/pods/app')).stdout);
    const [app, sidecar] = pod.spec.containers;
    expect(app.name).toBe('app');
    // the service account admission plugin ran before the webhooks (upstream's order): only the first container has the token
    expect(app.volumeMounts).toHaveLength(1);
    expect(sidecar).toEqual({
      name: 'sidecar', image: 'busybox', imagePullPolicy: 'Always', resources: {},
      terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
    });
    expect(pod.spec).not.toHaveProperty('hostNetwork');
  });
});
