import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { csiStorageCapacityStrategy } from './csistoragecapacities.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** As the external-provisioner writes one (--enable-capacity). */
const provisioned = (o: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity',
  metadata: { generateName: 'csisc-', namespace: 'kube-system', labels: { 'csi.storage.k8s.io/drivername': 'hostpath.csi.k8s.io', 'csi.storage.k8s.io/managed-by': 'external-provisioner' } },
  nodeTopology: { matchLabels: { 'topology.hostpath.csi/node': 'node-1' } },
  storageClassName: 'csi-hostpath-fast', capacity: '100Gi', maximumVolumeSize: '100Gi', ...o,
});

describe('CSIStorageCapacity validation', () => {
  const v = (o: Record<string, unknown>): string[] => strs(csiStorageCapacityStrategy.validate!(provisioned(o), ctx));

  it('takes what the external-provisioner writes', () => {
    expect(v({})).toEqual([]);
    expect(v({ capacity: undefined, maximumVolumeSize: undefined, nodeTopology: undefined })).toEqual([]);
  });

  it('refuses a bad class name, topology and capacity', () => {
    expect(v({ storageClassName: undefined })).toEqual([`storageClassName: Invalid value: "": ${SUBDOMAIN}`]);
    expect(v({ storageClassName: 'Fast' })).toEqual([`storageClassName: Invalid value: "Fast": ${SUBDOMAIN}`]);
    expect(v({ capacity: '-1Gi', maximumVolumeSize: '-1' })).toEqual(['capacity: Invalid value: "-1Gi": must be greater than or equal to 0']);
    expect(v({ nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a b'] }] } })).toEqual([
      expect.stringMatching(/^nodeTopology\.matchExpressions\[0\]\.values\[0\]: Invalid value: "a b": a valid label must be/),
    ]);
  });

  it('warns of deprecated node labels in nodeTopology', () => {
    const c = provisioned({ nodeTopology: { matchLabels: { 'failure-domain.beta.kubernetes.io/zone': 'a' }, matchExpressions: [{ key: 'beta.kubernetes.io/os', operator: 'Exists' }] } });
    expect(csiStorageCapacityStrategy.warningsOnCreate!(c, ctx)).toEqual([
      'nodeTopology.matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead',
      'nodeTopology.matchLabels.failure-domain.beta.kubernetes.io/zone: deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    ]);
    expect(csiStorageCapacityStrategy.warningsOnCreate!(provisioned(), ctx)).toEqual([]);
  });

  it('keeps nodeTopology and storageClassName, and a stored invalid label value, on update', () => {
    const old = provisioned();
    expect(strs(csiStorageCapacityStrategy.validateUpdate!(provisioned({ capacity: '50Gi' }), old, ctx))).toEqual([]);
    expect(strs(csiStorageCapacityStrategy.validateUpdate!(provisioned({ storageClassName: 'other', nodeTopology: { matchLabels: { a: 'b' } } }), old, ctx))).toEqual([
      'nodeTopology: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      'storageClassName: Invalid value: "other": field is immutable',
    ]);
    const bad = provisioned({ nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a b'] }] } });
    expect(strs(csiStorageCapacityStrategy.validateUpdate!(provisioned({ ...bad, capacity: '1Gi' }), bad, ctx))).toEqual([]);
  });
});
