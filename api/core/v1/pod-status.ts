// What the kubelet reports about a pod and its containers.
import { arr, bool, enumStr, int32, int64, mapList, mapOf, obj, ref, str, type Definitions } from '../../schema.js';
import { QUANTITY, core, meta } from './names.js';

export const podStatusDefinitions: Definitions = {
  [core('PodStatus')]: obj({
    conditions: mapList(ref(core('PodCondition')), 'type', 'Current service state of the pod.'),
    containerStatuses: arr(ref(core('ContainerStatus')), 'Status of each app container.'),
    ephemeralContainerStatuses: arr(ref(core('ContainerStatus')), 'Status of each ephemeral container.'),
    hostIP: str("Primary IP address of the pod's host."),
    hostIPs: arr(ref(core('HostIP')), 'IP addresses of the host; the first equals hostIP.', { 'x-kubernetes-patch-merge-key': 'ip', 'x-kubernetes-patch-strategy': 'merge' }),
    initContainerStatuses: arr(ref(core('ContainerStatus')), 'Status of each init container.'),
    message: str('Human-readable message on why the pod is in this condition.'),
    nominatedNodeName: str('Node on which the pod should fit once preempted pods are gone.'),
    phase: enumStr(['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown'], 'Coarse phase of the pod in its lifecycle: Pending, Running, Succeeded, Failed or Unknown.'),
    podIP: str('Primary IP address of the pod.'),
    podIPs: mapList(ref(core('PodIP')), 'ip', 'IP addresses of the pod; the first equals podIP.'),
    qosClass: enumStr(['BestEffort', 'Burstable', 'Guaranteed'], "Quality of Service class from the pod's resource requirements."),
    reason: str("Short CamelCase reason for the pod's state, such as Evicted."),
    resize: str("Status of a requested in-place resize of the pod's containers."),
    resourceClaimStatuses: mapList(ref(core('PodResourceClaimStatus')), 'name', 'Names of the ResourceClaims generated for the pod.', { strategy: 'merge,retainKeys' }),
    startTime: ref(meta('Time'), 'When the kubelet acknowledged the pod, before any image was pulled.'),
  }, 'Observed state of a pod; may lag the real state.'),
  [core('PodCondition')]: obj({
    lastProbeTime: ref(meta('Time'), 'Last time the condition was probed.'),
    lastTransitionTime: ref(meta('Time'), 'Last time the condition moved from one status to another.'),
    message: str('Human-readable details about the last transition or state.'),
    reason: str('Short machine-readable reason in CamelCase.'),
    status: str('Status of the condition: True, False or Unknown.'),
    type: str('Type of the condition, such as Ready or PodScheduled.'),
  }, 'One condition of a pod.', { required: ['type', 'status'] }),
  [core('PodIP')]: obj({
    ip: str('The IP address.'),
  }, 'An IP address given to the pod.', { required: ['ip'] }),
  [core('HostIP')]: obj({
    ip: str('The IP address.'),
  }, "An IP address of the pod's host.", { required: ['ip'] }),
  [core('ContainerStatus')]: obj({
    allocatedResources: mapOf(ref(QUANTITY), 'Compute resources the node allocated to the container.'),
    allocatedResourcesStatus: mapList(ref(core('ResourceStatus')), 'name', 'Health of the resources allocated to the container.'),
    containerID: str('ID of the container, as docker://<id> or similar.'),
    image: str('Image the container runs.'),
    imageID: str('ID of the image the container runs.'),
    lastState: ref(core('ContainerState'), "Details of the container's last termination."),
    name: str('Name of the container, as in the pod spec.'),
    ready: bool('Whether the container passes its readiness probe.'),
    resources: ref(core('ResourceRequirements'), 'Requests and limits in effect for the running container.'),
    restartCount: int32('Times the container has been restarted.'),
    started: bool('Whether the container has started and passed its startup probe.'),
    state: ref(core('ContainerState'), "Details of the container's current state."),
    user: ref(core('ContainerUser'), "Identity of the container's first process."),
    volumeMounts: mapList(ref(core('VolumeMountStatus')), 'mountPath', "Status of the container's volume mounts."),
  }, 'Status of one container of a pod.', { required: ['name', 'ready', 'restartCount', 'image', 'imageID'] }),
  [core('ContainerState')]: obj({
    running: ref(core('ContainerStateRunning'), 'Details of a running container.'),
    terminated: ref(core('ContainerStateTerminated'), 'Details of a terminated container.'),
    waiting: ref(core('ContainerStateWaiting'), 'Details of a waiting container.'),
  }, 'State of a container; only one member is set.'),
  [core('ContainerStateRunning')]: obj({
    startedAt: ref(meta('Time'), 'When the container last (re)started.'),
  }, 'A running container.'),
  [core('ContainerStateTerminated')]: obj({
    containerID: str('ID of the container, as docker://<id> or similar.'),
    exitCode: int32("Exit status of the container's last termination."),
    finishedAt: ref(meta('Time'), 'When the container last terminated.'),
    message: str('Message about the last termination.'),
    reason: str('Short reason for the last termination.'),
    signal: int32('Signal that ended the container, if any.'),
    startedAt: ref(meta('Time'), 'When the previous run of the container started.'),
  }, 'A terminated container.', { required: ['exitCode'] }),
  [core('ContainerStateWaiting')]: obj({
    message: str('Message on why the container is not running yet.'),
    reason: str('Short reason why the container is not running yet.'),
  }, 'A waiting container.'),
  [core('ContainerUser')]: obj({
    linux: ref(core('LinuxContainerUser'), 'Identity on Linux.'),
  }, "Identity of a container's first process."),
  [core('LinuxContainerUser')]: obj({
    gid: int64('Primary group ID.'),
    supplementalGroups: arr(int64(), 'Supplemental group IDs.'),
    uid: int64('User ID.'),
  }, "Linux identity of a container's first process.", { required: ['uid', 'gid'] }),
  [core('PodResourceClaimStatus')]: obj({
    name: str("Name of the claim in the pod's resourceClaims."),
    resourceClaimName: str('Name of the ResourceClaim generated for it; unset if none was needed.'),
  }, "The ResourceClaim generated for one of the pod's resource claims.", { required: ['name'] }),
  [core('ResourceStatus')]: obj({
    name: str('Resource name, such as a device plugin resource or claim:<claim>/<request>.'),
    resources: arr(ref(core('ResourceHealth')), 'Health of each allocated resource, by ID.', { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['resourceID'] }),
  }, 'Health of the resources of one resource name allocated to a container.', { required: ['name'] }),
  [core('ResourceHealth')]: obj({
    health: str('Health of the resource: Healthy, Unhealthy or Unknown.'),
    resourceID: str('Unique ID of the resource.'),
  }, 'Health of one allocated resource.', { required: ['resourceID'] }),
  [core('VolumeMountStatus')]: obj({
    mountPath: str('Path the volume is mounted at.'),
    name: str('Name of the mount, as in the volume mount.'),
    readOnly: bool('Whether the mount is read-only.'),
    recursiveReadOnly: str('Whether read-only is applied recursively: Disabled or Enabled.'),
  }, 'Status of one volume mount of a container.', { required: ['name', 'mountPath'] }),
};
