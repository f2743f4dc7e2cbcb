// Admission configurations are checked when written, as upstream's admissionregistration validation does: bad
// webhook configurations and policies are refused by kubectl apply with a 422 and upstream's field messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] }); });
afterAll(async () => { await s?.close(); });

const AR = 'admissionregistration.k8s.io/v1';
const apply = (obj: unknown): Promise<{ code: number; stdout: string; stderr: string }> => s.kubectlWithInput(JSON.stringify(obj), 'apply', '-f', '-');
const hook = (over: Record<string, unknown>): Record<string, unknown> => ({
  name: 'check.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'],
  clientConfig: { url: 'https://hook.example.com/validate' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  ...over,
});

describe('admission configuration validation', () => {
  it('accepts a good webhook configuration', async () => {
    const r = await apply({ apiVersion: AR, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'good' }, webhooks: [hook({})] });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('refuses bad webhooks with upstream\'s field errors', async () => {
    const r = await apply({
      apiVersion: AR, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'bad' },
      webhooks: [
        hook({ name: 'check', timeoutSeconds: 31, sideEffects: 'Some' }),
        hook({ name: 'dup.example.com', clientConfig: { url: 'http://hook.example.com/x' } }),
        hook({ name: 'dup.example.com', clientConfig: {}, admissionReviewVersions: ['v2'] }),
        hook({ name: 'rules.example.com', rules: [{ operations: ['GET'], apiGroups: ['*', 'apps'], apiVersions: ['v1'], resources: ['*/*', 'pods'] }] }),
        // a nil pointer and an empty list, both Go's nil (written back as null)
        hook({ name: 'unset.example.com', sideEffects: undefined, admissionReviewVersions: [] }),
      ],
    });
    expect(r.code).not.toBe(0);
    for (const m of [
      'The ValidatingWebhookConfiguration "bad" is invalid',
      'webhooks[0].name: Invalid value: "check": should be a domain with at least three segments separated by dots',
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[1].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'webhooks[2].clientConfig: Required value: exactly one of url or service is required',
      'webhooks[2].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
      'webhooks[2].name: Duplicate value: "dup.example.com"',
      'webhooks[3].rules[0].operations[0]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'webhooks[3].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other API groups',
      'webhooks[3].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if \'*/*\' is present, must not specify other resources',
      'webhooks[4].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[4].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
    ]) expect(r.stderr).toContain(m);
    expect((await s.kubectl('get', 'validatingwebhookconfiguration', 'bad')).code).not.toBe(0);
  });

  it('refuses a mutating webhook with a bad reinvocationPolicy or matchCondition', async () => {
    const r = await apply({
      apiVersion: AR, kind: 'MutatingWebhookConfiguration', metadata: { name: 'bad-mutating' },
      webhooks: [hook({ name: 'm.example.com', matchConditions: [{ name: 'c', expression: 'object.metadata.name ==' }], clientConfig: { service: { name: 'svc', namespace: 'ns', port: 70000 } } })],
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive');
    expect(r.stderr).toContain('webhooks[0].matchConditions[0].expression: Invalid value: "object.metadata.name ==": compilation failed:');
  });

  it('compiles a ValidatingAdmissionPolicy\'s expressions at create time and checks its binding', async () => {
    const bad = await apply({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'broken' },
      spec: {
        matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] },
        validations: [
          { expression: 'object.spec.replicas <=', reason: 'Teapot' },
          { expression: 'objekt.spec.replicas < 5' },
          { expression: "authorizer.path('/x').check('get').allowed() && variables.v == 1 && params == null && namespaceObject != null" },
          { expression: "object.metadata.name in [1, 2] || 1 in ['a']" },
        ],
        variables: [{ name: 'not-an-identifier', expression: '1' }],
      },
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('The ValidatingAdmissionPolicy "broken" is invalid');
    expect(bad.stderr).toContain('spec.validations[0].expression: Invalid value: "object.spec.replicas <=": compilation failed:');
    expect(bad.stderr).toContain('spec.validations[1].expression: Invalid value: "objekt.spec.replicas < 5": compilation failed: ERROR: <input>:1:1: undeclared reference to \'objekt\' (in container \'\')');
    expect(bad.stderr).toContain("spec.validations[3].expression: Invalid value: \"object.metadata.name in [1, 2] || 1 in ['a']\": compilation failed: ERROR: <input>:1:37: found no matching overload for '@in' applied to '(int, list(string))'");
    // without a paramKind there is no params, and `variables` has only the fields the policy declares
    expect(bad.stderr).toContain("spec.validations[2].expression: Invalid value: \"authorizer.path('/x').check('get').allowed() && variables.v == 1 && params == null && namespaceObject != null\": compilation failed: ERROR: <input>:1:58: undefined field 'v'");
    expect(bad.stderr).toContain('spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge"');
    expect(bad.stderr).toContain('spec.variables[0].name: Invalid value: "not-an-identifier": name is not a valid CEL identifier');
    const typed = await apply({
      apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'typed' },
      spec: {
        matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] },
        matchConditions: [{ name: 'm', expression: 'variables.size() > 0' }],
        variables: [{ name: 'n', expression: 'object.spec.replicas' }, { name: 'user', expression: 'request.userInfo.username' }, { name: 'early', expression: 'variables.late' }, { name: 'late', expression: '1' }],
        validations: [
          { expression: "request.operation == 'CREATE' && request.userInfo.groups.exists(g, g == 'x') && request.options != null && namespaceObject.metadata.labels['a'] == 'b'" },
          { expression: 'request.operatoin == "CREATE"' },
          { expression: 'request.userInfo.username > 1' },
          { expression: 'request.dryRun', messageExpression: "authorizer.group('').resource('pods').check('get').reason()" },
          { expression: "object.spec.replicas > 1 && variables.n > 1 && variables.user == 'me' && variables.late > 0", messageExpression: 'variables.late' },
          { expression: 'size(request.name)' },
          { expression: 'params.max > 1' },
        ],
        auditAnnotations: [{ key: 'k', valueExpression: 'request.dryRun' }],
      },
    });
    expect(typed.code).not.toBe(0);
    for (const m of [
      "spec.matchConditions[0].expression: Invalid value: \"variables.size() > 0\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')",
      "spec.variables[2].expression: Invalid value: \"variables.late\": compilation failed: ERROR: <input>:1:10: undefined field 'late'",
      "spec.validations[1].expression: Invalid value: \"request.operatoin == \\\"CREATE\\\"\": compilation failed: ERROR: <input>:1:8: undefined field 'operatoin'\n | request.operatoin == \"CREATE\"\n | .......^",
      "spec.validations[2].expression: Invalid value: \"request.userInfo.username > 1\": compilation failed: ERROR: <input>:1:27: found no matching overload for '_>_' applied to '(string, int)'",
      "spec.validations[3].messageExpression: Invalid value: \"authorizer.group('').resource('pods').check('get').reason()\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')",
      "spec.validations[4].messageExpression: Invalid value: \"variables.late\": must evaluate to string but got int",
      "spec.validations[5].expression: Invalid value: \"size(request.name)\": must evaluate to bool but got int",
      "spec.validations[6].expression: Invalid value: \"params.max > 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')",
      "spec.auditAnnotations[0].valueExpression: Invalid value: \"request.dryRun\": must evaluate to one of [string null_type] but got bool",
    ]) expect(typed.stderr).toContain(m);
    for (const ok of ['spec.validations[0]', 'spec.validations[4].expression', 'spec.validations[3].expression', 'spec.variables[0]', 'spec.variables[1]']) expect(typed.stderr).not.toContain(ok);
    const empty = await apply({ apiVersion: AR, kind: 'ValidatingAdmissionPolicy', metadata: { name: 'empty' }, spec: {} });
    expect(empty.stderr).toContain('spec.matchConstraints: Required value');
    expect(empty.stderr).toContain('spec.validations: Required value: validations or auditAnnotations must contain at least one item');
    const binding = await apply({ apiVersion: AR, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { validationActions: ['Deny', 'Warn'] } });
    expect(binding.code).not.toBe(0);
    expect(binding.stderr).toContain('spec.policyName: Required value');
    expect(binding.stderr).toContain('spec.validationActions: Invalid value: []string{"Deny", "Warn"}: must not contain both Deny and Warn');
  });
});
