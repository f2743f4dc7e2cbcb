// ValidatingAdmissionPolicy's authorizer library through the real kubectl with RBAC: a policy that lets a user
// create ConfigMaps only where that user may also read Secrets, asked of RBAC for the request's (impersonated) user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { eventually } from './authz-support.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory' }); });
afterAll(async () => { await s?.close(); });

const run = async (...args: string[]): Promise<void> => {
  const r = await s.kubectl(...args);
  expect(r.stderr).toBe('');
};
const secrets = "authorizer.group('').resource('secrets').namespace(object.metadata.namespace)";

describe('ValidatingAdmissionPolicy authorizer', () => {
  it('checks what the request\'s user may do, with RBAC\'s decision', async () => {
    await run('create', 'namespace', 'team');
    await run('create', 'role', 'cm-writer', '--verb=create', '--resource=configmaps', '-n', 'team');
    await run('create', 'rolebinding', 'jane-cm', '--role=cm-writer', '--user=jane', '-n', 'team');
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'secret-readers' },
      spec: {
        matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
        validations: [
          { expression: `${secrets}.check('get').allowed()`, messageExpression: "'may not read secrets in ' + object.metadata.namespace" },
          { expression: "authorizer.requestResource.check('create').allowed() && !authorizer.requestResource.check('create').errored()", message: 'request' },
          { expression: "!authorizer.serviceAccount('team', 'nobody').group('').resource('secrets').namespace('team').check('get').allowed()", message: 'service account' },
        ],
      },
    };
    // a messageExpression has no authorizer (upstream declares it only for expressions)
    const bad = structuredClone(policy);
    bad.spec.validations[0]!.messageExpression = `${secrets}.check('get').reason()`;
    expect((await s.kubectlWithInput(JSON.stringify(bad), 'create', '-f', '-')).stderr).toContain("spec.validations[0].messageExpression: Invalid value: \"authorizer.group('')");
    const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'secret-readers' }, spec: { policyName: 'secret-readers', validationActions: ['Deny'] } };
    for (const o of [policy, binding]) expect((await s.kubectlWithInput(JSON.stringify(o), 'create', '-f', '-')).stderr).toBe('');

    let refused = '';
    await eventually(async () => {
      refused = (await s.kubectl('--as=jane', 'create', 'configmap', 'c1', '-n', 'team')).stderr;
      return refused !== '';
    });
    expect(refused).toContain("configmaps \"c1\" is forbidden: ValidatingAdmissionPolicy 'secret-readers' with binding 'secret-readers' denied request: may not read secrets in team");
    await run('create', 'configmap', 'by-admin', '-n', 'team');

    await run('create', 'role', 'secret-reader', '--verb=get', '--resource=secrets', '-n', 'team');
    await run('create', 'rolebinding', 'jane-secrets', '--role=secret-reader', '--user=jane', '-n', 'team');
    await eventually(async () => (await s.kubectl('--as=jane', 'create', 'configmap', 'c2', '-n', 'team')).code === 0);
  });
});
