import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { volumeAttachmentStrategy } from './volumeattachments.js';

const ctx = {} as RequestContext;
const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** As the attach/detach controller writes one, for a PersistentVolume or a migrated inline volume. */
const attachment = (source: Record<string, unknown> = { persistentVolumeName: 'pvc-0a1b' }, spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'csi-3f6e' },
  spec: { attacher: 'hostpath.csi.k8s.io', nodeName: 'node-1', source, ...spec },
});
const migrated = { accessModes: ['ReadWriteOnce'], csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-0123', fsType: 'ext4' } };

describe('VolumeAttachment validation', () => {
  const v = (va: KubeObject): string[] => strs(volumeAttachmentStrategy.validate!(va, ctx));

  it('takes what the attach/detach controller writes', () => {
    expect(v(attachment())).toEqual([]);
    expect(v(attachment({ inlineVolumeSpec: migrated }))).toEqual([]);
  });

  it('refuses two sources, none, an empty name and bad names', () => {
    expect(v(attachment({ persistentVolumeName: 'pv', inlineVolumeSpec: migrated }))).toEqual([
      'spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
    ]);
    expect(v(attachment({}))).toEqual(['spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName']);
    expect(v(attachment({ persistentVolumeName: '' }, { attacher: '', nodeName: 'Node_1' }))).toEqual([
      'spec.attacher: Required value',
      'spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName',
      `spec.nodeName: Invalid value: "Node_1": ${SUBDOMAIN}`,
      'spec.attacher: Required value',
      `spec.attacher: Invalid value: "": ${SUBDOMAIN}`,
      `spec.source.persistentVolumeName: Invalid value: "": ${SUBDOMAIN}`,
    ]);
    expect(v(attachment(undefined, { attacher: 'Bad_Driver' }))).toEqual([`spec.attacher: Invalid value: "Bad_Driver": ${SUBDOMAIN}`]);
  });

  it('checks an inline spec as an inline volume', () => {
    expect(v(attachment({ inlineVolumeSpec: {
      ...migrated, csi: undefined, nfs: { server: 's', path: '/x' }, capacity: { storage: '1Gi' }, claimRef: { name: 'c' },
      persistentVolumeReclaimPolicy: 'Delete', storageClassName: 'fast', volumeMode: 'Block',
    } }))).toEqual([
      'spec.source.inlineVolumeSpec.claimRef: Forbidden: may not be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.persistentVolumeReclaimPolicy: Forbidden: may only be Retain in the context of inline volumes',
      'spec.source.inlineVolumeSpec.storageClassName: Forbidden: may not be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.volumeMode: Forbidden: may not specify volumeMode other than Filesystem in the context of inline volumes',
    ]);
    expect(v(attachment({ inlineVolumeSpec: { csi: { driver: 'ebs.csi.aws.com' } } }))).toEqual([
      'spec.source.inlineVolumeSpec.accessModes: Required value',
      'spec.source.inlineVolumeSpec.csi.volumeHandle: Required value',
    ]);
  });

  it('keeps the spec, and reports an update\'s errors twice as upstream', () => {
    const old = attachment();
    expect(strs(volumeAttachmentStrategy.validateUpdate!(attachment(), old, ctx))).toEqual([]);
    expect(strs(volumeAttachmentStrategy.validateUpdate!(attachment(undefined, { nodeName: 'node-2' }), old, ctx))).toEqual([
      'spec: Invalid value: storage.VolumeAttachmentSpec{Attacher:"hostpath.csi.k8s.io", Source:storage.VolumeAttachmentSource{PersistentVolumeName:(*string)(0xc000010000), InlineVolumeSpec:(*core.PersistentVolumeSpec)(nil)}, NodeName:"node-2"}: field is immutable',
    ]);
    // the external-attacher's status: a long error message is refused in the words of the 256 KiB limit
    const status = { attached: false, attachError: { time: '2024-01-01T00:00:00Z', message: 'x'.repeat(1025) } };
    const tooLong = 'status.attachError.message: Too long: may not be more than 262144 bytes';
    expect(strs(volumeAttachmentStrategy.validateSubresource!({ ...old, status }, old, ctx, 'status'))).toEqual([tooLong, tooLong]);
    const ok = { attached: true, attachmentMetadata: { devicePath: '/dev/xvdba' } };
    expect(strs(volumeAttachmentStrategy.validateSubresource!({ ...old, status: ok }, old, ctx, 'status'))).toEqual([]);
  });
});
