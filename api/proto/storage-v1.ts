// Protobuf field numbers of storage/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const storageV1: ProtoFields = {
  'io.k8s.api.storage.v1.CSIDriver': { 1: 'metadata', 2: 'spec' },
  'io.k8s.api.storage.v1.CSIDriverList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.storage.v1.CSIDriverSpec': {
    1: 'attachRequired*', 2: 'podInfoOnMount*', 3: 'volumeLifecycleModes', 4: 'storageCapacity*', 5: 'fsGroupPolicy*',
    6: 'tokenRequests', 7: 'requiresRepublish*', 8: 'seLinuxMount*',
  },
  'io.k8s.api.storage.v1.CSINode': { 1: 'metadata', 2: 'spec' },
  'io.k8s.api.storage.v1.CSINodeDriver': { 1: 'name*', 2: 'nodeID*', 3: 'topologyKeys', 4: 'allocatable' },
  'io.k8s.api.storage.v1.CSINodeList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.storage.v1.CSINodeSpec': { 1: 'drivers' },
  'io.k8s.api.storage.v1.CSIStorageCapacity': {
    1: 'metadata', 2: 'nodeTopology', 3: 'storageClassName*', 4: 'capacity', 5: 'maximumVolumeSize',
  },
  'io.k8s.api.storage.v1.CSIStorageCapacityList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.storage.v1.StorageClass': {
    1: 'metadata', 2: 'provisioner*', 3: 'parameters', 4: 'reclaimPolicy*', 5: 'mountOptions',
    6: 'allowVolumeExpansion*', 7: 'volumeBindingMode*', 8: 'allowedTopologies',
  },
  'io.k8s.api.storage.v1.StorageClassList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.storage.v1.TokenRequest': { 1: 'audience*', 2: 'expirationSeconds*' },
  'io.k8s.api.storage.v1.VolumeAttachment': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.storage.v1.VolumeAttachmentList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.storage.v1.VolumeAttachmentSource': { 1: 'persistentVolumeName*', 2: 'inlineVolumeSpec' },
  'io.k8s.api.storage.v1.VolumeAttachmentSpec': { 1: 'attacher*', 2: 'source', 3: 'nodeName*' },
  'io.k8s.api.storage.v1.VolumeAttachmentStatus': {
    1: 'attached*', 2: 'attachmentMetadata', 3: 'attachError', 4: 'detachError',
  },
  'io.k8s.api.storage.v1.VolumeError': { 1: 'time', 2: 'message' },
  'io.k8s.api.storage.v1.VolumeNodeResources': { 1: 'count*' },
};
