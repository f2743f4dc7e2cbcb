import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { priorityClassStrategy } from './priorityclasses.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('PriorityClass validation', () => {
  const pc = (name: string, value: number, extra: Record<string, unknown> = {}): string[] =>
    strs(priorityClassStrategy.validate!({ metadata: { name }, value, ...extra } as KubeObject, ctx));

  it('takes user classes and the system ones', () => {
    expect(pc('high', 1000000000, { preemptionPolicy: 'Never' })).toEqual([]);
    expect(pc('system-node-critical', 2000001000)).toEqual([]);
    expect(pc('system-cluster-critical', 2000000000)).toEqual([]);
  });

  it('refuses values above the user maximum, unknown system classes and policies', () => {
    expect(pc('p', 2000000000)).toEqual(['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']);
    expect(pc('system-foo', 1)).toEqual(["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-foo is not a known system priority class"]);
    expect(pc('system-node-critical', 5)).toEqual(["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"]);
    expect(pc('p', 1, { preemptionPolicy: 'Sometimes' })).toEqual(['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']);
  });

  it('keeps value and policy on update', () => {
    const old = { metadata: { name: 'p' }, value: 1, preemptionPolicy: 'Never' } as KubeObject;
    expect(strs(priorityClassStrategy.validateUpdate!({ ...old, value: 2, preemptionPolicy: 'PreemptLowerPriority' }, old, ctx))).toEqual([
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "PreemptLowerPriority": field is immutable',
    ]);
  });
});
