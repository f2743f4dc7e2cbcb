// Sources of the in-tree storage plugins, as pod volumes and as persistent volumes.
import { arr, bool, enumStr, int32, obj, ref, str, strMap, type Definitions, type Schema } from '../../schema.js';
import { core } from './names.js';

interface PairOptions {
  description: string;
  /** Where the persistent volume's description differs from the pod volume's. */
  persistentDescription?: string;
  required?: string[];
  /** The kind a persistent volume's secretRef names; upstream's SecretReference unless said. */
  persistentSecret?: string;
}

/**
 * A plugin's pod-volume source and persistent-volume source, which differ only in the kind their secretRef names:
 * a pod volume's secret is in the pod's namespace (LocalObjectReference), a persistent volume's may be in any.
 */
const sourcePair = (plugin: string, fields: (secretKind: string) => Record<string, Schema>, options: PairOptions): Definitions => {
  const { description, persistentDescription = description, required, persistentSecret = 'SecretReference' } = options;
  const extra = required ? { required } : {};
  return {
    [core(`${plugin}VolumeSource`)]: obj(fields('LocalObjectReference'), description, extra),
    [core(`${plugin}PersistentVolumeSource`)]: obj(fields(persistentSecret), persistentDescription, extra),
  };
};

export const volumePluginDefinitions: Definitions = {
  [core('AWSElasticBlockStoreVolumeSource')]: obj({
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    partition: int32('Partition to mount; the whole disk if unset or 0.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    volumeID: str('Unique ID of the EBS volume.'),
  }, 'An AWS EBS disk; the disk must exist first.', { required: ['volumeID'] }),
  [core('AzureDiskVolumeSource')]: obj({
    cachingMode: enumStr(['None', 'ReadOnly', 'ReadWrite'], 'Host caching mode: None, ReadOnly or ReadWrite.', { default: 'ReadWrite' }),
    diskName: str('Name of the data disk in blob storage.'),
    diskURI: str('URI of the data disk in blob storage.'),
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.', { default: 'ext4' }),
    kind: enumStr(['Dedicated', 'Managed', 'Shared'], 'Disk kind: Shared, Dedicated or Managed.', { default: 'Shared' }),
    readOnly: bool('Mount the volume read-only; false if unset.', { default: false }),
  }, 'An Azure data disk mounted on the host.', { required: ['diskName', 'diskURI'] }),
  [core('AzureFileVolumeSource')]: obj({
    readOnly: bool('Mount the volume read-only; false if unset.'),
    secretName: str('Secret holding the storage account name and key.'),
    shareName: str('Name of the share.'),
  }, 'An Azure File share mounted on the host.', { required: ['secretName', 'shareName'] }),
  [core('AzureFilePersistentVolumeSource')]: obj({
    readOnly: bool('Mount the volume read-only; false if unset.'),
    secretName: str('Secret holding the storage account name and key.'),
    secretNamespace: str("Namespace of the secret; the pod's if unset."),
    shareName: str('Name of the share.'),
  }, 'An Azure File share mounted on the host.', { required: ['secretName', 'shareName'] }),
  [core('CSIVolumeSource')]: obj({
    driver: str('Name of the CSI driver.'),
    fsType: str("Filesystem type; the driver's default if empty."),
    nodePublishSecretRef: ref(core('LocalObjectReference'), "Secret passed to the driver's NodePublishVolume and NodeUnpublishVolume calls."),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    volumeAttributes: strMap('Driver-specific properties.'),
  }, 'An ephemeral volume handled by a CSI driver.', { required: ['driver'] }),
  [core('CSIPersistentVolumeSource')]: obj({
    controllerExpandSecretRef: ref(core('SecretReference'), "Secret passed to the driver's ControllerExpandVolume call."),
    controllerPublishSecretRef: ref(core('SecretReference'), "Secret passed to the driver's ControllerPublishVolume and ControllerUnpublishVolume calls."),
    driver: str('Name of the CSI driver.'),
    fsType: str('Filesystem type to mount, such as ext4 or xfs.'),
    nodeExpandSecretRef: ref(core('SecretReference'), "Secret passed to the driver's NodeExpandVolume call."),
    nodePublishSecretRef: ref(core('SecretReference'), "Secret passed to the driver's NodePublishVolume and NodeUnpublishVolume calls."),
    nodeStageSecretRef: ref(core('SecretReference'), "Secret passed to the driver's NodeStageVolume, NodeUnstageVolume and NodeUnpublishVolume calls."),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    volumeAttributes: strMap('Driver-specific attributes of the volume.'),
    volumeHandle: str("Unique name of the volume returned by the driver's CreateVolume."),
  }, 'Storage handled by an external CSI driver.', { required: ['driver', 'volumeHandle'] }),
  ...sourcePair('CephFS', (secret) => ({
    monitors: arr(str(), 'Ceph monitor addresses.'),
    path: str('Mounted root within the filesystem; / if unset.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    secretFile: str('Path to the key ring of the user; /etc/ceph/user.secret if unset.'),
    secretRef: ref(core(secret), 'Secret holding the credentials for this volume.'),
    user: str('RADOS user name; admin if unset.'),
  }), { description: "A Ceph filesystem mount that lasts the pod's lifetime.", required: ['monitors'] }),
  ...sourcePair('Cinder', (secret) => ({
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    secretRef: ref(core(secret), 'Secret holding the credentials for this volume.'),
    volumeID: str('ID of the Cinder volume.'),
  }), { description: "A Cinder volume attached and mounted on the kubelet's host.", required: ['volumeID'] }),
  [core('FCVolumeSource')]: obj({
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    lun: int32('Target lun number.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    targetWWNs: arr(str(), 'Target worldwide names.'),
    wwids: arr(str(), 'Worldwide identifiers; exclusive with targetWWNs and lun.'),
  }, 'A Fibre Channel volume attached once, read/write.'),
  ...sourcePair('Flex', (secret) => ({
    driver: str('Name of the driver handling this volume.'),
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    options: strMap('Extra command options, if any.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    secretRef: ref(core(secret), 'Secret passed to the plugin scripts.'),
  }), {
    description: 'A generic volume served by an exec-based plugin.',
    persistentDescription: 'A generic persistent volume served by an exec-based plugin.',
    required: ['driver'],
  }),
  [core('FlockerVolumeSource')]: obj({
    datasetName: str('Name of the dataset, stored as metadata.'),
    datasetUUID: str('UUID of the dataset.'),
  }, 'A Flocker volume; the control service must be running.'),
  [core('GCEPersistentDiskVolumeSource')]: obj({
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    partition: int32('Partition to mount; the whole disk if unset or 0.'),
    pdName: str('Name of the persistent disk in GCE.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
  }, 'A GCE persistent disk; the disk must exist first.', { required: ['pdName'] }),
  [core('GlusterfsVolumeSource')]: obj({
    endpoints: str('Name of the Endpoints giving the Glusterfs topology.'),
    path: str('Glusterfs volume path.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
  }, "A Glusterfs mount that lasts the pod's lifetime.", { required: ['endpoints', 'path'] }),
  [core('GlusterfsPersistentVolumeSource')]: obj({
    endpoints: str('Name of the Endpoints giving the Glusterfs topology.'),
    endpointsNamespace: str("Namespace of the Endpoints; the PVC's if empty."),
    path: str('Glusterfs volume path.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
  }, "A Glusterfs mount that lasts the pod's lifetime.", { required: ['endpoints', 'path'] }),
  ...sourcePair('ISCSI', (secret) => ({
    chapAuthDiscovery: bool('Whether iSCSI discovery CHAP authentication is used.'),
    chapAuthSession: bool('Whether iSCSI session CHAP authentication is used.'),
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    initiatorName: str('Custom iSCSI initiator name; replaces the initiator of iscsiInterface.'),
    iqn: str('Target iSCSI qualified name.'),
    iscsiInterface: str('iSCSI interface name using the iSCSI transport.', { default: 'default' }),
    lun: int32('Target lun number.'),
    portals: arr(str(), 'Target portals, ip or ip:port (port 3260 if omitted).'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    secretRef: ref(core(secret), 'CHAP secret for target and initiator authentication.'),
    targetPortal: str('Target portal, ip or ip:port (port 3260 if omitted).'),
  }), { description: 'An iSCSI disk attached once, read/write.', required: ['targetPortal', 'iqn', 'lun'] }),
  [core('PhotonPersistentDiskVolumeSource')]: obj({
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    pdID: str('ID of the persistent disk.'),
  }, 'A Photon Controller persistent disk.', { required: ['pdID'] }),
  [core('PortworxVolumeSource')]: obj({
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    volumeID: str('Unique ID of the Portworx volume.'),
  }, 'A Portworx volume.', { required: ['volumeID'] }),
  [core('QuobyteVolumeSource')]: obj({
    group: str('Group the volume is accessed as; none if unset.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    registry: str('Quobyte registries as host:port pairs, comma separated.'),
    tenant: str('Tenant owning the volume in the backend.'),
    user: str('User the volume is accessed as; the service account if unset.'),
    volume: str('Name of an existing Quobyte volume.'),
  }, "A Quobyte mount that lasts the pod's lifetime.", { required: ['registry', 'volume'] }),
  ...sourcePair('RBD', (secret) => ({
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    image: str('Name of the rados image.'),
    keyring: str('Path to the key ring of the RBD user.', { default: '/etc/ceph/keyring' }),
    monitors: arr(str(), 'Ceph monitor addresses.'),
    pool: str('Name of the rados pool.', { default: 'rbd' }),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    secretRef: ref(core(secret), 'Secret holding the authentication key of the RBD user; overrides keyring.'),
    user: str('Rados user name.', { default: 'admin' }),
  }), { description: "A Rados Block Device mount that lasts the pod's lifetime.", required: ['monitors', 'image'] }),
  ...sourcePair('ScaleIO', (secret) => ({
    fsType: str('Filesystem type to mount; xfs if unset.', { default: 'xfs' }),
    gateway: str('Host address of the ScaleIO API gateway.'),
    protectionDomain: str('ScaleIO protection domain of the storage.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    secretRef: ref(core(secret), "Secret holding the ScaleIO user's credentials."),
    sslEnabled: bool('Whether to talk to the gateway over SSL.'),
    storageMode: str('Whether storage is ThickProvisioned or ThinProvisioned.', { default: 'ThinProvisioned' }),
    storagePool: str('ScaleIO storage pool of the protection domain.'),
    system: str('Name of the ScaleIO storage system.'),
    volumeName: str('Name of an existing ScaleIO volume.'),
  }), { description: 'A persistent ScaleIO volume.', required: ['gateway', 'system', 'secretRef'] }),
  ...sourcePair('StorageOS', (secret) => ({
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    readOnly: bool('Mount the volume read-only; false if unset.'),
    secretRef: ref(core(secret), 'Secret holding the StorageOS API credentials.'),
    volumeName: str('Name of the StorageOS volume, unique within its namespace.'),
    volumeNamespace: str("StorageOS namespace of the volume; the pod's if unset."),
  }), { description: 'A StorageOS persistent volume.', persistentSecret: 'ObjectReference' }),
  [core('VsphereVirtualDiskVolumeSource')]: obj({
    fsType: str('Filesystem type to mount, such as ext4 or xfs; ext4 if empty.'),
    storagePolicyID: str('ID of the storage policy profile.'),
    storagePolicyName: str('Name of the storage policy profile.'),
    volumePath: str('Path identifying the vSphere volume vmdk.'),
  }, 'A vSphere volume.', { required: ['volumePath'] }),
};
