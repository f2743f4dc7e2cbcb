import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { storageClassStrategy } from './storageclasses.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('StorageClass validation', () => {
  const sc = (o: Record<string, unknown>): string[] =>
    strs(storageClassStrategy.validate!({ provisioner: 'kubernetes.io/no-provisioner', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate', ...o } as KubeObject, ctx));

  it('checks provisioner, policy and binding mode', () => {
    expect(sc({})).toEqual([]);
    expect(sc({ reclaimPolicy: 'Foo', volumeBindingMode: 'Later' })).toEqual([
      'reclaimPolicy: Unsupported value: "Foo": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ]);
    expect(sc({ provisioner: '' })).toEqual(['provisioner: Required value']);
    expect(sc({ provisioner: 'Example.com/Bad Name' })).toEqual([
      expect.stringMatching(/^provisioner: Invalid value: "example.com\/bad name": name part must consist of alphanumeric characters/),
    ]);
  });

  it('checks allowedTopologies as upstream', () => {
    const zone = (values: string[], key = 'topology.kubernetes.io/zone') => ({ key, values });
    // what a CSI driver's class usually restricts: zones, one term or several
    expect(sc({ allowedTopologies: [{ matchLabelExpressions: [zone(['us-east-1a', 'us-east-1b'])] }] })).toEqual([]);
    expect(sc({ allowedTopologies: [{ matchLabelExpressions: [zone(['a'])] }, { matchLabelExpressions: [zone(['b']), zone(['x'], 'rack')] }] })).toEqual([]);
    expect(sc({ allowedTopologies: [{ matchLabelExpressions: [zone([]), zone(['a', 'a'], 'rack'), zone(['b'], 'rack')] }] })).toEqual([
      'allowedTopologies[0].matchLabelExpressions[0].values: Required value',
      'allowedTopologies[0].matchLabelExpressions[1].values[1]: Duplicate value: "a"',
      'allowedTopologies[0].matchLabelExpressions[2].key: Duplicate value: "rack"',
    ]);
    // an empty key is the label name's two errors, not "Required value"
    expect(sc({ allowedTopologies: [{ matchLabelExpressions: [zone(['a'], '')] }] })).toEqual([
      'allowedTopologies[0].matchLabelExpressions[0].key: Invalid value: "": name part must be non-empty',
      expect.stringMatching(/^allowedTopologies\[0\]\.matchLabelExpressions\[0\]\.key: Invalid value: "": name part must consist of alphanumeric characters/),
    ]);
    // the same term twice (values in another order, or repeated, are the same set)
    expect(sc({ allowedTopologies: [{ matchLabelExpressions: [zone(['a', 'b'])] }, { matchLabelExpressions: [zone(['b', 'a', 'b'])] }] })).toEqual([
      'allowedTopologies[1].matchLabelExpressions[0].values[2]: Duplicate value: "b"',
      'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""',
    ]);
    // upstream's quirk: a term without expressions equals the nil terms its list starts with, once per term
    expect(sc({ allowedTopologies: [{}] })).toEqual(['allowedTopologies[0].matchLabelExpressions: Duplicate value: ""']);
    expect(sc({ allowedTopologies: [{ matchLabelExpressions: [] }, { matchLabelExpressions: [zone(['a'])] }, {}] })).toEqual([
      ...Array(3).fill('allowedTopologies[0].matchLabelExpressions: Duplicate value: ""'),
      ...Array(4).fill('allowedTopologies[2].matchLabelExpressions: Duplicate value: ""'),
    ]);
  });

  it('warns of deprecated node labels as allowedTopologies keys', () => {
    const terms = { allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['a'] }, { key: 'failure-domain.beta.kubernetes.io/zone', values: ['a'] }] }] };
    expect(storageClassStrategy.warningsOnCreate!({ provisioner: 'a.io/x', ...terms } as KubeObject, ctx)).toEqual([
      'allowedTopologies[0].matchLabelExpressions[1].key: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    ]);
  });

  it('keeps provisioner, parameters, reclaimPolicy and volumeBindingMode on update', () => {
    const old = { provisioner: 'a.io/x', parameters: { type: 'gp2' }, reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' } as KubeObject;
    expect(strs(storageClassStrategy.validateUpdate!({ ...old }, old, ctx))).toEqual([]);
    expect(strs(storageClassStrategy.validateUpdate!({ provisioner: 'b.io/x', parameters: { type: 'gp3' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' } as KubeObject, old, ctx))).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
  });
});
