// ResourceQuotas, LimitRanges, PersistentVolumes, Nodes, RoleBindings, PriorityClasses, StorageClasses, CSIDrivers,
// VolumeAttachments, CSIStorageCapacities, Leases and EndpointSlices are validated as kube-apiserver 1.32 validates
// them (pkg/registry/strategies/): the real kubectl shows upstream's refusals for bad objects, and takes what its own
// generators and usual manifests make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
});
afterAll(async () => { await s?.close(); });

const dryRun = (obj: Record<string, unknown>) => s.kubectlWithInput(JSON.stringify(obj), 'create', '--dry-run=server', '-f', '-');

/** kubectl's rendering of a 422: one cause inline, several as "* cause" lines. */
const expectInvalid = (r: { code: number; stderr: string }, kind: string, name: string, causes: string[]): void => {
  expect(r.code).not.toBe(0);
  if (causes.length === 1) {
    expect(r.stderr).toContain(`The ${kind} "${name}" is invalid: ${causes[0]}`);
    return;
  }
  expect(r.stderr).toContain(`The ${kind} "${name}" is invalid: \n`);
  for (const c of causes) expect(r.stderr).toContain(`* ${c}\n`);
};

describe('cluster object validation', () => {
  it('refuses bad quotas and limit ranges', async () => {
    expectInvalid(await dryRun({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '-1' } } }), 'ResourceQuota', 'q', [
      'spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
    // a scope selector's requirement without scope or operator, in upstream's words alone (at the list's path)
    const scoped = await dryRun({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{}] } } });
    expect([scoped.code, scoped.stderr]).toEqual([1, 'The ResourceQuota "q" is invalid: \n'
      + '* spec.scopeSelector.matchExpressions.scopeName: Invalid value: "": unsupported scope\n'
      + '* spec.scopeSelector.matchExpressions.operator: Invalid value: "": not a valid selector operator\n']);
    // a Container item's default and defaultRequest are defaulted from max and default first, as upstream does
    const q = (v: number): string => `resource.Quantity{i:resource.int64Amount{value:${v}, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${v}", Format:"DecimalSI"}`;
    expectInvalid(await dryRun({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] } }), 'LimitRange', 'lr', [
      `spec.limits[0].min[cpu]: Invalid value: ${q(2)}: min value 2 is greater than max value 1`,
      `spec.limits[0].defaultRequest[cpu]: Invalid value: ${q(1)}: min value 2 is greater than default request value 1`,
      `spec.limits[0].default[cpu]: Invalid value: ${q(2)}: min value 2 is greater than default value 1`,
    ]);
    expectInvalid(await dryRun({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Pod', min: { memory: '2Gi' }, max: { memory: '1Gi' } }] } }), 'LimitRange', 'lr', [
      'spec.limits[0].min[memory]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2147483648, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2Gi", Format:"BinarySI"}: min value 2Gi is greater than max value 1Gi',
    ]);
  });

  it('refuses bad volumes, classes, leases and slices', async () => {
    expectInvalid(await dryRun({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' }, persistentVolumeReclaimPolicy: 'Foo' },
    }), 'PersistentVolume', 'pv', ['spec.persistentVolumeReclaimPolicy: Unsupported value: "Foo": supported values: "Delete", "Recycle", "Retain"']);
    // each source's own fields: a CephFS volume without monitors, applied
    const ceph = await s.kubectlWithInput([
      'apiVersion: v1', 'kind: PersistentVolume', 'metadata: {name: ceph}',
      'spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteMany], cephfs: {path: /volumes}}', '',
    ].join('\n'), 'apply', '-f', '-');
    expect([ceph.code, ceph.stderr]).toEqual([1, 'The PersistentVolume "ceph" is invalid: spec.cephfs.monitors: Required value\n']);
    // a GCE disk's missing name only where upstream says it (spec.persistentDisk), after the spec's earlier errors
    const gce = await dryRun({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'gce' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Foo', gcePersistentDisk: { fsType: 'ext4' } },
    });
    expect([gce.code, gce.stderr]).toEqual([1, 'The PersistentVolume "gce" is invalid: \n'
      + '* spec.persistentVolumeReclaimPolicy: Unsupported value: "Foo": supported values: "Delete", "Recycle", "Retain"\n'
      + '* spec.persistentDisk.pdName: Required value\n']);
    // an iSCSI disk without lun is LUN 0, a ScaleIO one without secretRef has none: upstream's validation takes both
    const zeros = await s.kubectlWithInput(JSON.stringify({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'iscsi' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage' } },
    }), 'create', '--dry-run=server', '-o', 'jsonpath={.spec.iscsi.lun}', '-f', '-');
    expect([zeros.code, zeros.stdout, zeros.stderr]).toEqual([0, '0', '']);
    const sio = await dryRun({
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'sio' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], scaleIO: { gateway: 'https://gw', system: 'sys', volumeName: 'v' } },
    });
    expect([sio.code, sio.stderr]).toEqual([0, 'Warning: spec.scaleIO: deprecated in v1.16, non-functional in v1.22+\n']);
    // a Node's taints are checked at upstream's metadata.taints; `kubectl taint` writes good ones
    const n = await s.kubectlWithInput('apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {taints: [{key: a, effect: NoSchedule}, {key: a, value: b, effect: NoSchedule}, {key: c}]}\n', 'apply', '-f', '-');
    expect([n.code, n.stderr]).toEqual([1, 'The Node "n1" is invalid: \n'
      + '* metadata.taints[1]: Duplicate value: core.Taint{Key:"a", Value:"b", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair\n'
      + '* metadata.taints[2].effect: Required value\n']);
    expect((await s.kubectlWithInput('apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n', 'apply', '-f', '-')).code).toBe(0);
    expect((await s.kubectl('taint', 'node', 'n1', 'dedicated=gpu:NoSchedule')).stdout).toBe('node/n1 tainted\n');
    // a RoleBinding without roleRef has Go's empty one: refused for what it lacks, never as 'roleRef: Required value'
    const rb = await dryRun({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb' } });
    expect([rb.code, rb.stderr]).toEqual([1, 'The RoleBinding "rb" is invalid: \n'
      + '* roleRef.apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"\n'
      + '* roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"\n'
      + '* roleRef.name: Required value\n']);
    expectInvalid(await dryRun({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'pc' }, value: 2000000000 }), 'PriorityClass', 'pc', [
      'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    ]);
    expectInvalid(await dryRun({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'example.com/x', reclaimPolicy: 'Foo' }), 'StorageClass', 'sc', [
      'reclaimPolicy: Unsupported value: "Foo": supported values: "Delete", "Retain"',
    ]);
    expectInvalid(await dryRun({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 0 } }), 'Lease', 'l', [
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    ]);
    expectInvalid(await dryRun({
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'es' }, addressType: 'IPv4',
      endpoints: [{ addresses: ['not-an-ip'] }], ports: [{ name: 'http', port: 80 }],
    }), 'EndpointSlice', 'es', [
      'endpoints[0].addresses[0]: Invalid value: "not-an-ip": must be a valid IPv4 address',
      'endpoints[0].addresses[0]: Invalid value: "not-an-ip": must be a valid IP address',
    ]);
  });

  it('refuses bad storage topologies, CSI drivers and volume attachments', async () => {
    expectInvalid(await dryRun({
      apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'ebs.csi.aws.com',
      allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: [] }] }],
    }), 'StorageClass', 'sc', ['allowedTopologies[0].matchLabelExpressions[0].values: Required value']);
    expectInvalid(await dryRun({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'hostpath.csi.k8s.io' }, spec: { fsGroupPolicy: 'Always' } }), 'CSIDriver', 'hostpath.csi.k8s.io', [
      'spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"',
    ]);
    const va = await dryRun({
      apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va' },
      spec: { attacher: 'ebs.csi.aws.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv', inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' } } } },
    });
    expect([va.code, va.stderr]).toEqual([1, 'The VolumeAttachment "va" is invalid: spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName\n']);
    // a capacity without class is upstream's "Invalid value" alone, never the schema's "Required value"
    const capacity = await dryRun({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', metadata: { name: 'c', namespace: 'default' }, capacity: '1Gi' });
    expect([capacity.code, capacity.stderr]).toEqual([1, 'The CSIStorageCapacity "c" is invalid: storageClassName: Invalid value: "": a lowercase RFC 1123 subdomain must consist of '
      + "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
      + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\n"]);
  });

  it('takes what kubectl generates and usual manifests', async () => {
    for (const args of [['quota', 'q', '--hard=pods=2,requests.cpu=1,limits.memory=2Gi'], ['priorityclass', 'p', '--value=100'], ['priorityclass', 'p2', '--value=10', '--preemption-policy=Never']]) {
      const r = await s.kubectlWithInput('', 'create', ...args, '--dry-run=server');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    for (const obj of [
      { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' }, max: { cpu: '1' } }] } },
      { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } },
      { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' },
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } },
      { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'es' }, addressType: 'IPv4', endpoints: [{ addresses: ['10.1.2.3'] }], ports: [{ name: 'http', port: 80 }] },
      { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'hostpath.csi.k8s.io' }, spec: { attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: ['Persistent', 'Ephemeral'] } },
    ]) {
      const r = await dryRun(obj);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
  });
});
