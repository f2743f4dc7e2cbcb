import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { resourceQuotaStrategy, validateResourceQuotaSpec } from './resourcequotas.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('ResourceQuota validation', () => {
  it('takes usual quotas', () => {
    expect(validateResourceQuotaSpec({ hard: { pods: '2', 'requests.cpu': '500m', 'limits.memory': '1Gi', 'count/deployments.apps': '3' } })).toEqual([]);
    expect(validateResourceQuotaSpec({ hard: { pods: '2' }, scopes: ['NotBestEffort', 'Terminating'] })).toEqual([]);
  });

  it('checks names, quantities and scopes', () => {
    expect(strs(validateResourceQuotaSpec({ hard: { pods: '-1' } }))).toEqual(['spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0']);
    expect(strs(validateResourceQuotaSpec({ hard: { pods: '1500m', foo: '1', storage: '1Gi' } }))).toEqual([
      'spec.hard[pods]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1500m", Format:"DecimalSI"}: must be an integer',
      'spec.hard[foo]: Invalid value: foo: must be a standard resource type or fully qualified',
      'spec.hard[foo]: Invalid value: foo: must be a standard resource for quota',
      'spec.hard[storage]: Invalid value: storage: must be a standard resource for quota',
    ]);
    expect(strs(validateResourceQuotaSpec({ hard: { cpu: '1' }, scopes: ['BestEffort', 'NotBestEffort', 'Bogus'] }))).toEqual([
      'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort", "Bogus"}: unsupported scope applied to resource',
      'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort", "Bogus"}: unsupported scope',
      'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort", "Bogus"}: conflicting scopes',
    ]);
    expect(strs(validateResourceQuotaSpec({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }, { scopeName: 'BestEffort', operator: 'In', values: ['x'] }] } }))).toEqual([
      "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      "spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
    ]);
  });

  it('keeps scopes on update', () => {
    const old = { spec: { scopes: ['BestEffort'] } } as KubeObject;
    expect(strs(resourceQuotaStrategy.validateUpdate!({ spec: { scopes: ['NotBestEffort'] } } as KubeObject, old, ctx))).toEqual([
      'spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotBestEffort"}: field is immutable',
    ]);
  });
});
