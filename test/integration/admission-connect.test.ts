// What admission sees beyond plain writes, as upstream: exec, attach, port-forward and proxy requests are CONNECT
// operations whose object is their options (PodExecOptions...), so a webhook or a ValidatingAdmissionPolicy can
// refuse `kubectl exec`; `kubectl create token` is a CREATE of serviceaccounts/token; each write's options reach
// `request.options` as the client sent them; a webhook that speaks only admission.k8s.io/v1beta1 is called in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { startTestWebhook, type TestWebhook } from '../support/admission-webhook.js';
import { cleanStdout } from '../support/kubectl-run.js';

const AR = 'admissionregistration.k8s.io/v1';
let s: TestApiServer;
let hook: TestWebhook;

function respond(path: string, request: any): Record<string, unknown> {
  if (path === '/connect' && request.object?.command?.includes('forbidden')) {
    return { uid: request.uid, allowed: false, status: { code: 403, message: 'no forbidden commands' } };
  }
  if (path === '/token') return { uid: request.uid, allowed: false, status: { code: 403, message: 'no tokens here' } };
  // the v1beta1 webhook answers without the uid and kind a v1 answer must carry, which v1beta1 never checked
  if (path === '/beta') return { allowed: true };
  return { uid: request.uid, allowed: true };
}

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
  hook = await startTestWebhook(respond);
});
afterAll(async () => {
  await s?.close();
  await hook?.close();
});

const ok = (...args: string[]): Promise<string> => cleanStdout(s.kubectl(...args));
const create = async (obj: unknown): Promise<void> => {
  const r = await s.kubectlWithInput(JSON.stringify(obj), 'create', '-f', '-');
  expect(r.stderr).toBe('');
};
const webhook = (name: string, path: string, rules: unknown[], ns: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: AR, kind: 'ValidatingWebhookConfiguration', metadata: { name },
  webhooks: [{
    name: `${name}.example.com`, clientConfig: { url: `${hook.base}${path}`, caBundle: hook.caBundle }, rules,
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } }, sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra,
  }],
});
const requestsTo = (path: string) => hook.seen.filter((x) => x.path === path);

async function namespaceWithPod(ns: string): Promise<void> {
  await ok('create', 'namespace', ns);
  await ok('run', 'p', '-n', ns, '--image=busybox', '--restart=Never');
}

describe('CONNECT admission', () => {
  it('sends kubectl exec to a webhook as PodExecOptions, and a refusal stops it', async () => {
    await namespaceWithPod('conn');
    await create(webhook('connect', '/connect', [{ operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/exec', 'pods/portforward'] }], 'conn'));
    await ok('get', 'validatingwebhookconfiguration', 'connect');

    const refused = await s.kubectl('exec', '-n', 'conn', 'p', '--', 'forbidden', 'arg');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('admission webhook "connect.example.com" denied the request: no forbidden commands');
    const [seen] = requestsTo('/connect');
    expect(seen!.request).toMatchObject({
      operation: 'CONNECT', name: 'p', namespace: 'conn', subResource: 'exec',
      kind: { group: '', version: 'v1', kind: 'PodExecOptions' }, resource: { group: '', version: 'v1', resource: 'pods' },
      object: { kind: 'PodExecOptions', apiVersion: 'v1', stdout: true, stderr: true, container: 'p', command: ['forbidden', 'arg'] },
      oldObject: null,
    });
    expect(seen!.request.options).toBeNull();

    // admitted, the exec goes on to the pod, which no node runs yet
    const admitted = await s.kubectl('exec', '-n', 'conn', 'p', '--', 'ls');
    expect(admitted.stderr).toContain('pod p does not have a host assigned');
    // (kubectl tries a WebSocket, then SPDY: each is a CONNECT)
    const connects = requestsTo('/connect').length;
    expect(connects).toBeGreaterThan(1);
    // a webhook for CONNECT sees no writes
    await ok('label', 'pod', '-n', 'conn', 'p', 'x=y');
    expect(requestsTo('/connect')).toHaveLength(connects);
  });

  it('lets a ValidatingAdmissionPolicy refuse an exec before anything is dialled', async () => {
    await namespaceWithPod('vap');
    await create({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'noexec' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CONNECT'], resources: ['pods/exec'] }] },
        validations: [{ expression: 'object.command[0] != "rm"', message: 'no rm' }],
      },
    });
    await create({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'noexec-b' },
      spec: { policyName: 'noexec', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'vap' } } } },
    });
    await ok('get', 'validatingadmissionpolicybinding', 'noexec-b');
    const r = await s.api('POST', '/api/v1/namespaces/vap/pods/p/exec?command=rm&command=-rf&stdout=true');
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.message).toBe('pods "p" is forbidden: ValidatingAdmissionPolicy \'noexec\' with binding \'noexec-b\' denied request: no rm');
    // allowed, it fails where it would have without the policy: not an upgrade
    const other = await s.api('POST', '/api/v1/namespaces/vap/pods/p/exec?command=ls&stdout=true');
    expect(other.body.message).toBe('pod p does not have a host assigned');
  });
});

describe('pods/log of a pod no node runs yet', () => {
  it('is empty, 204 No Content (upstream\'s null log location), once the container is known to be valid', async () => {
    await namespaceWithPod('nolog');
    const logs = await s.kubectl('logs', '-n', 'nolog', 'p');
    expect(logs).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const raw = await s.api('GET', '/api/v1/namespaces/nolog/pods/p/log');
    expect(raw.status).toBe(204);
    expect((await s.kubectl('logs', '-n', 'nolog', 'p', '-c', 'nope')).stderr).toContain('container nope is not valid for pod p');
  });
});

describe('admission of other requests', () => {
  it('admits kubectl create token as a CREATE of serviceaccounts/token', async () => {
    await ok('create', 'namespace', 'tok');
    await ok('create', 'serviceaccount', 'robot', '-n', 'tok');
    await create(webhook('token', '/token', [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['serviceaccounts/token'] }], 'tok'));
    await ok('get', 'validatingwebhookconfiguration', 'token');
    const r = await s.kubectl('create', 'token', 'robot', '-n', 'tok');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('admission webhook "token.example.com" denied the request: no tokens here');
    expect(requestsTo('/token')[0]!.request).toMatchObject({
      operation: 'CREATE', name: 'robot', subResource: 'token',
      kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
      object: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { namespace: 'tok' }, spec: { expirationSeconds: 3600 } },
    });
    // a name that is not the ServiceAccount's is refused as upstream's TokenREST does
    const named = await s.api('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { name: 'other' }, spec: {} });
    expect(named.status).toBe(422);
    expect(named.body.message).toBe('TokenRequest.authentication.k8s.io "default" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
  });

  it('gives webhooks each write\'s options as sent, and calls a v1beta1-only webhook in v1beta1', async () => {
    await ok('create', 'namespace', 'opts');
    const rules = [{ operations: ['CREATE', 'UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    await create(webhook('options', '/options', rules, 'opts'));
    await create(webhook('beta', '/beta', rules, 'opts', { admissionReviewVersions: ['v1beta1'] }));
    await ok('get', 'validatingwebhookconfiguration', 'beta');
    await ok('create', 'configmap', 'c', '-n', 'opts', '--from-literal=a=b');
    await ok('label', 'configmap', 'c', '-n', 'opts', 'x=y', '--dry-run=server');
    await ok('delete', 'configmap', 'c', '-n', 'opts');
    const options = requestsTo('/options').map((x) => x.request.options);
    expect(options).toEqual([
      { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions', fieldManager: 'kubectl-create', fieldValidation: 'Strict' },
      { apiVersion: 'meta.k8s.io/v1', kind: 'UpdateOptions', dryRun: ['All'], fieldManager: 'kubectl-label' },
      { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', propagationPolicy: 'Background' },
    ]);
    const beta = requestsTo('/beta');
    expect(beta.map((x) => [x.apiVersion, x.request.operation])).toEqual([
      ['admission.k8s.io/v1beta1', 'CREATE'], ['admission.k8s.io/v1beta1', 'UPDATE'], ['admission.k8s.io/v1beta1', 'DELETE'],
    ]);
  });
});
