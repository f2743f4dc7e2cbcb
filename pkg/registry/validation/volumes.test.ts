import { describe, expect, it } from 'vitest';
import type { StatusCause } from '../../apimachinery/errors.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/names.js';
import { validatePodVolumeClaims, validateVolumes } from './volumes.js';

const check = (volumes: unknown[]): { messages: string[]; names: string[] } => {
  const causes: StatusCause[] = [];
  const map = validateVolumes(volumes, 'spec.volumes', causes);
  return { messages: causes.map((c) => `${c.field}: ${c.message}`), names: [...map.keys()] };
};
const messages = (...volumes: unknown[]): string[] => check(volumes).messages;
const MODE = 'must be a number between 0 and 0777 (octal), both inclusive';

describe('validateVolumes', () => {
  it('requires unique DNS-label names, and keeps only the volumes without errors', () => {
    const r = check([{ name: 'a', emptyDir: {} }, { name: 'Bad_V', emptyDir: {} }, { name: 'a', emptyDir: {} }, { emptyDir: {} }, { name: 'b', emptyDir: {} }]);
    expect(r.messages).toEqual([
      `spec.volumes[1].name: Invalid value: "Bad_V": ${isDNS1123Label('Bad_V')[0]}`,
      'spec.volumes[2].name: Duplicate value: "a"',
      // a missing name is the schema check's to report
    ]);
    expect(r.names).toEqual(['a', 'b']);
    expect(messages({ name: '', emptyDir: {} })).toEqual([]);
  });

  it('requires exactly one source (image volumes are off in 1.32 and count for none)', () => {
    expect(messages({ name: 'v' })).toEqual(['spec.volumes[0]: Required value: must specify a volume type']);
    expect(messages({ name: 'v', image: { reference: 'busybox' } })).toEqual(['spec.volumes[0]: Required value: must specify a volume type']);
    expect(messages({ name: 'v', emptyDir: {}, hostPath: { path: '/tmp' }, secret: { secretName: 's' } })).toEqual([
      'spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type',
      'spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type',
    ]);
    // upstream's order decides which source counts, and its names for some: cephFS, downwarAPI
    expect(messages({ name: 'v', configMap: { name: 'c' }, downwardAPI: {}, cephfs: { monitors: ['m'] } })).toEqual([
      'spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type',
      'spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type',
    ]);
    expect(messages({ name: 'v', emptyDir: {}, cephfs: { monitors: ['m'] } })).toEqual(['spec.volumes[0].cephFS: Forbidden: may not specify more than 1 volume type']);
  });

  it('checks emptyDir and hostPath', () => {
    expect(messages({ name: 'v', emptyDir: { sizeLimit: '-1Gi' } })).toEqual(['spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity']);
    expect(messages({ name: 'v', hostPath: { path: '/a/../b', type: 'Folder' } })).toEqual([
      'spec.volumes[0].hostPath.path: Invalid value: "/a/../b": must not contain \'..\'',
      'spec.volumes[0].hostPath.type: Unsupported value: "Folder": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
    ]);
    expect(messages({ name: 'v', hostPath: { path: '/tmp', type: '' } })).toEqual([]);
  });

  it('checks configMap and secret volumes and their items', () => {
    expect(messages({ name: 'v', configMap: { name: '', defaultMode: 0o1000 } })).toEqual([
      'spec.volumes[0].configMap.name: Required value',
      `spec.volumes[0].configMap.defaultMode: Invalid value: 512: ${MODE}`,
    ]);
    expect(messages({ name: 'v', secret: { defaultMode: -1, items: [{ key: 'k', path: '/abs', mode: 0o1777 }, { key: 'k', path: '..data' }, { key: 'k', path: 'a/../../b' }] } })).toEqual([
      'spec.volumes[0].secret.secretName: Required value',
      `spec.volumes[0].secret.defaultMode: Invalid value: -1: ${MODE}`,
      'spec.volumes[0].secret.items[0].path: Invalid value: "/abs": must be a relative path',
      `spec.volumes[0].secret.items[0].mode: Invalid value: 1023: ${MODE}`,
      'spec.volumes[0].secret.items[1].path: Invalid value: "..data": must not start with \'..\'',
      'spec.volumes[0].secret.items[2].path: Invalid value: "a/../../b": must not contain \'..\'',
    ]);
  });

  it('leaves to the schema check the bare "Required value" of a schema-required field it reports', () => {
    expect(messages({ name: 'v', persistentVolumeClaim: { claimName: '' } })).toEqual([]);
    expect(messages({ name: 'v', hostPath: {} })).toEqual([]);
    expect(messages({ name: 'v', secret: { items: [{ path: 'p' }] } })).toEqual(['spec.volumes[0].secret.secretName: Required value']);
  });

  it('checks downwardAPI files (reported on the source, as upstream does)', () => {
    expect(messages({ name: 'v', downwardAPI: { items: [
      { path: '', fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } },
      { path: 'a', fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } },
      { path: 'b', fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['bad key!']" }, resourceFieldRef: { resource: 'limits.cpu' } },
      { path: 'c', resourceFieldRef: { resource: 'limits.cpu' } },
      { path: 'd', resourceFieldRef: { containerName: 'c', resource: 'limits.gpu', divisor: '1m' } },
      { path: 'e', resourceFieldRef: { containerName: 'c', resource: 'limits.memory', divisor: '1m' } },
      { path: 'f' },
    ] } })).toEqual([
      'spec.volumes[0].downwardAPI.path: Required value',
      'spec.volumes[0].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
      'spec.volumes[0].downwardAPI.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
      expect.stringMatching(/^spec\.volumes\[0\]\.downwardAPI\.fieldRef: Invalid value: "bad key!": name part must consist of/),
      'spec.volumes[0].downwardAPI: Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously',
      'spec.volumes[0].downwardAPI.resourceFieldRef.containerName: Required value',
      'spec.volumes[0].downwardAPI.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
      'spec.volumes[0].downwardAPI.resourceFieldRef.divisor: Invalid value: "limits.memory": only divisor\'s values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource',
      'spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is required',
    ]);
  });

  it('checks projected sources: one kind each, no path twice, token lifetimes', () => {
    expect(messages({ name: 'v', projected: { sources: [
      { secret: { name: 's', items: [{ key: 'a', path: 'x' }] }, configMap: { name: 'c', items: [{ key: 'b', path: 'x' }] } },
      { serviceAccountToken: { path: '/token', expirationSeconds: 60 } },
      { serviceAccountToken: { path: '', expirationSeconds: 2 ** 32 + 1 } },
    ] } })).toEqual([
      'spec.volumes[0].projected: Invalid value: "c": conflicting duplicate paths',
      'spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source',
      'spec.volumes[0].projected.sources[1].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
      'spec.volumes[0].projected.path: Invalid value: "/token": must be a relative path',
      'spec.volumes[0].projected.sources[2].serviceAccountToken.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
      'spec.volumes[0].projected.path: Required value',
    ]);
  });

  it('checks nfs, gcePersistentDisk, iscsi and csi volumes', () => {
    expect(messages({ name: 'v', nfs: { server: 'nfs', path: 'export' } })).toEqual(['spec.volumes[0].nfs.path: Invalid value: "export": must be an absolute path']);
    expect(messages({ name: 'v', gcePersistentDisk: { pdName: '', partition: 256 } })).toEqual([
      'spec.volumes[0].persistentDisk.pdName: Required value',
      'spec.volumes[0].persistentDisk.partition: Invalid value: 256: must be between 1 and 255, inclusive',
    ]);
    expect(messages({ name: 'v', iscsi: { targetPortal: '1.2.3.4:3260', iqn: 'foo', lun: 300, chapAuthSession: true } })).toEqual([
      'spec.volumes[0].iscsi.iqn: Invalid value: "foo": must be valid format starting with iqn, eui, or naa',
      'spec.volumes[0].iscsi.lun: Invalid value: 300: must be between 0 and 255, inclusive',
      'spec.volumes[0].iscsi.secretRef: Required value',
    ]);
    expect(messages({ name: 'v', iscsi: { targetPortal: '1.2.3.4:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 } })).toEqual([]);
    const driver = `${'a'.repeat(60)}.Example`;
    expect(messages({ name: 'v', csi: { driver, nodePublishSecretRef: { name: 'Bad' } } })).toEqual([
      'spec.volumes[0].csi.driver: Too long: may not be more than 63 bytes',
      `spec.volumes[0].csi.name: Invalid value: "Bad": ${isDNS1123Subdomain('Bad')[0]}`,
    ]);
  });

  it('checks an ephemeral volume\'s claim template', () => {
    expect(messages({ name: 'v', ephemeral: {} })).toEqual(['spec.volumes[0].ephemeral.volumeClaimTemplate: Required value']);
    const at = 'spec.volumes[0].ephemeral.volumeClaimTemplate';
    expect(messages({ name: 'v', ephemeral: { volumeClaimTemplate: { metadata: { name: 'x', labels: { a: 'b' } }, spec: {
      accessModes: ['ReadWriteOncePod', 'ReadWriteOnce', 'Sometimes'], resources: { requests: { storage: '0' } }, volumeMode: 'Raw', dataSource: { name: 'snap', kind: 'VolumeSnapshot' },
    } } } })).toEqual([
      `${at}.metadata.name: Forbidden: cannot be set`,
      `${at}.spec.accessModes: Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"`,
      `${at}.spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes`,
      `${at}.spec.resources[storage]: Invalid value: "0": must be greater than zero`,
      `${at}.spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"`,
      `${at}.spec.dataSource: Invalid value: "VolumeSnapshot": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
    ]);
    expect(messages({ name: 'v', ephemeral: { volumeClaimTemplate: { spec: {} } } })).toEqual([
      `${at}.spec.accessModes: Required value: at least 1 access mode is required`,
      `${at}.spec.resources[storage]: Required value`,
    ]);
  });

  it('checks the claims a pod\'s ephemeral volumes create', () => {
    const volumes = [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }, { name: 'other', persistentVolumeClaim: { claimName: 'web-scratch' } }];
    expect(validatePodVolumeClaims('web', volumes, 'spec.volumes').map((c) => `${c.field}: ${c.message}`))
      .toEqual(['spec.volumes[1].persistentVolumeClaim.claimName: Invalid value: "web-scratch": must not reference a PVC that gets created for an ephemeral volume']);
    const long = 'p'.repeat(250);
    expect(validatePodVolumeClaims(long, volumes, 'spec.volumes').map((c) => c.message))
      .toEqual([`Invalid value: "scratch": PVC name "${long}-scratch": must be no more than 253 characters`]);
  });
});
