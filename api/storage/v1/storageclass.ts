// StorageClass and CSIStorageCapacity.
import { arr, bool, enumStr, kind, listKind, ref, str, strMap, type Definitions } from '../../schema.js';
import { S, gvk } from './common.js';

const quantity = (description: string) => ref('io.k8s.apimachinery.pkg.api.resource.Quantity', description);

export const storageClassDefinitions: Definitions = {
  [`${S}StorageClass`]: kind(gvk('StorageClass'), {
    allowVolumeExpansion: bool('Whether volumes of this class may be expanded.'),
    allowedTopologies: arr(ref('io.k8s.api.core.v1.TopologySelectorTerm'), 'Topologies where volumes may be provisioned.'),
    mountOptions: arr(str(undefined, { default: '' }), 'Mount options of the provisioned volumes.'),
    parameters: strMap('Parameters passed to the provisioner.'),
    provisioner: str('Name of the volume plugin that provisions the volumes.', { default: '' }),
    reclaimPolicy: enumStr(['Delete', 'Recycle', 'Retain'], 'Reclaim policy of the provisioned volumes (default Delete).'),
    volumeBindingMode: enumStr(['Immediate', 'WaitForFirstConsumer'], 'When volumes are provisioned and bound (default Immediate).'),
  }, 'A class of dynamically provisioned persistent volumes.', { required: ['provisioner'] }),
  [`${S}StorageClassList`]: listKind(gvk('StorageClassList'), `${S}StorageClass`),

  [`${S}CSIStorageCapacity`]: kind(gvk('CSIStorageCapacity'), {
    capacity: quantity('Capacity reported for the topology and storage class.'),
    maximumVolumeSize: quantity('Largest volume that can be created.'),
    nodeTopology: ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', 'Nodes that can reach the storage.'),
    storageClassName: str('Storage class the capacity applies to.', { default: '' }),
  }, 'Storage capacity of a CSI driver for one topology and storage class.', { required: ['storageClassName'] }),
  [`${S}CSIStorageCapacityList`]: listKind(gvk('CSIStorageCapacityList'), `${S}CSIStorageCapacity`),
};
