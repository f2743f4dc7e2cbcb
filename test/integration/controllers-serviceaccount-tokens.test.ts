// Legacy service-account tokens end to end: a user's Secret of type kubernetes.io/service-account-token is filled by
// the controller-manager's tokens controller (token, ca.crt, namespace, the account's uid annotation); its token
// authenticates as the account (kubectl auth whoami), TokenReview says so, the apiserver records the day it was used;
// deleting the account deletes the Secret and the token stops working.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../pkg/client/index.js';
import { cleanStdout } from '../support/kubectl-run.js';
import { controllerManagerKubeconfig, eventually, startInProcess } from './controllers-support.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
let cm: { stop(): Promise<void> } | undefined;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  const serviceAccountPrivateKeyPem = await readFile(s.pki.serviceAccount.key, 'utf8');
  cm = await startInProcess(await controllerManagerKubeconfig(s), {
    controllers: ['serviceaccount-token-controller', 'serviceaccount-controller'], config: { serviceAccountPrivateKeyPem },
  });
});
afterAll(async () => {
  await cm?.stop();
  await s?.close();
});

const ok = (...args: string[]): Promise<string> => cleanStdout(s.kubectl(...args));
const SECRET = '/api/v1/namespaces/default/secrets/robot-token';
const review = async (token: string) => (await s.api('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } })).body.status;

describe('the tokens controller', () => {
  it('fills a token Secret, whose token is the account\'s until the account goes', async () => {
    await ok('create', 'serviceaccount', 'robot');
    const r = await s.kubectlWithInput(JSON.stringify({
      apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token',
      metadata: { name: 'robot-token', annotations: { 'kubernetes.io/service-account.name': 'robot' } },
    }), 'create', '-f', '-');
    expect(r.stderr).toBe('');
    const sa = (await s.api('GET', '/api/v1/namespaces/default/serviceaccounts/robot')).body as KubeObject;
    const secret = await eventually(async () => (await s.api('GET', SECRET)).body as KubeObject, (x) => !!x.data?.token, 'the token');
    expect(secret.metadata!.annotations).toMatchObject({ 'kubernetes.io/service-account.name': 'robot', 'kubernetes.io/service-account.uid': sa.metadata!.uid });
    expect(Buffer.from(secret.data!.namespace, 'base64').toString()).toBe('default');
    expect(Buffer.from(secret.data!['ca.crt'], 'base64').toString()).toBe(await readFile(s.pki.ca.cert, 'utf8'));
    const token = Buffer.from(secret.data!.token, 'base64').toString();
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims).toEqual({
      iss: 'kubernetes/serviceaccount', sub: 'system:serviceaccount:default:robot',
      'kubernetes.io/serviceaccount/namespace': 'default', 'kubernetes.io/serviceaccount/secret.name': 'robot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'robot', 'kubernetes.io/serviceaccount/service-account.uid': sa.metadata!.uid,
    });
    expect(await ok('describe', 'serviceaccount', 'robot')).toMatch(/Tokens:\s+robot-token/);

    // the token alone (no client certificate, which would win)
    const whoami = await cleanStdout(s.kubectl('auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}', '--kubeconfig=/dev/null', `--server=${s.url}`,
      '--insecure-skip-tls-verify', `--token=${token}`));
    expect(whoami).toBe('system:serviceaccount:default:robot');
    expect(await review(token)).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:robot', uid: sa.metadata!.uid } });
    const today = new Date().toISOString().slice(0, 10);
    expect((await s.api('GET', SECRET)).body.metadata.labels).toEqual({ 'kubernetes.io/legacy-token-last-used': today });
    // a token that is no longer the Secret's is refused
    const altered = `${token.slice(0, -2)}xx`;
    expect((await review(altered)).authenticated).toBeUndefined();

    await ok('delete', 'serviceaccount', 'robot');
    await eventually(() => s.api('GET', SECRET), (x) => x.status === 404, 'the token Secret to go');
    expect(await review(token)).toEqual({ user: {}, error: 'Token has been invalidated' });
  });
});
