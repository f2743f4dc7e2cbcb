import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import { persistentVolumeStrategy, validatePersistentVolumeSpec } from './persistentvolumes.js';

const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('PersistentVolume validation', () => {
  const pv = (spec: Record<string, unknown>, name = 'pv'): string[] =>
    strs(validatePersistentVolumeSpec({ accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/data' }, ...spec }, name));
  /** A volume of the one source given. */
  const only = (source: Record<string, unknown>, name = 'pv'): string[] => pv({ hostPath: undefined, ...source }, name);

  it('takes usual volumes', () => {
    expect(pv({})).toEqual([]);
    expect(pv({ hostPath: undefined, nfs: { server: 'nfs.example.com', path: '/exports' }, persistentVolumeReclaimPolicy: 'Recycle', storageClassName: 'slow' })).toEqual([]);
    expect(pv({ hostPath: undefined, csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' }, volumeMode: 'Block' })).toEqual([]);
  });

  it('checks modes, capacity, policy, sources and node affinity', () => {
    expect(pv({ persistentVolumeReclaimPolicy: 'Foo' })).toEqual([
      'spec.persistentVolumeReclaimPolicy: Unsupported value: "Foo": supported values: "Delete", "Recycle", "Retain"',
    ]);
    expect(pv({ accessModes: [], capacity: undefined })).toEqual([
      'spec.accessModes: Required value',
      'spec.capacity: Required value',
      'spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage"',
    ]);
    expect(pv({ capacity: { storage: '0' }, nfs: { server: 's', path: 'rel' } })).toEqual([
      'spec.capacity[storage]: Invalid value: "0": must be greater than zero',
      'spec.nfs: Forbidden: may not specify more than 1 volume type',
    ]);
    expect(pv({ hostPath: undefined })).toEqual(['spec: Required value: must specify a volume type']);
    expect(pv({ hostPath: undefined, local: { path: '/mnt/disk' } })).toEqual(['spec.nodeAffinity: Required value: Local volume requires node affinity']);
    expect(pv({ nodeAffinity: {}, volumeMode: 'Raw', hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' })).toEqual([
      'spec.nodeAffinity.required: Required value: must specify required node constraints',
      "spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'",
      'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
    ]);
    expect(pv({ nodeAffinity: { required: { nodeSelectorTerms: [] } } })).toEqual([
      'spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term',
    ]);
  });

  it('takes a valid volume of every source', () => {
    const secret = { name: 's', namespace: 'storage' };
    for (const source of [
      { gcePersistentDisk: { pdName: 'disk-1', fsType: 'ext4', partition: 1 } },
      { awsElasticBlockStore: { volumeID: 'vol-1', partition: 0 } },
      { glusterfs: { endpoints: 'glusterfs-cluster', path: 'vol', endpointsNamespace: 'storage' } },
      { flocker: { datasetName: 'dataset' } },
      { rbd: { monitors: ['10.16.154.78:6789'], image: 'foo', secretRef: secret } },
      { quobyte: { registry: 'registry:7861,other:7861', volume: 'vol' } },
      { cephfs: { monitors: ['10.16.154.78:6789'], secretRef: secret } },
      { iscsi: { targetPortal: '10.0.2.15:3260', iqn: 'iqn.2001-04.com.example:storage.kube.sys1.xyz', lun: 0, initiatorName: 'iqn.1996-04.de.suse:01:a9bd5b2d7e28', chapAuthSession: true, secretRef: secret } },
      { cinder: { volumeID: 'vol', secretRef: secret } },
      { fc: { targetWWNs: ['500a0982991b8dc5'], lun: 2 } },
      { flexVolume: { driver: 'example.com/lvm', options: { volumeID: 'v', 'example.com/size': '1G' }, secretRef: secret } },
      { azureFile: { secretName: 's', shareName: 'share', secretNamespace: 'storage' } },
      { vsphereVolume: { volumePath: '[datastore1] volumes/disk.vmdk' } },
      { photonPersistentDisk: { pdID: 'id' } },
      { portworxVolume: { volumeID: 'pxvol' } },
      { azureDisk: { diskName: 'd', diskURI: 'https://acct.blob.core.windows.net/vhds/d.vhd', kind: 'Dedicated', cachingMode: 'ReadOnly' } },
      { scaleIO: { gateway: 'https://gw:443/api', system: 'sys', secretRef: { name: 's' }, volumeName: 'vol' } },
      { storageos: { volumeName: 'vol', volumeNamespace: 'storage', secretRef: secret } },
      // flexVolume is never refused as a second source (upstream counts it and checks it, whatever came before)
      { nfs: { server: 'nfs.example.com', path: '/exports' }, flexVolume: { driver: 'example.com/lvm' } },
    ]) expect([source, only(source)]).toEqual([source, []]);
  });

  it("checks each source's own fields, as upstream's PersistentVolume validation words them", () => {
    // a volume's errors come in upstream's order, each source's with the rest of the spec's
    expect(only({ cephfs: {}, persistentVolumeReclaimPolicy: 'Foo' })).toEqual([
      'spec.persistentVolumeReclaimPolicy: Unsupported value: "Foo": supported values: "Delete", "Recycle", "Retain"',
      'spec.cephfs.monitors: Required value',
    ]);
    expect(validatePersistentVolumeSpec({ accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, cephfs: { monitors: [] } }).map((c) => [c.reason, c.field, c.message]))
      .toEqual([['FieldValueRequired', 'spec.cephfs.monitors', 'Required value']]);
    expect(only({ rbd: { image: 'foo' } })).toEqual(['spec.rbd.monitors: Required value']);
    expect(only({ rbd: {} })).toEqual(['spec.rbd.monitors: Required value', 'spec.rbd.image: Required value']);
    // a SecretReference wants its namespace too
    expect(only({ cinder: { volumeID: 'vol', secretRef: { name: 's' } } })).toEqual(['spec.cinder.secretRef.namespace: Required value']);
    expect(only({ cinder: { secretRef: {} } })).toEqual([
      'spec.cinder.volumeID: Required value', 'spec.cinder.secretRef.name: Required value', 'spec.cinder.secretRef.namespace: Required value',
    ]);
    expect(only({ storageos: { volumeName: 'Vol', volumeNamespace: 'a.b', secretRef: { name: 's' } } })).toEqual([
      'spec.storageos.volumeName: Invalid value: "Vol": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      'spec.storageos.volumeNamespace: Invalid value: "a.b": must not contain dots',
      'spec.storageos.secretRef.namespace: Required value',
    ]);
    expect(only({ storageos: {} })).toEqual(['spec.storageos.volumeName: Required value']);
    expect(only({ glusterfs: { endpoints: 'e', path: 'vol', endpointsNamespace: '' } })).toEqual([
      'spec.glusterfs.endpointsNamespace: Invalid value: "": if the endpointnamespace is set, it must be a valid namespace name',
    ]);
    expect(only({ glusterfs: { endpointsNamespace: 'Storage' } })).toEqual([
      'spec.glusterfs.endpoints: Required value',
      'spec.glusterfs.path: Required value',
      'spec.glusterfs.endpointsNamespace: Invalid value: "Storage": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
    ]);
    expect(only({ azureFile: { secretName: 's', shareName: 'share', secretNamespace: '' } })).toEqual(['spec.azureFile.secretNamespace: Required value']);
    expect(only({ azureFile: {} })).toEqual(['spec.azureFile.secretName: Required value', 'spec.azureFile.shareName: Required value']);
    expect(only({ scaleIO: { secretRef: { name: 's' } } })).toEqual([
      'spec.scaleIO.gateway: Required value', 'spec.scaleIO.system: Required value', 'spec.scaleIO.volumeName: Required value',
    ]);
    // upstream checks a GCE disk at spec.persistentDisk (refused as a second source at spec.gcePersistentDisk)
    expect(only({ gcePersistentDisk: { pdName: '', partition: 256 } })).toEqual([
      'spec.persistentDisk.pdName: Required value',
      'spec.persistentDisk.partition: Invalid value: 256: must be between 1 and 255, inclusive',
    ]);
    expect(pv({ gcePersistentDisk: {} })).toEqual(['spec.gcePersistentDisk: Forbidden: may not specify more than 1 volume type']);
    expect(only({ flexVolume: { driver: 'd', options: { 'Foo.Kubernetes.IO/x': 'y', 'k8s.io': 'z', 'example.com/k8s.io': 'ok' } } })).toEqual([
      'spec.flexVolume.options[Foo.Kubernetes.IO/x]: Invalid value: "Foo.Kubernetes.IO/x": kubernetes.io and k8s.io namespaces are reserved',
      'spec.flexVolume.options[k8s.io]: Invalid value: "k8s.io": kubernetes.io and k8s.io namespaces are reserved',
    ]);
    expect(pv({ flexVolume: {} })).toEqual(['spec.flexVolume.driver: Required value']);
    expect(only({ awsElasticBlockStore: { partition: -1 } })).toEqual([
      'spec.awsElasticBlockStore.volumeID: Required value',
      'spec.awsElasticBlockStore.partition: Invalid value: -1: must be between 1 and 255, inclusive',
    ]);
    expect(only({ quobyte: { registry: 'registry', volume: 'v' } })).toEqual([
      'spec.quobyte.registry: Invalid value: "registry": must be a host:port pair or multiple pairs separated by commas',
    ]);
    expect(only({ quobyte: {} })).toEqual([
      'spec.quobyte.registry: Required value: must be a host:port pair or multiple pairs separated by commas', 'spec.quobyte.volume: Required value',
    ]);
    expect(only({ vsphereVolume: {} })).toEqual(['spec.vsphereVolume.volumePath: Required value']);
    expect(only({ photonPersistentDisk: {} })).toEqual(['spec.photonPersistentDisk.pdID: Required value']);
    expect(only({ portworxVolume: {} })).toEqual(['spec.portworxVolume.volumeID: Required value']);
    expect(only({ azureDisk: { cachingMode: 'All', kind: 'Managed' } })).toEqual([
      'spec.azureDisk.diskName: Required value',
      'spec.azureDisk.diskURI: Required value',
      'spec.azureDisk.cachingMode: Unsupported value: "All": supported values: "None", "ReadOnly", "ReadWrite"',
      'spec.azureDisk.diskURI: Unsupported value: "": supported values: "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"',
    ]);
    expect(only({ flocker: { datasetName: 'a/b', datasetUUID: 'u' } })).toEqual([
      'spec.flocker: Invalid value: "resource": datasetName and datasetUUID can not be specified simultaneously',
      'spec.flocker.datasetName: Invalid value: "a/b": must not contain \'/\'',
    ]);
    expect(only({ fc: { targetWWNs: ['w'] } })).toEqual(['spec.fc.lun: Required value: lun is required if targetWWNs is specified']);
  });

  it("checks an iSCSI source as upstream's PersistentVolume validation does", () => {
    const iqn = 'iqn.2001-04.com.example:storage.kube.sys1.xyz';
    expect(only({ iscsi: { lun: 256 } })).toEqual([
      'spec.iscsi.targetPortal: Required value', 'spec.iscsi.iqn: Required value', 'spec.iscsi.lun: Invalid value: 256: must be between 0 and 255, inclusive',
    ]);
    // a name of no known prefix is only "must be valid format" here (a pod volume's says which prefixes)
    expect(only({ iscsi: { targetPortal: 'p:3260', iqn: 'foo', initiatorName: 'bar' } })).toEqual([
      'spec.iscsi.iqn: Invalid value: "foo": must be valid format',
      'spec.iscsi.initiatorname: Invalid value: "bar": must be valid format',
    ]);
    expect(only({ iscsi: { targetPortal: 'p:3260', iqn: 'iqn.bad', initiatorName: 'eui.123' } })).toEqual([
      'spec.iscsi.iqn: Invalid value: "iqn.bad": must be valid format',
      'spec.iscsi.initiatorname: Invalid value: "eui.123": must be valid format',
    ]);
    expect(only({ iscsi: { targetPortal: 'p:3260', iqn, chapAuthDiscovery: true } })).toEqual(['spec.iscsi.secretRef: Required value']);
    expect(only({ iscsi: { targetPortal: 'p:3260', iqn, secretRef: {} } })).toEqual(['spec.iscsi.secretRef.name: Required value']);
    // <volume name>:<portal> over 64 characters with an initiator name, reported at the portal (`targetportal`):
    // 65 for the volume "pv", 64 for "p"
    const portal = `${'a'.repeat(57)}:3260`;
    const tooLong = 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.';
    expect(only({ iscsi: { targetPortal: portal, iqn, initiatorName: 'iqn.1996-04.de.suse:01:a9bd5b2d7e28' } }, 'pv')).toEqual([
      `spec.iscsi.targetportal: Invalid value: "${portal}": ${tooLong}`,
    ]);
    expect(only({ iscsi: { targetPortal: portal, iqn, initiatorName: 'iqn.1996-04.de.suse:01:a9bd5b2d7e28' } }, 'p')).toEqual([]);
    expect(only({ iscsi: { targetPortal: portal, iqn } }, 'pv')).toEqual([]);
  });

  it('keeps the volume source, volume mode and node affinity of an existing volume', () => {
    const spec = { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/data', type: '' } };
    const update = (next: Record<string, unknown>, old: Record<string, unknown> = spec): string[] =>
      strs(persistentVolumeStrategy.validateUpdate!({ spec: next }, { spec: old }, undefined as never) as never);
    expect(update({ ...spec, capacity: { storage: '2Gi' }, persistentVolumeReclaimPolicy: 'Retain', claimRef: { name: 'c' } })).toEqual([]);
    expect(update({ ...spec, hostPath: { path: '/other', type: '' } })).toEqual([
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n'
      + '  core.PersistentVolumeSource{\n  \t... // 2 identical fields\n'
      + '- \tHostPath: &{Path: "/data", Type: ""},\n+ \tHostPath: &{Path: "/other", Type: ""},\n'
      + '  \t... // 19 identical fields\n  }\n',
    ]);
    expect(update({ ...spec, volumeMode: 'Block' }, { ...spec, volumeMode: 'Filesystem' })).toEqual(['volumeMode: Invalid value: "Block": field is immutable']);
    const csi = { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, csi: { driver: 'd.example.com', volumeHandle: 'v' } };
    const secret = { name: 's', namespace: 'ns' };
    expect(update({ ...csi, csi: { ...csi.csi, controllerExpandSecretRef: secret } }, csi)).toEqual([]);
    expect(update({ ...csi, csi: { ...csi.csi, nodePublishSecretRef: secret } }, csi)[0]).toMatch(/^spec.persistentvolumesource: Forbidden: .*\n- \tCSI: &\{Driver: "d.example.com", VolumeHandle: "v"\},\n\+ \tCSI: &\{Driver: "d.example.com", VolumeHandle: "v", NodePublishSecretRef: \{Name: "s", Namespace: "ns"\}\},\n  }\n$/s);
    const affinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['a'] }] }] } };
    expect(update({ ...spec, nodeAffinity: affinity })).toEqual([]);
    expect(update({ ...spec, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In', values: ['b'] }] }] } } }, { ...spec, nodeAffinity: affinity })).toEqual([
      'nodeAffinity: Invalid value: core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0xc000010000)}: field is immutable',
    ]);
  });
});
