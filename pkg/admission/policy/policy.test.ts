import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { authorizerValue, compile, COST_LIMIT_EXCEEDED, evaluate, type AccessQuestion } from '../../apimachinery/cel/index.js';
import { attrs, memoryDeps } from '../testing.js';
import { withAnswers } from './cel.js';
import { ValidatingAdmissionPolicy } from './validating.js';

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
});
