// ValidatingAdmissionPolicy through the real kubectl: CEL validations over the object, messages,
// messageExpression with params and variables, and the Deny and Warn validation actions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] }); });
afterAll(async () => { await s?.close(); });

const ok = (...args: string[]): Promise<string> => cleanStdout(s.kubectl(...args));
const create = async (obj: unknown): Promise<void> => {
  const r = await s.kubectlWithInput(JSON.stringify(obj), 'create', '-f', '-');
  expect(r.stderr).toBe('');
};
const AR = 'admissionregistration.k8s.io/v1';
const deploymentRules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }];

describe('ValidatingAdmissionPolicy', () => {
  it('refuses a Deployment with more than 5 replicas, with upstream\'s message', async () => {
    await create({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'max-replicas' },
      spec: { matchConstraints: { resourceRules: deploymentRules }, validations: [{ expression: 'object.spec.replicas <= 5' }] },
    });
    await create({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'max-replicas-binding' },
      spec: { policyName: 'max-replicas', validationActions: ['Deny'] },
    });
    const policy = JSON.parse(await ok('get', 'validatingadmissionpolicy', 'max-replicas', '-o', 'json'));
    expect(policy.spec).toMatchObject({ failurePolicy: 'Fail', matchConstraints: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} } });
    await ok('get', 'validatingadmissionpolicybinding', 'max-replicas-binding');

    await ok('create', 'deployment', 'small', '--image=nginx', '--replicas=3');
    const message = 'deployments.apps "big" is forbidden: ValidatingAdmissionPolicy \'max-replicas\' with binding \'max-replicas-binding\' denied request: failed expression: object.spec.replicas <= 5';
    const r = await s.kubectl('create', 'deployment', 'big', '--image=nginx', '--replicas=6');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    const big = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'big' }, spec: { replicas: 6, selector: { matchLabels: { app: 'big' } }, template: { metadata: { labels: { app: 'big' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    const f = await s.kubectlWithInput(JSON.stringify(big), 'create', '-f', '-');
    // kubectl words an Invalid status by its causes, as the Kubernetes documentation shows for this policy.
    expect(f.stderr).toContain('The deployments "big" is invalid: : ValidatingAdmissionPolicy \'max-replicas\' with binding \'max-replicas-binding\' denied request: failed expression: object.spec.replicas <= 5');
    const api = await s.api('POST', '/apis/apps/v1/namespaces/default/deployments', big);
    expect([api.status, api.body.reason, api.body.message]).toEqual([422, 'Invalid', message]);
    const update = await s.kubectl('patch', 'deployment', 'small', '-p', '{"spec":{"replicas":7}}');
    expect(update.stderr).toContain('The deployments "small" is invalid: : ValidatingAdmissionPolicy \'max-replicas\'');
    await ok('patch', 'deployment', 'small', '-p', '{"spec":{"replicas":4}}');
  });

  it('admits kubectl scale as an UPDATE of deployments/scale whose object is the Scale', async () => {
    // max-replicas (above) matches "deployments" only: scaling is not its business, as upstream.
    expect(await ok('scale', 'deployment', 'small', '--replicas=9')).toContain('scaled');
    await create({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'max-scale' },
      spec: {
        matchConstraints: { resourceRules: [{ operations: ['UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'] }] },
        validations: [{ expression: 'object.kind == "Scale" && oldObject.kind == "Scale" && object.spec.replicas <= 10' }],
      },
    });
    await create({ apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'max-scale-binding' }, spec: { policyName: 'max-scale', validationActions: ['Deny'] } });
    const r = await s.kubectl('scale', 'deployment', 'small', '--replicas=11');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ValidatingAdmissionPolicy \'max-scale\' with binding \'max-scale-binding\' denied request: failed expression: object.kind == "Scale"');
    expect(await ok('get', 'deployment', 'small', '-o', 'jsonpath={.spec.replicas}')).toBe('9');
    expect(await ok('scale', 'deployment', 'small', '--replicas=10')).toContain('scaled');
    // The policy on deployments/scale leaves plain updates alone.
    await ok('patch', 'deployment', 'small', '-p', '{"spec":{"replicas":2}}');
  });

  it('admits pods/binding as a CREATE whose object is the Binding, as upstream', async () => {
    await create({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'no-node-x' },
      spec: {
        matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/binding'] }] },
        validations: [{ expression: 'object.kind == "Binding" && object.target.name != "node-x"', message: 'not on node-x' }],
      },
    });
    await create({ apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'no-node-x' }, spec: { policyName: 'no-node-x', validationActions: ['Deny'] } });
    await ok('run', 'bound', '--image=busybox', '--restart=Never');
    const bind = (node: string) => s.api('POST', '/api/v1/namespaces/default/pods/bound/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound' }, target: { kind: 'Node', name: node } });
    const refused = await bind('node-x');
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.message).toContain('ValidatingAdmissionPolicy \'no-node-x\' with binding \'no-node-x\' denied request: not on node-x');
    expect(await ok('get', 'pod', 'bound', '-o', 'jsonpath={.spec.nodeName}')).toBe('');
    expect((await bind('node-y')).status).toBe(201);
    const pod = JSON.parse(await ok('get', 'pod', 'bound', '-o', 'json', '--show-managed-fields'));
    expect(pod.spec.nodeName).toBe('node-y');
    // the scheduler's write is not a field manager's (upstream writes the binding to storage directly)
    expect(pod.metadata.managedFields.map((m: { subresource?: string }) => m.subresource ?? '')).not.toContain('binding');
  });

  it('reads params through the binding\'s paramRef, with variables, messageExpression and Warn', async () => {
    await ok('create', 'namespace', 'limits');
    await ok('create', 'configmap', 'limits', '-n', 'limits', '--from-literal=maxLength=5');
    await create({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'short-names' },
      spec: {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] },
        matchConditions: [{ name: 'not-the-params', expression: 'object.metadata.name != "limits"' }],
        variables: [{ name: 'max', expression: 'int(params.data.maxLength)' }],
        validations: [{
          expression: 'size(object.metadata.name) <= variables.max', reason: 'Forbidden',
          messageExpression: '"name " + object.metadata.name + " is longer than " + string(variables.max)',
        }],
      },
    });
    await create({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'short-names-deny' },
      spec: { policyName: 'short-names', paramRef: { name: 'limits', namespace: 'limits' }, validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { strict: 'yes' } } } },
    });
    await create({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'short-names-warn' },
      spec: { policyName: 'short-names', paramRef: { name: 'limits', namespace: 'limits' }, validationActions: ['Warn'], matchResources: { namespaceSelector: { matchLabels: { strict: 'no' } } } },
    });
    await ok('get', 'validatingadmissionpolicy', 'short-names');
    const binding = JSON.parse(await ok('get', 'validatingadmissionpolicybinding', 'short-names-warn', '-o', 'json'));
    expect(binding.spec.paramRef.parameterNotFoundAction).toBe('Deny');

    await ok('create', 'namespace', 'strict');
    await ok('label', 'namespace', 'strict', 'strict=yes');
    await ok('create', 'namespace', 'lax');
    await ok('label', 'namespace', 'lax', 'strict=no');
    await ok('get', 'namespace', 'strict');
    await ok('get', 'namespace', 'lax');
    await ok('get', 'configmap', 'limits', '-n', 'limits');
    await ok('create', 'configmap', 'short', '-n', 'strict');
    const refused = await s.kubectl('create', 'configmap', 'toolong', '-n', 'strict');
    expect(refused.stderr).toContain('configmaps "toolong" is forbidden: ValidatingAdmissionPolicy \'short-names\' with binding \'short-names-deny\' denied request: name toolong is longer than 5');
    const warned = await s.kubectl('create', 'configmap', 'toolong', '-n', 'lax');
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('Warning: Validation failed for ValidatingAdmissionPolicy \'short-names\' with binding \'short-names-warn\': name toolong is longer than 5');
    // Namespaces matching no binding are not checked.
    await ok('create', 'configmap', 'unchecked-long-name');
  });
});
