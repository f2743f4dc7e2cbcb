import { describe, expect, it } from 'vitest';
import type { StatusCause } from '../../apimachinery/errors.js';
import { isQualifiedName, isValidLabelValue } from '../../apimachinery/names.js';
import { validateTolerations } from './tolerations.js';

const messages = (t: unknown[]): string[] => {
  const causes: StatusCause[] = [];
  validateTolerations(t, 'spec.tolerations', causes);
  return causes.map((x) => `${x.field}: ${x.message}`);
};

describe('validateTolerations', () => {
  it('takes the usual tolerations', () => {
    expect(messages([{ operator: 'Exists' }, { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }, { key: 'k', value: 'v' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }])).toEqual([]);
  });

  it('checks key, operator, value, effect and tolerationSeconds', () => {
    expect(messages([
      { key: 'bad key!', operator: 'Exists' },
      { operator: 'Equal', value: 'v' },
      { key: 'k', operator: 'Exists', value: 'v', effect: 'NoSchedule', tolerationSeconds: 10 },
      { key: 'k', value: 'bad value!' },
      { key: 'k', operator: 'Foo', effect: 'Sometimes' },
    ])).toEqual([
      ...isQualifiedName('bad key!').map((m) => `spec.tolerations[0].key: Invalid value: "bad key!": ${m}`),
      'spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      "spec.tolerations[2].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
      "spec.tolerations[2].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
      `spec.tolerations[3].operator: Invalid value: "bad value!": ${isValidLabelValue('bad value!').join(';')}`,
      'spec.tolerations[4].operator: Unsupported value: "Foo": supported values: "Equal", "Exists"',
      'spec.tolerations[4].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]);
  });
});
