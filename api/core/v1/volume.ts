// Pod volumes and the volume sources built into the API (not the in-tree storage plugins).
import { arr, bool, enumStr, int32, int64, obj, ref, str, type Definitions } from '../../schema.js';
import { QUANTITY, core, meta } from './names.js';

export const volumeDefinitions: Definitions = {
  [core('Volume')]: obj({
    awsElasticBlockStore: ref(core('AWSElasticBlockStoreVolumeSource'), 'Deprecated AWS EBS disk; served by the ebs.csi.aws.com driver.'),
    azureDisk: ref(core('AzureDiskVolumeSource'), 'Deprecated Azure data disk; served by the disk.csi.azure.com driver.'),
    azureFile: ref(core('AzureFileVolumeSource'), 'Deprecated Azure File share; served by the file.csi.azure.com driver.'),
    cephfs: ref(core('CephFSVolumeSource'), 'Deprecated CephFS mount.'),
    cinder: ref(core('CinderVolumeSource'), 'Deprecated Cinder volume; served by the cinder.csi.openstack.org driver.'),
    configMap: ref(core('ConfigMapVolumeSource'), 'A ConfigMap that populates the volume.'),
    csi: ref(core('CSIVolumeSource'), 'Ephemeral storage handled by a CSI driver.'),
    downwardAPI: ref(core('DownwardAPIVolumeSource'), 'Downward API information about the pod that populates the volume.'),
    emptyDir: ref(core('EmptyDirVolumeSource'), 'A temporary directory that lives as long as the pod.'),
    ephemeral: ref(core('EphemeralVolumeSource'), 'A volume from a PVC created for the pod and deleted with it.'),
    fc: ref(core('FCVolumeSource'), 'Fibre Channel resource attached to the host and exposed to the pod.'),
    flexVolume: ref(core('FlexVolumeSource'), 'Deprecated generic volume served by an exec-based plugin.'),
    flocker: ref(core('FlockerVolumeSource'), 'Deprecated Flocker dataset.'),
    gcePersistentDisk: ref(core('GCEPersistentDiskVolumeSource'), 'Deprecated GCE persistent disk; served by the pd.csi.storage.gke.io driver.'),
    gitRepo: ref(core('GitRepoVolumeSource'), 'Deprecated git repository cloned into the volume.'),
    glusterfs: ref(core('GlusterfsVolumeSource'), 'Deprecated Glusterfs mount.'),
    hostPath: ref(core('HostPathVolumeSource'), 'A file or directory on the host; only for privileged workloads.'),
    image: ref(core('ImageVolumeSource'), 'An OCI image or artifact mounted read-only (ImageVolume feature).'),
    iscsi: ref(core('ISCSIVolumeSource'), 'iSCSI disk attached to the host and exposed to the pod.'),
    name: str('Name of the volume, a DNS label unique within the pod.'),
    nfs: ref(core('NFSVolumeSource'), 'NFS export mounted into the pod.'),
    persistentVolumeClaim: ref(core('PersistentVolumeClaimVolumeSource'), "A PersistentVolumeClaim in the pod's namespace."),
    photonPersistentDisk: ref(core('PhotonPersistentDiskVolumeSource'), 'Deprecated Photon Controller persistent disk.'),
    portworxVolume: ref(core('PortworxVolumeSource'), 'Deprecated Portworx volume; served by the pxd.portworx.com driver.'),
    projected: ref(core('ProjectedVolumeSource'), 'Several sources projected into one directory.'),
    quobyte: ref(core('QuobyteVolumeSource'), 'Deprecated Quobyte mount.'),
    rbd: ref(core('RBDVolumeSource'), 'Deprecated Rados Block Device mount.'),
    scaleIO: ref(core('ScaleIOVolumeSource'), 'Deprecated ScaleIO volume.'),
    secret: ref(core('SecretVolumeSource'), 'A Secret that populates the volume.'),
    storageos: ref(core('StorageOSVolumeSource'), 'Deprecated StorageOS volume.'),
    vsphereVolume: ref(core('VsphereVirtualDiskVolumeSource'), 'Deprecated vSphere volume; served by the csi.vsphere.vmware.com driver.'),
  }, 'A named volume of a pod that its containers may mount.', { required: ['name'] }),
  [core('KeyToPath')]: obj({
    key: str('The key to project.'),
    mode: int32('Permission bits (octal 0000-0777 or decimal 0-511) for this file; defaultMode if unset.'),
    path: str("Relative path of the file; must not contain '..'."),
  }, 'Maps a key to a path within a volume.', { required: ['key', 'path'] }),
  [core('EmptyDirVolumeSource')]: obj({
    medium: str("Storage medium backing the directory: empty for the node's default, or Memory."),
    sizeLimit: ref(QUANTITY, 'Largest amount of local storage the directory may use.'),
  }, 'An empty directory for the pod; any volume source may stand in for it.'),
  [core('HostPathVolumeSource')]: obj({
    path: str('Path on the host; a symlink is followed.'),
    type: enumStr(['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'], 'Type of the path checked before mounting; empty means no check.', { default: '' }),
  }, 'A file or directory on the host mapped into the pod.', { required: ['path'] }),
  [core('SecretVolumeSource')]: obj({
    defaultMode: int32('Permission bits (octal 0000-0777 or decimal 0-511) for created files, unless an item sets its own.', { default: 420 }),
    items: arr(ref(core('KeyToPath')), 'Keys to project into files, each with its relative path; all keys if empty.'),
    optional: bool('Whether the Secret or its keys may be absent.'),
    secretName: str("Name of the secret in the pod's namespace."),
  }, 'A Secret whose keys become files in the volume.'),
  [core('ConfigMapVolumeSource')]: obj({
    defaultMode: int32('Permission bits (octal 0000-0777 or decimal 0-511) for created files, unless an item sets its own.', { default: 420 }),
    items: arr(ref(core('KeyToPath')), 'Keys to project into files, each with its relative path; all keys if empty.'),
    name: str('Name of the referent.', { default: '' }),
    optional: bool('Whether the ConfigMap or its keys may be absent.'),
  }, 'A ConfigMap whose keys become files in the volume.'),
  [core('DownwardAPIVolumeSource')]: obj({
    defaultMode: int32('Permission bits (octal 0000-0777 or decimal 0-511) for created files, unless an item sets its own.', { default: 420 }),
    items: arr(ref(core('DownwardAPIVolumeFile')), 'Files of the volume.'),
  }, 'Downward API information projected into files.'),
  [core('DownwardAPIVolumeFile')]: obj({
    fieldRef: ref(core('ObjectFieldSelector'), 'Field of the pod to expose: metadata name, namespace, labels or annotations.'),
    mode: int32('Permission bits (octal 0000-0777 or decimal 0-511) for this file; defaultMode if unset.'),
    path: str("Relative path of the file; must not contain '..'."),
    resourceFieldRef: ref(core('ResourceFieldSelector'), 'Container resource to expose: limits or requests of cpu, memory or ephemeral storage.'),
  }, 'One file of downward API information.', { required: ['path'] }),
  [core('ProjectedVolumeSource')]: obj({
    defaultMode: int32('Permission bits (octal 0000-0777 or decimal 0-511) for created files, unless an item sets its own.', { default: 420 }),
    sources: arr(ref(core('VolumeProjection')), 'The sources to project.'),
  }, 'Several volume sources projected into one directory.'),
  [core('VolumeProjection')]: obj({
    clusterTrustBundle: ref(core('ClusterTrustBundleProjection'), 'Certificates of ClusterTrustBundle objects written to a file.'),
    configMap: ref(core('ConfigMapProjection'), 'A ConfigMap to project.'),
    downwardAPI: ref(core('DownwardAPIProjection'), 'Downward API information to project.'),
    secret: ref(core('SecretProjection'), 'A Secret to project.'),
    serviceAccountToken: ref(core('ServiceAccountTokenProjection'), 'A service account token to project.'),
  }, 'One source of a projected volume; exactly one member is set.'),
  [core('ConfigMapProjection')]: obj({
    items: arr(ref(core('KeyToPath')), 'Keys to project into files, each with its relative path; all keys if empty.'),
    name: str('Name of the referent.', { default: '' }),
    optional: bool('Whether the ConfigMap or its keys may be absent.'),
  }, 'A ConfigMap projected into a projected volume.'),
  [core('SecretProjection')]: obj({
    items: arr(ref(core('KeyToPath')), 'Keys to project into files, each with its relative path; all keys if empty.'),
    name: str('Name of the referent.', { default: '' }),
    optional: bool('Whether the Secret or its keys may be absent.'),
  }, 'A Secret projected into a projected volume.'),
  [core('DownwardAPIProjection')]: obj({
    items: arr(ref(core('DownwardAPIVolumeFile')), 'Files of downward API information.'),
  }, 'Downward API information projected into a projected volume.'),
  [core('ServiceAccountTokenProjection')]: obj({
    audience: str("Audience the token is meant for; the apiserver's if empty."),
    expirationSeconds: int64('Requested lifetime of the token; the kubelet rotates it before it expires.', { default: 3600 }),
    path: str('Path of the token file, relative to the mount point.'),
  }, 'A bound service account token written to a file.', { required: ['path'] }),
  [core('ClusterTrustBundleProjection')]: obj({
    labelSelector: ref(meta('LabelSelector'), 'Selects bundles by label when signerName is set.'),
    name: str('Select a single bundle by name; excludes signerName and labelSelector.'),
    optional: bool('Whether the pod may start when no matching bundle exists.'),
    path: str('Path of the file, relative to the volume root.'),
    signerName: str('Select all bundles of this signer (and labelSelector).'),
  }, 'ClusterTrustBundle certificates written to a file.', { required: ['path'] }),
  [core('PersistentVolumeClaimVolumeSource')]: obj({
    claimName: str('Name of the PersistentVolumeClaim.'),
    readOnly: bool('Force the mount read-only.'),
  }, "A reference to a PersistentVolumeClaim in the pod's namespace.", { required: ['claimName'] }),
  [core('EphemeralVolumeSource')]: obj({
    volumeClaimTemplate: ref(core('PersistentVolumeClaimTemplate'), 'Template of the PVC created for the pod, named <pod>-<volume>.'),
  }, 'A volume backed by a PVC created with the pod.'),
  [core('PersistentVolumeClaimTemplate')]: obj({
    metadata: ref(meta('ObjectMeta'), 'Labels and annotations copied into the PVC.'),
    spec: ref(core('PersistentVolumeClaimSpec'), 'Spec of the PVC; copied unchanged.'),
  }, 'Creates a PersistentVolumeClaim as part of an ephemeral volume.', { required: ['spec'] }),
  [core('ImageVolumeSource')]: obj({
    pullPolicy: enumStr(['Always', 'IfNotPresent', 'Never'], 'When to pull the image: Always, Never or IfNotPresent.'),
    reference: str('Image or artifact reference, as for a container image.'),
  }, 'An OCI image or artifact used as a volume.'),
  [core('GitRepoVolumeSource')]: obj({
    directory: str("Target directory name; '.' is the volume itself."),
    repository: str('URL of the repository.'),
    revision: str('Commit hash of the revision.'),
  }, 'A directory populated from a git repository; deprecated.', { required: ['repository'] }),
  [core('NFSVolumeSource')]: obj({
    path: str('Path exported by the NFS server.'),
    readOnly: bool('Mount the export read-only.'),
    server: str('Host name or IP address of the NFS server.'),
  }, "An NFS mount that lasts the pod's lifetime.", { required: ['server', 'path'] }),
  [core('LocalVolumeSource')]: obj({
    fsType: str('Filesystem type, only for block devices; auto-detected if empty.'),
    path: str('Full path on the node: a directory or a block device.'),
  }, 'Directly-attached storage with node affinity.', { required: ['path'] }),
};
