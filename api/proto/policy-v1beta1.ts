// Protobuf field numbers of policy/v1beta1 messages (PodSecurityPolicy), by definition name: the protobuf tags of
// k8s.io/api policy/v1beta1 types.go (v0.24). See ./index.ts.
import type { ProtoFields } from './types.js';

const strategy = { 1: 'rule*', 2: 'ranges' };

export const policyV1beta1: ProtoFields = {
  'io.k8s.api.policy.v1beta1.PodSecurityPolicy': { 1: 'metadata', 2: 'spec' },
  'io.k8s.api.policy.v1beta1.PodSecurityPolicyList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.policy.v1beta1.PodSecurityPolicySpec': {
    1: 'privileged', 2: 'defaultAddCapabilities', 3: 'requiredDropCapabilities', 4: 'allowedCapabilities', 5: 'volumes',
    6: 'hostNetwork', 7: 'hostPorts', 8: 'hostPID', 9: 'hostIPC', 10: 'seLinux', 11: 'runAsUser', 12: 'supplementalGroups',
    13: 'fsGroup', 14: 'readOnlyRootFilesystem', 15: 'defaultAllowPrivilegeEscalation*', 16: 'allowPrivilegeEscalation*',
    17: 'allowedHostPaths', 18: 'allowedFlexVolumes', 19: 'allowedUnsafeSysctls', 20: 'forbiddenSysctls',
    21: 'allowedProcMountTypes', 22: 'runAsGroup', 23: 'allowedCSIDrivers', 24: 'runtimeClass',
  },
  'io.k8s.api.policy.v1beta1.AllowedCSIDriver': { 1: 'name*' },
  'io.k8s.api.policy.v1beta1.AllowedFlexVolume': { 1: 'driver*' },
  'io.k8s.api.policy.v1beta1.AllowedHostPath': { 1: 'pathPrefix', 2: 'readOnly' },
  'io.k8s.api.policy.v1beta1.HostPortRange': { 1: 'min*', 2: 'max*' },
  'io.k8s.api.policy.v1beta1.IDRange': { 1: 'min*', 2: 'max*' },
  'io.k8s.api.policy.v1beta1.RunAsUserStrategyOptions': strategy,
  'io.k8s.api.policy.v1beta1.RunAsGroupStrategyOptions': strategy,
  'io.k8s.api.policy.v1beta1.FSGroupStrategyOptions': { 1: 'rule', 2: 'ranges' },
  'io.k8s.api.policy.v1beta1.SupplementalGroupsStrategyOptions': { 1: 'rule', 2: 'ranges' },
  'io.k8s.api.policy.v1beta1.SELinuxStrategyOptions': { 1: 'rule*', 2: 'seLinuxOptions' },
  'io.k8s.api.policy.v1beta1.RuntimeClassStrategyOptions': { 1: 'allowedRuntimeClassNames', 2: 'defaultRuntimeClassName' },
};
