import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

const A = 'io.k8s.api.admissionregistration.v1.';
const run = (def: string, o: Record<string, any>) => {
  groupVersion.defaulters![`${A}${def}`]!(o);
  return o;
};

describe('admissionregistration.k8s.io/v1', () => {
  it('references only known definitions and serves four cluster-scoped kinds', () => {
    expect(danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })).toEqual([]);
    expect(groupVersion.resources.map((r) => [r.plural, r.namespaced])).toEqual([
      ['mutatingwebhookconfigurations', false], ['validatingadmissionpolicies', false],
      ['validatingadmissionpolicybindings', false], ['validatingwebhookconfigurations', false],
    ]);
    expect(groupVersion.resources.map((r) => r.singular)).toContain('validatingadmissionpolicy');
    expect(groupVersion.resources[1]!.subresources?.map((s) => s.name)).toEqual(['status']);
  });

  it('defaults webhooks, rules, services, policies and param refs as upstream', () => {
    expect(run('MutatingWebhook', { name: 'w' })).toEqual({
      name: 'w', failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10, reinvocationPolicy: 'Never',
    });
    expect(run('ValidatingWebhook', { name: 'w', failurePolicy: 'Ignore', timeoutSeconds: 3 })).toMatchObject({ failurePolicy: 'Ignore', timeoutSeconds: 3 });
    expect(run('RuleWithOperations', {}).scope).toBe('*');
    expect(run('ServiceReference', { name: 's', namespace: 'n' }).port).toBe(443);
    expect(run('ValidatingAdmissionPolicySpec', {}).failurePolicy).toBe('Fail');
    expect(run('MatchResources', {})).toEqual({ matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
    expect(run('ParamRef', { name: 'p' }).parameterNotFoundAction).toBe('Deny');
  });
});
