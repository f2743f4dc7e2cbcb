import { describe, expect, it } from 'vitest';
import { validatePodSpecUpdate } from './pod-update.js';

const base = {
  containers: [{ name: 'c', image: 'nginx' }], activeDeadlineSeconds: 100, schedulingGates: [{ name: 'a' }],
  tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 10 }],
};
const msgs = (spec: Record<string, unknown>, old: Record<string, unknown> = base): string[] =>
  validatePodSpecUpdate({ ...base, ...spec }, old).map((c) => `${c.field}: ${c.message}`);

describe('ValidatePodUpdate', () => {
  it('allows images, a shorter deadline, added tolerations, other tolerationSeconds and removed gates', () => {
    expect(msgs({ containers: [{ name: 'c', image: 'nginx:2' }], activeDeadlineSeconds: 50, schedulingGates: [] })).toEqual([]);
    expect(msgs({ tolerations: [{ ...base.tolerations[0], tolerationSeconds: 99 }, { key: 'x', operator: 'Exists' }] })).toEqual([]);
  });

  it('refuses what upstream refuses, in its words', () => {
    expect(msgs({ activeDeadlineSeconds: 500 })).toEqual(['spec.activeDeadlineSeconds: Invalid value: 500: must be less than or equal to previous value']);
    expect(msgs({ activeDeadlineSeconds: undefined })).toEqual(['spec.activeDeadlineSeconds: Invalid value: "null": must not update from a positive integer to nil value']);
    expect(msgs({ tolerations: [] })).toEqual(['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
    expect(msgs({ schedulingGates: [{ name: 'a' }, { name: 'b' }] })).toEqual(['spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate \'b\'']);
    expect(msgs({ containers: [] })).toEqual(['spec.containers: Forbidden: pod updates may not add or remove containers']);
    expect(msgs({ containers: [{ name: 'c', image: ' nginx' }] })).toEqual(['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace']);
    expect(msgs({ hostNetwork: true })[0]).toMatch(/^spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
  });

  it('lets a gated pod add to its nodeSelector and required node affinity, and nothing else there', () => {
    const term = (...keys: string[]) => ({ matchExpressions: keys.map((key) => ({ key, operator: 'Exists' })) });
    const affinity = (...terms: unknown[]) => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } });
    const gated = { ...base, nodeSelector: { zone: 'a' }, affinity: affinity(term('x')) };
    expect(msgs({ nodeSelector: { zone: 'a', disk: 'ssd' }, affinity: affinity(term('x', 'y')) }, gated)).toEqual([]);
    expect(msgs({ nodeSelector: {}, affinity: affinity(term('x')) }, gated)).toEqual(['spec.nodeSelector: Invalid value: {}: only additions to spec.nodeSelector are allowed (no mutations or deletions)']);
    expect(msgs({ nodeSelector: { zone: 'a' }, affinity: affinity(term('x'), term('z')) }, gated)[0])
      .toMatch(/^spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Invalid value: .*: no additions\/deletions to non-empty NodeSelectorTerms list are allowed$/);
    // once ungated, the same change is refused as any other
    const { schedulingGates: _g, ...ungated } = gated;
    expect(msgs({ schedulingGates: undefined, nodeSelector: { zone: 'a', disk: 'ssd' } }, ungated)[0]).toMatch(/^spec: Forbidden: pod updates may not change/);
  });
});
