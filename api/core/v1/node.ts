// Nodes: spec, taints and the status the kubelet reports.
import { arr, bool, enumStr, int32, int64, kind, listKind, mapList, mapOf, obj, ref, setOf, str, type Definitions } from '../../schema.js';
import { QUANTITY, core, meta, v1 } from './names.js';

export const nodeDefinitions: Definitions = {
  [core('Node')]: kind(v1('Node'), {
    spec: ref(core('NodeSpec'), 'Behaviour of the node.'),
    status: ref(core('NodeStatus'), 'Most recently observed status of the node.'),
  }, 'A worker node of the cluster.'),
  [core('NodeList')]: listKind(v1('NodeList'), core('Node')),
  [core('NodeSpec')]: obj({
    configSource: ref(core('NodeConfigSource'), "Deprecated source of the node's kubelet configuration."),
    externalID: str('Deprecated; not used.'),
    podCIDR: str('Pod IP range given to the node.'),
    podCIDRs: setOf(str(), 'Pod IP ranges given to the node, one per IP family; the first equals podCIDR.', { 'x-kubernetes-patch-strategy': 'merge' }),
    providerID: str('ID of the node given by the cloud provider.'),
    taints: arr(ref(core('Taint')), 'Taints of the node.'),
    unschedulable: bool('Keep new pods off the node.'),
  }, 'Attributes a node is created with.'),
  [core('Taint')]: obj({
    effect: enumStr(['NoExecute', 'NoSchedule', 'PreferNoSchedule'], 'Effect on pods that do not tolerate the taint: NoSchedule, PreferNoSchedule or NoExecute.'),
    key: str('Key of the taint.'),
    timeAdded: ref(meta('Time'), 'When the taint was added; only for NoExecute taints.'),
    value: str('Value of the taint.'),
  }, 'A taint: pods that do not tolerate it are affected by its effect.', { required: ['key', 'effect'] }),
  [core('NodeConfigSource')]: obj({
    configMap: ref(core('ConfigMapNodeConfigSource'), "ConfigMap holding the node's configuration."),
  }, "Source of a node's configuration; exactly one member is set."),
  [core('ConfigMapNodeConfigSource')]: obj({
    kubeletConfigKey: str('Key of the ConfigMap holding the KubeletConfiguration.'),
    name: str('Name of the ConfigMap.'),
    namespace: str('Namespace of the ConfigMap.'),
    resourceVersion: str('ResourceVersion of the ConfigMap; forbidden in spec.'),
    uid: str('UID of the ConfigMap; forbidden in spec.'),
  }, 'A ConfigMap used as the configuration source of a node.', { required: ['namespace', 'name', 'kubeletConfigKey'] }),
  [core('NodeStatus')]: obj({
    addresses: mapList(ref(core('NodeAddress')), 'type', 'Addresses reachable to the node.'),
    allocatable: mapOf(ref(QUANTITY), 'Resources of the node available for scheduling; capacity if unset.'),
    capacity: mapOf(ref(QUANTITY), 'Total resources of the node.'),
    conditions: mapList(ref(core('NodeCondition')), 'type', 'Current conditions of the node, such as Ready.'),
    config: ref(core('NodeConfigStatus'), "Status of the node's assigned and active configuration."),
    daemonEndpoints: ref(core('NodeDaemonEndpoints'), 'Endpoints of the daemons running on the node.'),
    features: ref(core('NodeFeatures'), 'Features the node supports.'),
    images: arr(ref(core('ContainerImage')), 'Container images on the node.'),
    nodeInfo: ref(core('NodeSystemInfo'), 'Identity of the node and its software.'),
    phase: enumStr(['Pending', 'Running', 'Terminated'], 'Deprecated phase of the node.'),
    runtimeHandlers: arr(ref(core('NodeRuntimeHandler')), 'Runtime handlers available on the node.'),
    volumesAttached: arr(ref(core('AttachedVolume')), 'Volumes attached to the node.'),
    volumesInUse: arr(str(), 'Attachable volumes in use (mounted) by the node.'),
  }, 'Most recently observed status of a node.'),
  [core('NodeAddress')]: obj({
    address: str('The address.'),
    type: str('Type of address: Hostname, ExternalIP, InternalIP, ExternalDNS or InternalDNS.'),
  }, 'An address of a node.', { required: ['type', 'address'] }),
  [core('NodeCondition')]: obj({
    lastHeartbeatTime: ref(meta('Time'), 'Last time the condition was reported by its owner.'),
    lastTransitionTime: ref(meta('Time'), 'Last time the condition moved from one status to another.'),
    message: str('Human-readable details about the last transition or state.'),
    reason: str('Short machine-readable reason in CamelCase.'),
    status: str('Status of the condition: True, False or Unknown.'),
    type: str('Type of the condition, such as Ready or MemoryPressure.'),
  }, 'One condition of a node.', { required: ['type', 'status'] }),
  [core('NodeConfigStatus')]: obj({
    active: ref(core('NodeConfigSource'), 'Configuration the node is running.'),
    assigned: ref(core('NodeConfigSource'), 'Configuration the node will try to use.'),
    error: str('Error met while applying the configuration.'),
    lastKnownGood: ref(core('NodeConfigSource'), 'Configuration the node falls back to on errors.'),
  }, "Status of a node's configuration."),
  [core('NodeDaemonEndpoints')]: obj({
    kubeletEndpoint: ref(core('DaemonEndpoint'), 'Port the kubelet listens on.'),
  }, 'Ports opened by the daemons on a node.'),
  [core('DaemonEndpoint')]: obj({
    Port: int32('Port number.'),
  }, 'A port a daemon listens on.', { required: ['Port'] }),
  [core('NodeFeatures')]: obj({
    supplementalGroupsPolicy: bool('Whether the node supports the supplementalGroupsPolicy field.'),
  }, 'Features a node supports.'),
  [core('NodeRuntimeHandler')]: obj({
    features: ref(core('NodeRuntimeHandlerFeatures'), 'Features the handler supports.'),
    name: str('Name of the handler; empty for the default.'),
  }, 'A runtime handler of a node.'),
  [core('NodeRuntimeHandlerFeatures')]: obj({
    recursiveReadOnlyMounts: bool('Whether recursive read-only mounts are supported.'),
    userNamespaces: bool('Whether user namespaces are supported.'),
  }, 'Features a runtime handler supports.'),
  [core('NodeSystemInfo')]: obj({
    architecture: str('Architecture reported by the node.'),
    bootID: str('Boot ID reported by the node.'),
    containerRuntimeVersion: str('Container runtime version reported by the runtime, as runtime://version.'),
    kernelVersion: str('Kernel version reported by uname -r.'),
    kubeProxyVersion: str('Deprecated kube-proxy version; not reliable.'),
    kubeletVersion: str('Kubelet version reported by the node.'),
    machineID: str('Machine ID reported by the node.'),
    operatingSystem: str('Operating system reported by the node.'),
    osImage: str('OS image reported by the node, from /etc/os-release.'),
    systemUUID: str('System UUID reported by the node.'),
  }, 'Identity of a node and the versions of its software.', { required: ['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture'] }),
  [core('ContainerImage')]: obj({
    names: arr(str(), 'Names the image is known by.'),
    sizeBytes: int64('Size of the image in bytes.'),
  }, 'A container image on a node.'),
  [core('AttachedVolume')]: obj({
    devicePath: str('Where the volume should be available.'),
    name: str('Name of the attached volume.'),
  }, 'A volume attached to a node.', { required: ['name', 'devicePath'] }),
};
