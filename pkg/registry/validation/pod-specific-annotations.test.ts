import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { isValidPodDeletionCost, validatePodSpecificAnnotations } from './pod-specific-annotations.js';

const MIRROR = 'kubernetes.io/config.mirror';
const TOLERATIONS = 'scheduler.alpha.kubernetes.io/tolerations';
const COST = 'controller.kubernetes.io/pod-deletion-cost';
const spec: KubeObject = { containers: [{ name: 'c' }] };
const errors = (annotations: Record<string, string>, s: KubeObject = spec, allowInvalidDeletionCost = false): string[] =>
  validatePodSpecificAnnotations(annotations, s, 'metadata.annotations', allowInvalidDeletionCost).map(causeToString);

describe('validatePodSpecificAnnotations (ValidatePodSpecificAnnotations)', () => {
  it('accepts a mirror pod bound to its node, good tolerations, an int32 deletion cost', () => {
    expect(errors({ [MIRROR]: 'h', [TOLERATIONS]: '[{"key":"k","operator":"Exists","effect":"NoSchedule"}]', [COST]: '-2147483648' }, { ...spec, nodeName: 'n' })).toEqual([]);
    expect(errors({ [TOLERATIONS]: '', [COST]: '0' })).toEqual([]);
  });

  it('refuses a mirror pod without spec.nodeName', () => {
    expect(errors({ [MIRROR]: '' })).toEqual([`metadata.annotations[${MIRROR}]: Invalid value: "": must set spec.nodeName if mirror pod annotation is set`]);
  });

  it('refuses tolerations that are no JSON list of tolerations, or tolerations that are invalid, at the annotation as a child path', () => {
    const bad = (detail: string): string => `metadata.annotations: Invalid value: "${TOLERATIONS}": ${detail}`;
    expect(errors({ [TOLERATIONS]: '[{' })).toEqual([bad('unexpected end of JSON input')]);
    expect(errors({ [TOLERATIONS]: 'x' })).toEqual([bad("invalid character 'x' looking for beginning of value")]);
    expect(errors({ [TOLERATIONS]: '{}' })).toEqual([bad('json: cannot unmarshal object into Go value of type []core.Toleration')]);
    expect(errors({ [TOLERATIONS]: '["a"]' })).toEqual([bad('json: cannot unmarshal string into Go value of type core.Toleration')]);
    expect(errors({ [TOLERATIONS]: '[{"key":1}]' })).toEqual([bad('json: cannot unmarshal number into Go struct field Toleration.key of type string')]);
    expect(errors({ [TOLERATIONS]: '[{"operator":true}]' })).toEqual([bad('json: cannot unmarshal bool into Go struct field Toleration.operator of type core.TolerationOperator')]);
    expect(errors({ [TOLERATIONS]: '[{"tolerationSeconds":"1"}]' })).toEqual([bad('json: cannot unmarshal string into Go struct field Toleration.tolerationSeconds of type int64')]);
    expect(errors({ [TOLERATIONS]: '[{"tolerationSeconds":1.5}]' })).toEqual([bad('json: cannot unmarshal number 1.5 into Go struct field Toleration.tolerationSeconds of type int64')]);
    expect(errors({ [TOLERATIONS]: 'null' })).toEqual([]);
    expect(errors({ [TOLERATIONS]: '[{"operator":"Equal","value":"v"},{"key":"k","operator":"Exists","value":"v"}]' })).toEqual([
      `metadata.annotations.${TOLERATIONS}[0].operator: Invalid value: "Equal": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`,
      `metadata.annotations.${TOLERATIONS}[1].operator: Invalid value: "v": value must be empty when \`operator\` is 'Exists'`,
    ]);
  });

  it('refuses a deletion cost that is no plain 32-bit integer, unless allowed (an update of an object whose cost was already invalid)', () => {
    for (const cost of ['', '+1', '01', '2147483648', '-2147483649', '1.0', 'x', '-']) {
      expect(errors({ [COST]: cost })).toEqual([`metadata.annotations[${COST}]: Invalid value: ${JSON.stringify(cost)}: must be a 32bit integer`]);
      expect(isValidPodDeletionCost({ [COST]: cost })).toBe(false);
    }
    expect(errors({ [COST]: 'x' }, spec, true)).toEqual([]);
    expect(isValidPodDeletionCost({})).toBe(true);
    expect(isValidPodDeletionCost({ [COST]: '-007' })).toBe(true);
  });

  it('reports in upstream\'s order: mirror, tolerations, deletion cost, seccomp, AppArmor', () => {
    expect(errors({
      'container.apparmor.security.beta.kubernetes.io/gone': 'unconfined',
      'seccomp.security.alpha.kubernetes.io/pod': 'bogus',
      [COST]: 'x',
      [TOLERATIONS]: '{',
      [MIRROR]: 'h',
    })).toEqual([
      `metadata.annotations[${MIRROR}]: Invalid value: "h": must set spec.nodeName if mirror pod annotation is set`,
      `metadata.annotations: Invalid value: "${TOLERATIONS}": unexpected end of JSON input`,
      `metadata.annotations[${COST}]: Invalid value: "x": must be a 32bit integer`,
      'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile',
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/gone]: Invalid value: "gone": container not found',
    ]);
  });
});
