// Security contexts of pods and containers.
import { arr, bool, enumStr, int64, obj, ref, str, type Definitions } from '../../schema.js';
import { core } from './names.js';

export const securityDefinitions: Definitions = {
  [core('SecurityContext')]: obj({
    allowPrivilegeEscalation: bool('Whether a process may gain more privileges than its parent (no_new_privs).'),
    appArmorProfile: ref(core('AppArmorProfile'), "AppArmor options; override the pod's."),
    capabilities: ref(core('Capabilities'), 'Capabilities to add or drop.'),
    privileged: bool('Run as privileged, equivalent to root on the host.'),
    procMount: enumStr(['Default', 'Unmasked'], 'Type of proc mount: Default or Unmasked.'),
    readOnlyRootFilesystem: bool('Mount the root filesystem read-only.'),
    runAsGroup: int64("GID of the container process' entrypoint."),
    runAsNonRoot: bool('Require the container to run as a non-root user.'),
    runAsUser: int64("UID of the container process' entrypoint."),
    seLinuxOptions: ref(core('SELinuxOptions'), 'SELinux context of the container.'),
    seccompProfile: ref(core('SeccompProfile'), "Seccomp options; override the pod's."),
    windowsOptions: ref(core('WindowsSecurityContextOptions'), 'Windows-specific options.'),
  }, "Security settings of a container; they override the pod's."),
  [core('PodSecurityContext')]: obj({
    appArmorProfile: ref(core('AppArmorProfile'), "AppArmor options of the pod's containers."),
    fsGroup: int64("Supplemental group that owns the pod's volumes."),
    fsGroupChangePolicy: enumStr(['Always', 'OnRootMismatch'], 'How volume ownership and permissions change: OnRootMismatch or Always.'),
    runAsGroup: int64('GID of all container entrypoints.'),
    runAsNonRoot: bool('Require all containers to run as non-root users.'),
    runAsUser: int64('UID of all container entrypoints.'),
    seLinuxChangePolicy: str('How the SELinux label is applied to volumes: Recursive or MountOption.'),
    seLinuxOptions: ref(core('SELinuxOptions'), 'SELinux context of all containers.'),
    seccompProfile: ref(core('SeccompProfile'), "Seccomp options of the pod's containers."),
    supplementalGroups: arr(int64(), "Groups added to each container's first process."),
    supplementalGroupsPolicy: enumStr(['Merge', 'Strict'], 'How supplemental groups of the first process are computed: Merge or Strict.'),
    sysctls: arr(ref(core('Sysctl')), 'Namespaced sysctls set for the pod.'),
    windowsOptions: ref(core('WindowsSecurityContextOptions'), 'Windows-specific options of all containers.'),
  }, 'Pod-level security attributes and defaults for its containers.'),
  [core('Capabilities')]: obj({
    add: arr(str(), 'Capabilities to add.'),
    drop: arr(str(), 'Capabilities to drop.'),
  }, 'POSIX capabilities to add to or drop from a container.'),
  [core('SELinuxOptions')]: obj({
    level: str('SELinux level label.'),
    role: str('SELinux role label.'),
    type: str('SELinux type label.'),
    user: str('SELinux user label.'),
  }, 'SELinux labels of a container.'),
  [core('SeccompProfile')]: obj({
    localhostProfile: str("Profile file on the node, relative to the kubelet's seccomp directory; only for type Localhost."),
    type: enumStr(['Localhost', 'RuntimeDefault', 'Unconfined'], 'Kind of profile: Localhost, RuntimeDefault or Unconfined.'),
  }, 'A seccomp profile; exactly one source is set.', { required: ['type'] }),
  [core('AppArmorProfile')]: obj({
    localhostProfile: str('Profile loaded on the node; only for type Localhost.'),
    type: enumStr(['Localhost', 'RuntimeDefault', 'Unconfined'], 'Kind of profile: Localhost, RuntimeDefault or Unconfined.'),
  }, 'An AppArmor profile.', { required: ['type'] }),
  [core('WindowsSecurityContextOptions')]: obj({
    gmsaCredentialSpec: str('Contents of the GMSA credential spec named by gmsaCredentialSpecName.'),
    gmsaCredentialSpecName: str('Name of the GMSA credential spec to use.'),
    hostProcess: bool('Run the container as a Windows HostProcess container.'),
    runAsUserName: str("User name the container's entrypoint runs as on Windows."),
  }, 'Windows-specific security options.'),
  [core('Sysctl')]: obj({
    name: str('Name of the parameter.'),
    value: str('Value of the parameter.'),
  }, 'A kernel parameter to set.', { required: ['name', 'value'] }),
};
