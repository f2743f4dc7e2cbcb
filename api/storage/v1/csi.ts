// CSIDriver, CSINode and VolumeAttachment.
import { arr, bool, int32, int64, kind, listKind, mapList, obj, ref, setOf, str, strMap, type Definitions } from '../../schema.js';
import { S, gvk } from './common.js';

const volumeError = (description: string) => ref(`${S}VolumeError`, description);

export const csiDefinitions: Definitions = {
  [`${S}CSIDriver`]: kind(gvk('CSIDriver'), {
    spec: ref(`${S}CSIDriverSpec`, 'Specification of the CSI driver.'),
  }, 'A CSI volume driver deployed on the cluster.', { required: ['spec'] }),
  [`${S}CSIDriverList`]: listKind(gvk('CSIDriverList'), `${S}CSIDriver`),
  [`${S}CSIDriverSpec`]: obj({
    attachRequired: bool('Whether volumes need an attach operation (default true).'),
    fsGroupPolicy: str('Whether the driver supports changing volume ownership to the fsGroup.'),
    podInfoOnMount: bool('Whether pod information is passed to NodePublishVolume.'),
    requiresRepublish: bool('Whether NodePublishVolume is called periodically.'),
    seLinuxMount: bool('Whether the driver supports the SELinux "-o context" mount option.'),
    storageCapacity: bool('Whether the scheduler considers the driver\'s reported capacity.'),
    tokenRequests: arr(ref(`${S}TokenRequest`), 'Service account tokens passed to NodePublishVolume.'),
    volumeLifecycleModes: setOf(str(undefined, { default: '' }), 'Persistent and/or Ephemeral.'),
  }, 'Specification of a CSI driver.'),
  [`${S}TokenRequest`]: obj({
    audience: str('Audience of the token.', { default: '' }),
    expirationSeconds: int64('Lifetime of the token.'),
  }, 'A service account token requested for a CSI driver.', { required: ['audience'] }),

  [`${S}CSINode`]: kind(gvk('CSINode'), {
    spec: ref(`${S}CSINodeSpec`, 'The CSI drivers on the node.'),
  }, 'CSI drivers installed on a node.', { required: ['spec'] }),
  [`${S}CSINodeList`]: listKind(gvk('CSINodeList'), `${S}CSINode`),
  [`${S}CSINodeSpec`]: obj({
    drivers: mapList(ref(`${S}CSINodeDriver`), 'name', 'CSI drivers on the node.'),
  }, 'CSI drivers of a node.', { required: ['drivers'] }),
  [`${S}CSINodeDriver`]: obj({
    allocatable: ref(`${S}VolumeNodeResources`, 'Volume limits of the driver on the node.'),
    name: str('Name of the driver.', { default: '' }),
    nodeID: str('ID of the node as the driver knows it.', { default: '' }),
    topologyKeys: arr(str(undefined, { default: '' }), 'Topology keys the driver supports.'),
  }, 'One CSI driver on a node.', { required: ['name', 'nodeID'] }),
  [`${S}VolumeNodeResources`]: obj({
    count: int32('Maximum number of volumes of the driver on the node.'),
  }, 'Volume limits of a CSI driver on a node.'),

  [`${S}VolumeAttachment`]: kind(gvk('VolumeAttachment'), {
    spec: ref(`${S}VolumeAttachmentSpec`, 'Desired attach/detach behavior.'),
    status: ref(`${S}VolumeAttachmentStatus`, 'Status of the attachment.'),
  }, 'The intent to attach a volume to a node.', { required: ['spec'] }),
  [`${S}VolumeAttachmentList`]: listKind(gvk('VolumeAttachmentList'), `${S}VolumeAttachment`),
  [`${S}VolumeAttachmentSpec`]: obj({
    attacher: str('Name of the volume driver that must attach.', { default: '' }),
    nodeName: str('Node to attach to.', { default: '' }),
    source: ref(`${S}VolumeAttachmentSource`, 'The volume to attach.'),
  }, 'Desired state of a VolumeAttachment.', { required: ['attacher', 'source', 'nodeName'] }),
  [`${S}VolumeAttachmentSource`]: obj({
    inlineVolumeSpec: ref('io.k8s.api.core.v1.PersistentVolumeSpec', 'An inline (migrated) volume.'),
    persistentVolumeName: str('Name of the persistent volume to attach.'),
  }, 'The volume of an attachment.'),
  [`${S}VolumeAttachmentStatus`]: obj({
    attachError: volumeError('Last error of an attach operation.'),
    attached: bool('Whether the volume is attached.', { default: false }),
    attachmentMetadata: strMap('Information from a successful attach, passed to later mount calls.'),
    detachError: volumeError('Last error of a detach operation.'),
  }, 'Observed state of a VolumeAttachment.', { required: ['attached'] }),
  [`${S}VolumeError`]: obj({
    message: str('The error, possibly shown to users.'),
    time: ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'When the error happened.'),
  }, 'An error of a volume operation.'),
};
