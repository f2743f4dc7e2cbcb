// storage.k8s.io/v1: StorageClasses, CSIDrivers, CSINodes, CSIStorageCapacities, VolumeAttachments.
import { ALL_VERBS, type GroupVersion, type ResourceType } from '../../types.js';
import { S } from './common.js';
import { csiDefinitions } from './csi.js';
import { defaulters } from './defaults.js';
import { storageClassDefinitions } from './storageclass.js';

const group = 'storage.k8s.io';
const version = 'v1';
const resource = (kind: string, plural: string, namespaced: boolean, extra: Partial<ResourceType> = {}): ResourceType => ({
  group, version, kind, plural, singular: kind.toLowerCase(), namespaced, verbs: ALL_VERBS, definition: S + kind, ...extra,
});

export const groupVersion: GroupVersion = {
  group,
  version,
  resources: [
    resource('CSIDriver', 'csidrivers', false),
    resource('CSINode', 'csinodes', false),
    resource('CSIStorageCapacity', 'csistoragecapacities', true),
    resource('StorageClass', 'storageclasses', false, { shortNames: ['sc'] }),
    resource('VolumeAttachment', 'volumeattachments', false, {
      subresources: [{ name: 'status', group, version, kind: 'VolumeAttachment', verbs: ['get', 'patch', 'update'] }],
    }),
  ],
  definitions: { ...storageClassDefinitions, ...csiDefinitions },
  defaulters,
};
