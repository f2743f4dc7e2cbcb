// policy/v1beta1: PodSecurityPolicy, cluster-scoped, as upstream served it up to 1.24 (the PodSecurityPolicy
// admission plugin reads these).
import { arr, bool, int32, int64, kind, listKind, obj, ref, str } from '../../schema.js';
import { ALL_VERBS, type GroupVersion } from '../../types.js';

const P = 'io.k8s.api.policy.v1beta1.';
const C = 'io.k8s.api.core.v1.';
const gvk = (k: string) => ({ group: 'policy', version: 'v1beta1', kind: k });
const strings = (description: string) => arr(str(), description);

/** Upstream's FSType values: the volume plugins a policy may allow ("*" is all of them). */
export const FS_TYPES = [
  'azureFile', 'flocker', 'flexVolume', 'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo',
  'secret', 'nfs', 'iscsi', 'glusterfs', 'persistentVolumeClaim', 'rbd', 'cinder', 'cephFS', 'downwardAPI', 'fc',
  'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'storageos', 'projected',
  'portworxVolume', 'scaleIO', 'csi', 'ephemeral',
];

const ranges = (what: string) => arr(ref(`${P}IDRange`), `The allowed ranges of ${what}; required for MustRunAs.`);
const strategy = (rule: string, what: string) => obj({
  rule: str(rule),
  ranges: ranges(what),
}, `The strategy for ${what} and its options.`);

export const groupVersion: GroupVersion = {
  group: 'policy',
  version: 'v1beta1',
  resources: [{
    group: 'policy', version: 'v1beta1', kind: 'PodSecurityPolicy', plural: 'podsecuritypolicies',
    singular: 'podsecuritypolicy', namespaced: false, verbs: ALL_VERBS, shortNames: ['psp'],
    definition: `${P}PodSecurityPolicy`,
  }],
  definitions: {
    [`${P}PodSecurityPolicy`]: kind(gvk('PodSecurityPolicy'), {
      spec: ref(`${P}PodSecurityPolicySpec`, 'The policy enforced.'),
    }, 'Governs the security context that may be requested for and applied to a pod and its containers.'),
    [`${P}PodSecurityPolicyList`]: listKind(gvk('PodSecurityPolicyList'), `${P}PodSecurityPolicy`),
    [`${P}PodSecurityPolicySpec`]: obj({
      allowPrivilegeEscalation: bool('Whether a pod may ask to allow privilege escalation; default true.'),
      allowedCSIDrivers: arr(ref(`${P}AllowedCSIDriver`), 'Inline CSI drivers pods may embed; empty allows any.'),
      allowedCapabilities: strings('Capabilities a container may add ("*" allows all).'),
      allowedFlexVolumes: arr(ref(`${P}AllowedFlexVolume`), 'Flexvolume drivers pods may use; empty allows any.'),
      allowedHostPaths: arr(ref(`${P}AllowedHostPath`), 'Host path prefixes pods may mount; empty allows any.'),
      allowedProcMountTypes: strings('ProcMountTypes containers may use; empty allows only Default.'),
      allowedUnsafeSysctls: strings('Unsafe sysctls (or prefixes ending in "*") pods may set.'),
      defaultAddCapabilities: strings('Capabilities added to every container unless it drops them.'),
      defaultAllowPrivilegeEscalation: bool('The allowPrivilegeEscalation given to containers that set none.'),
      forbiddenSysctls: strings('Sysctls (or prefixes ending in "*") pods may not set.'),
      fsGroup: ref(`${P}FSGroupStrategyOptions`, 'The strategy for the fsGroup of the pod.'),
      hostIPC: bool('Whether pods may use the host IPC namespace.'),
      hostNetwork: bool('Whether pods may use the host network.'),
      hostPID: bool('Whether pods may use the host PID namespace.'),
      hostPorts: arr(ref(`${P}HostPortRange`), 'Host port ranges containers may expose.'),
      privileged: bool('Whether containers may run privileged.'),
      readOnlyRootFilesystem: bool('Whether containers must run with a read-only root filesystem.'),
      requiredDropCapabilities: strings('Capabilities every container must drop.'),
      runAsGroup: ref(`${P}RunAsGroupStrategyOptions`, 'The strategy for runAsGroup; unset allows any.'),
      runAsUser: ref(`${P}RunAsUserStrategyOptions`, 'The strategy for runAsUser.'),
      runtimeClass: ref(`${P}RuntimeClassStrategyOptions`, 'The RuntimeClasses pods may use; unset allows any.'),
      seLinux: ref(`${P}SELinuxStrategyOptions`, 'The strategy for SELinux labels.'),
      supplementalGroups: ref(`${P}SupplementalGroupsStrategyOptions`, 'The strategy for supplemental groups.'),
      volumes: strings('Volume plugins pods may use; "*" allows all.'),
    }, 'The policy a PodSecurityPolicy enforces.', { required: ['seLinux', 'runAsUser', 'supplementalGroups', 'fsGroup'] }),
    [`${P}AllowedCSIDriver`]: obj({ name: str('The registered name of the CSI driver.') }, 'An inline CSI driver pods may use.', { required: ['name'] }),
    [`${P}AllowedFlexVolume`]: obj({ driver: str('The name of the Flexvolume driver.') }, 'A Flexvolume driver pods may use.', { required: ['driver'] }),
    [`${P}AllowedHostPath`]: obj({
      pathPrefix: str('The path prefix a host volume must match ("/foo" allows "/foo/bar", not "/food").'),
      readOnly: bool('Whether every mount of such a volume must be read-only.'),
    }, 'A host path prefix pods may mount.'),
    [`${P}HostPortRange`]: obj({
      max: int32('The end of the range, inclusive.', { default: 0 }),
      min: int32('The start of the range, inclusive.', { default: 0 }),
    }, 'A range of host ports.', { required: ['min', 'max'] }),
    [`${P}IDRange`]: obj({
      max: int64('The end of the range, inclusive.', { default: 0 }),
      min: int64('The start of the range, inclusive.', { default: 0 }),
    }, 'A range of user or group IDs.', { required: ['min', 'max'] }),
    [`${P}RunAsUserStrategyOptions`]: { ...strategy('MustRunAs, MustRunAsNonRoot or RunAsAny.', 'uids'), required: ['rule'] },
    [`${P}RunAsGroupStrategyOptions`]: { ...strategy('MustRunAs, MayRunAs or RunAsAny.', 'gids'), required: ['rule'] },
    [`${P}FSGroupStrategyOptions`]: strategy('MustRunAs, MayRunAs or RunAsAny.', 'fs groups'),
    [`${P}SupplementalGroupsStrategyOptions`]: strategy('MustRunAs, MayRunAs or RunAsAny.', 'supplemental groups'),
    [`${P}SELinuxStrategyOptions`]: obj({
      rule: str('MustRunAs or RunAsAny.'),
      seLinuxOptions: ref(`${C}SELinuxOptions`, 'The SELinux labels to run as; required for MustRunAs.'),
    }, 'The strategy for SELinux labels and its options.', { required: ['rule'] }),
    [`${P}RuntimeClassStrategyOptions`]: obj({
      allowedRuntimeClassNames: strings('RuntimeClass names pods may use ("*" allows all); empty allows only unset.'),
      defaultRuntimeClassName: str('The RuntimeClass given to pods that name none.'),
    }, 'The RuntimeClasses pods may use.', { required: ['allowedRuntimeClassNames'] }),
  },
  defaulters: {
    // Upstream's SetDefaults_PodSecurityPolicySpec.
    [`${P}PodSecurityPolicySpec`]: (o) => {
      o.allowPrivilegeEscalation ??= true;
    },
  },
};
