// PodDisruptionBudget spec rules, each with upstream's path and message.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { podDisruptionBudgetStrategy, validatePodDisruptionBudgetSpec } from './poddisruptionbudgets.js';

const msgs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const pdb = (spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p', namespace: 'd' }, spec });
const ctx = {} as never;

describe('PodDisruptionBudget', () => {
  it('takes what kubectl create pdb makes', () => {
    expect(validatePodDisruptionBudgetSpec(pdb({ minAvailable: 1, selector: { matchLabels: { app: 'a' } } }))).toEqual([]);
    expect(validatePodDisruptionBudgetSpec(pdb({ maxUnavailable: '100%', selector: {}, unhealthyPodEvictionPolicy: 'AlwaysAllow' }))).toEqual([]);
    expect(validatePodDisruptionBudgetSpec(pdb({}))).toEqual([]);
  });

  it('refuses minAvailable with maxUnavailable', () => {
    expect(msgs(validatePodDisruptionBudgetSpec(pdb({ minAvailable: 1, maxUnavailable: '10%', selector: { matchLabels: { app: 'a' } } })))).toEqual([
      'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000010000), Selector:(*v1.LabelSelector)(0xc000010000), '
        + 'MaxUnavailable:(*intstr.IntOrString)(0xc000010000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: '
        + 'minAvailable and maxUnavailable cannot be both set',
    ]);
  });

  it('checks the counts and percentages', () => {
    expect(msgs(validatePodDisruptionBudgetSpec(pdb({ minAvailable: -1 })))).toEqual(['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']);
    expect(msgs(validatePodDisruptionBudgetSpec(pdb({ maxUnavailable: '101%' }))))
      .toEqual(['spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%']);
    expect(msgs(validatePodDisruptionBudgetSpec(pdb({ minAvailable: 'half' })))).toEqual([
      'spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending \'%\' '
        + "(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]);
  });

  it('checks the selector and the eviction policy', () => {
    expect(msgs(validatePodDisruptionBudgetSpec(pdb({ selector: { matchExpressions: [{ key: 'a', operator: 'In' }] }, unhealthyPodEvictionPolicy: 'Never' })))).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ]);
  });

  it('lets an update keep the invalid label values of a stored selector', () => {
    const bad = pdb({ selector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['a b'] }] } });
    expect(msgs(podDisruptionBudgetStrategy.validate!(bad, ctx))).toHaveLength(1);
    expect(podDisruptionBudgetStrategy.validateUpdate!(bad, bad, ctx)).toEqual([]);
    expect(msgs(podDisruptionBudgetStrategy.validateUpdate!(bad, pdb({}), ctx))).toHaveLength(1);
  });
});
