import { beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { authorizerValue, compile, COST_LIMIT_EXCEEDED, evaluate, type AccessQuestion, loadCel } from '../../apimachinery/cel/index.js';
import { attrs, memoryDeps } from '../testing.js';
import { withAnswers } from './cel.js';
import { ValidatingAdmissionPolicy } from './validating.js';

// what the apiserver does before admitting a write
beforeAll(async () => { await loadCel(); });

const G = 'admissionregistration.k8s.io';
const rules = [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
const policy = (name: string, spec: Record<string, unknown>) => ({ group: G, plural: 'validatingadmissionpolicies', obj: { metadata: { name }, spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: rules }, ...spec } } });
const binding = (name: string, spec: Record<string, unknown>) => ({ group: G, plural: 'validatingadmissionpolicybindings', obj: { metadata: { name }, spec: { validationActions: ['Deny'], ...spec } } });
const cm = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', labels }, data });
const check = (objects: Parameters<typeof memoryDeps>[0], obj: KubeObject, op: 'CREATE' | 'DELETE' = 'CREATE') =>
  Promise.resolve().then(() => new ValidatingAdmissionPolicy(memoryDeps(objects)).validate(op === 'DELETE' ? attrs('configmaps', op, undefined, { oldObject: obj, name: obj.metadata!.name! }) : attrs('configmaps', op, obj)));

describe('ValidatingAdmissionPolicy', () => {
  it('denies with message, reason and code; admits what passes', async () => {
    const objs = [policy('p', { validations: [{ expression: 'object.data.x == "1"', message: 'x must be 1', reason: 'Forbidden' }] }), binding('b', { policyName: 'p' })];
    await expect(check(objs, cm('ok', { x: '1' }))).resolves.toBeUndefined();
    await expect(check(objs, cm('bad', { x: '2' }))).rejects.toMatchObject({
      code: 403, reason: 'Forbidden', message: `configmaps "bad" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: x must be 1`,
    });
  });

  it('shares the Kubernetes CEL libraries with CRD rules', async () => {
    const objs = [policy('p', { validations: [{ expression: 'quantity(object.data.size).isLessThan(quantity("1Gi")) && isURL(object.data.url)', message: 'too big' }] }), binding('b', { policyName: 'p' })];
    await expect(check(objs, cm('ok', { size: '512Mi', url: 'https://x.example' }))).resolves.toBeUndefined();
    await expect(check(objs, cm('big', { size: '2Gi', url: 'https://x.example' }))).rejects.toMatchObject({ code: 422, reason: 'Invalid' });
  });

  it('enforces evaluation errors only under failurePolicy Fail', async () => {
    const spec = { validations: [{ expression: 'object.data.missing == "1"' }] };
    await expect(check([policy('p', spec), binding('b', { policyName: 'p' })], cm('c'))).rejects.toThrow(/resulted in error/);
    await expect(check([policy('p', { ...spec, failurePolicy: 'Ignore' }), binding('b', { policyName: 'p' })], cm('c'))).resolves.toBeUndefined();
  });

  it('evaluates once per selected param, and follows parameterNotFoundAction', async () => {
    const spec = { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'object.metadata.name != params.data.forbidden' }] };
    const params = [{ plural: 'configmaps', obj: cm('p1', { forbidden: 'a' }, { role: 'param' }) }, { plural: 'configmaps', obj: cm('p2', { forbidden: 'b' }, { role: 'param' }) }];
    const objs = [...params, policy('p', spec), binding('b', { policyName: 'p', paramRef: { selector: { matchLabels: { role: 'param' } }, parameterNotFoundAction: 'Deny' } })];
    await expect(check(objs, cm('b'))).rejects.toThrow(/denied request: failed expression: object.metadata.name != params.data.forbidden/);
    await expect(check(objs, cm('c'))).resolves.toBeUndefined();
    const none = (action: string) => [policy('p', spec), binding('b', { policyName: 'p', paramRef: { name: 'absent', parameterNotFoundAction: action } })];
    await expect(check(none('Allow'), cm('c'))).resolves.toBeUndefined();
    await expect(check(none('Deny'), cm('c'))).rejects.toThrow(/no params found/);
  });

  it('refuses a binding naming a namespace for a cluster-scoped paramKind, and a policy whose paramKind is unknown', async () => {
    const spec = (kind: string) => ({ paramKind: { apiVersion: kind === 'Nope' ? 'example.com/v1' : 'v1', kind }, validations: [{ expression: 'true' }] });
    const ns = { plural: 'namespaces', obj: { metadata: { name: 'x' } } };
    await expect(check([ns, policy('p', spec('Namespace')), binding('b', { policyName: 'p', paramRef: { name: 'x', namespace: 'x', parameterNotFoundAction: 'Deny' } })], cm('c')))
      .rejects.toThrow("ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
    await expect(check([ns, policy('p', spec('Namespace')), binding('b', { policyName: 'p', paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } })], cm('c'))).resolves.toBeUndefined();
    // the policy's error, even when its only binding does not match the request
    const excluded = binding('b', { policyName: 'p', paramRef: { name: 'x', parameterNotFoundAction: 'Deny' }, matchResources: { excludeResourceRules: rules } });
    await expect(check([policy('p', spec('Nope')), excluded], cm('c'))).rejects.toMatchObject({
      message: "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Nope'",
    });
    await expect(check([policy('p', { ...spec('Nope'), failurePolicy: 'Ignore' }), excluded], cm('c'))).resolves.toBeUndefined();
  });

  it('audits a failed validation under its index among all the policy\'s validations', async () => {
    const spec = { validations: [{ expression: 'true' }, { expression: 'false', message: 'second' }] };
    const a = attrs('configmaps', 'CREATE', cm('c'), { auditAnnotations: {} });
    await new ValidatingAdmissionPolicy(memoryDeps([policy('p', spec), binding('b', { policyName: 'p', validationActions: ['Audit'] })])).validate(a);
    expect(JSON.parse(a.auditAnnotations!['validation.policy.admission.k8s.io/validation_failure']!)).toEqual([
      { message: 'second', policy: 'p', binding: 'b', expressionIndex: 1, validationActions: ['Audit'] },
    ]);
  });

  it('sees oldObject on DELETE and skips bindings whose matchResources exclude the request', async () => {
    const spec = { validations: [{ expression: 'request.operation != "DELETE" || !has(oldObject.metadata.labels.keep)', message: 'kept' }] };
    const kept = cm('k', {}, { keep: 'yes' });
    await expect(check([policy('p', spec), binding('b', { policyName: 'p' })], kept, 'DELETE')).rejects.toThrow(/kept/);
    const excluded = binding('b', { policyName: 'p', matchResources: { excludeResourceRules: rules } });
    await expect(check([policy('p', spec), excluded], kept, 'DELETE')).resolves.toBeUndefined();
  });

  it('asks the authorizer for the request\'s user through the authorizer library, once per distinct check', async () => {
    const asked: AccessQuestion[] = [];
    const deps = memoryDeps([policy('p', { validations: [
      { expression: "authorizer.group('apps').resource('deployments').namespace('ns').name('d').check('update').allowed()", messageExpression: "'no: ' + authorizer.group('apps').resource('deployments').namespace('ns').name('d').check('update').reason()" },
      { expression: "authorizer.path('/healthz').check('get').allowed() && !authorizer.serviceAccount('ns', 'sa').group('').resource('secrets').check('list').allowed()", message: 'paths' },
      { expression: "authorizer.requestResource.check('create').allowed() && !authorizer.requestResource.subresource('status').check('create').errored()", message: 'request' },
    ] }), binding('b', { policyName: 'p' })]);
    deps.review = async (q) => {
      asked.push(q);
      const allowed = q.user.name === 'alice' && (q.resource === 'configmaps' ? q.subresource === '' : q.path === '/healthz' || q.name === 'd');
      return { allowed, reason: allowed ? 'RBAC: allowed' : 'RBAC: no rule' };
    };
    const plugin = new ValidatingAdmissionPolicy(deps);
    const as = (name: string) => attrs('configmaps', 'CREATE', cm('c'), { user: { name, groups: ['system:authenticated'] } });
    await expect(plugin.validate(as('alice'))).resolves.toBeUndefined();
    expect(asked).toContainEqual({ user: { name: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] }, verb: 'list', group: '', resource: 'secrets' });
    expect(asked).toContainEqual({ user: { name: 'alice', groups: ['system:authenticated'] }, verb: 'create', group: '', resource: 'configmaps', subresource: 'status', namespace: 'ns', name: 'c' });
    expect(asked.filter((q) => q.name === 'd')).toHaveLength(1);
    await expect(plugin.validate(as('bob'))).rejects.toThrow("ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no: RBAC: no rule");
  });

  it('charges the authorizer library as upstream (a check 350000: a third passes the per-call limit) and hands selectors to the authorizer', async () => {
    const asked: AccessQuestion[] = [];
    const review = async (q: AccessQuestion) => { asked.push(q); return { allowed: true, reason: '' }; };
    const bindings = { authorizer: authorizerValue({ name: 'alice', groups: [] }, { group: '', resource: 'configmaps', subresource: '', namespace: 'ns', name: 'c' }) };
    const run = (expr: string) => withAnswers(review, () => evaluate(compile(expr).program, bindings));
    const pods = "authorizer.group('').resource('pods')";
    expect(await run(`${pods}.check('get').allowed()`)).toEqual({ result: true, cost: 350_003 });
    // a selector costs its parse: 10 + a tenth of its length + 50 per possible requirement (one per two characters)
    expect(await run(`${pods}.fieldSelector('spec.nodeName=n1').labelSelector('a=b').check('list').allowed()`)).toEqual({ result: true, cost: 350_003 + 412 + 111 });
    expect(asked).toContainEqual({ user: { name: 'alice', groups: [] }, verb: 'list', group: '', resource: 'pods', fieldSelector: 'spec.nodeName=n1', labelSelector: 'a=b' });
    expect((await run(`${pods}.check('get').allowed() && ${pods}.check('list').allowed()`)).result).toBe(true);
    const three = await run(`${pods}.check('get').allowed() && ${pods}.check('list').allowed() && ${pods}.check('watch').allowed()`);
    expect((three.result as Error).message).toBe(COST_LIMIT_EXCEEDED);
  });
  it('runs every binding before denying: Warn and Audit act on each failure, the first Deny refuses', async () => {
    const objs = [
      policy('p', { validations: [{ expression: 'object.data.x == "1"', message: 'x must be 1' }] }),
      binding('a-deny', { policyName: 'p' }), binding('b-warn', { policyName: 'p', validationActions: ['Warn', 'Audit'] }),
    ];
    const a = attrs('configmaps', 'CREATE', cm('bad', { x: '2' }), { auditAnnotations: {} });
    await expect(new ValidatingAdmissionPolicy(memoryDeps(objs)).validate(a)).rejects.toThrow("ValidatingAdmissionPolicy 'p' with binding 'a-deny' denied request: x must be 1");
    expect(a.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b-warn': x must be 1"]);
    expect(JSON.parse(a.auditAnnotations!['validation.policy.admission.k8s.io/validation_failure']!)).toEqual([
      { message: 'x must be 1', policy: 'p', binding: 'b-warn', expressionIndex: 0, validationActions: ['Warn', 'Audit'] },
    ]);
  });

  it('publishes auditAnnotations as <policy>/<key> (distinct values of several bindings joined), and denies on a value of another type', async () => {
    const spec = { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, auditAnnotations: [
      { key: 'who', valueExpression: '"  " + params.data.team + " "' }, { key: 'none', valueExpression: 'null' }, { key: 'empty', valueExpression: '"  "' },
    ] };
    const params = [{ plural: 'configmaps', obj: cm('p1', { team: 'a' }) }, { plural: 'configmaps', obj: cm('p2', { team: 'b' }) }];
    const objs = [...params, policy('p', spec), ...['b1', 'b2', 'b3'].map((b, i) => binding(b, { policyName: 'p', paramRef: { name: i === 1 ? 'p2' : 'p1', parameterNotFoundAction: 'Deny' } }))];
    const a = attrs('configmaps', 'CREATE', cm('c'), { auditAnnotations: {} });
    await new ValidatingAdmissionPolicy(memoryDeps(objs)).validate(a);
    expect(a.auditAnnotations).toEqual({ 'p/who': 'a, b' });
    const typed = [policy('q', { auditAnnotations: [{ key: 'n', valueExpression: 'object.data.size() > 0 ? dyn(1) : dyn("x")' }] }), binding('b', { policyName: 'q', validationActions: ['Warn'] })];
    await expect(check(typed, cm('c', { k: 'v' }))).rejects.toThrow(/denied request: valueExpression '.*' resulted in unsupported return type: int. Return type must be either string or null./);
  });

  it('runs a policy\'s validations on one runtime cost budget (upstream\'s RuntimeCELCostBudget)', async () => {
    // two authorizer checks cost 700,006 (under the per-call limit); fifteen of them pass the budget of 10,000,000
    const expensive = "authorizer.group('').resource('pods').check('get').allowed() && authorizer.group('').resource('pods').check('list').allowed()";
    const deps = (n: number) => {
      const d = memoryDeps([policy('p', { validations: Array.from({ length: n }, () => ({ expression: expensive })) }), binding('b', { policyName: 'p' })]);
      d.review = async () => ({ allowed: true, reason: '' });
      return d;
    };
    await expect(new ValidatingAdmissionPolicy(deps(14)).validate(attrs('configmaps', 'CREATE', cm('c')))).resolves.toBeUndefined();
    await expect(new ValidatingAdmissionPolicy(deps(15)).validate(attrs('configmaps', 'CREATE', cm('c'))))
      .rejects.toThrow("denied request: validation failed due to running out of cost budget, no further validation rules will be run");
  });
  it('evaluates variables lazily as upstream\'s composition: a failing one fails only the expressions that read it', async () => {
    const variables = [{ name: 'n', expression: 'int(object.data.n)' }, { name: 'twice', expression: 'variables.n * 2' }, { name: 'broken', expression: 'object.data.missing' }];
    const objs = (validations: unknown[]) => [policy('p', { variables, validations }), binding('b', { policyName: 'p' })];
    await expect(check(objs([{ expression: 'variables.twice == 4', message: 'not 2' }, { expression: 'false && variables.broken == ""' }]), cm('c', { n: '2' }))).rejects.toThrow(/denied request: failed expression: false && variables.broken/);
    await expect(check(objs([{ expression: 'variables.twice == 4' }]), cm('c', { n: '2' }))).resolves.toBeUndefined();
    await expect(check(objs([{ expression: 'variables.broken == ""' }]), cm('c', { n: '2' })))
      .rejects.toThrow(`denied request: expression 'variables.broken == ""' resulted in error: composited variable "broken" fails to evaluate: no such key: missing`);
  });
});
