// Pods, pod templates and bindings: the pod spec and what it holds besides containers.
import { arr, bool, enumStr, int32, int64, kind, listKind, mapList, mapOf, obj, ref, str, strMap, type Definitions } from '../../schema.js';
import { QUANTITY, core, meta, v1 } from './names.js';

export const podDefinitions: Definitions = {
  [core('Pod')]: kind(v1('Pod'), {
    spec: ref(core('PodSpec'), 'Desired behaviour of the pod.'),
    status: ref(core('PodStatus'), 'Most recently observed status of the pod, written by the system.'),
  }, 'A group of containers that run together on one host.'),
  [core('PodList')]: listKind(v1('PodList'), core('Pod')),
  [core('PodSpec')]: obj({
    activeDeadlineSeconds: int64('Seconds the pod may be active, counted from its start, before the system marks it failed.'),
    affinity: ref(core('Affinity'), 'Scheduling constraints of the pod.'),
    automountServiceAccountToken: bool('Whether a service account token is mounted automatically.'),
    containers: mapList(ref(core('Container')), 'name', 'Containers of the pod; there must be at least one.'),
    dnsConfig: ref(core('PodDNSConfig'), 'DNS parameters merged into those generated from dnsPolicy.'),
    dnsPolicy: enumStr(['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'], 'DNS policy of the pod: ClusterFirstWithHostNet, ClusterFirst, Default or None.', { default: 'ClusterFirst' }),
    enableServiceLinks: bool("Whether information about services is injected into the pod's environment variables; true if unset."),
    ephemeralContainers: mapList(ref(core('EphemeralContainer')), 'name', 'Ephemeral containers run in this pod for debugging, added through the ephemeralcontainers subresource.'),
    hostAliases: mapList(ref(core('HostAlias')), 'ip', "Extra entries for the pod's hosts file."),
    hostIPC: bool("Use the host's IPC namespace."),
    hostNetwork: bool("Use the host's network namespace."),
    hostPID: bool("Use the host's pid namespace."),
    hostUsers: bool("Whether the pod uses the host's user namespace; true if unset."),
    hostname: str('Host name of the pod; a system-defined value if unset.'),
    imagePullSecrets: mapList(ref(core('LocalObjectReference')), 'name', "Secrets in the same namespace used to pull the pod's images."),
    initContainers: mapList(ref(core('Container')), 'name', 'Containers run in order before the app containers start.'),
    nodeName: str('Node the pod is bound to; set by the scheduler, or directly to skip scheduling.'),
    nodeSelector: strMap('Labels a node must carry for the pod to fit on it.', { 'x-kubernetes-map-type': 'atomic' }),
    os: ref(core('PodOS'), "Operating system the pod's containers need."),
    overhead: mapOf(ref(QUANTITY), "Resource overhead of running the pod's sandbox, set by the RuntimeClass admission controller."),
    preemptionPolicy: enumStr(['Never', 'PreemptLowerPriority'], 'Policy for preempting lower-priority pods: Never or PreemptLowerPriority.'),
    priority: int32('Priority value, filled in from priorityClassName by admission.'),
    priorityClassName: str("Name of the PriorityClass giving the pod's priority."),
    readinessGates: arr(ref(core('PodReadinessGate')), 'Extra pod conditions that must be true for the pod to be ready.'),
    resourceClaims: mapList(ref(core('PodResourceClaim')), 'name', 'Dynamic resources (ResourceClaims) the pod needs before it may start.', { strategy: 'merge,retainKeys' }),
    resources: ref(core('ResourceRequirements'), 'Total resources of the pod, shared among its containers (PodLevelResources feature).'),
    restartPolicy: enumStr(['Always', 'Never', 'OnFailure'], "Restart policy of the pod's containers: Always, OnFailure or Never.", { default: 'Always' }),
    runtimeClassName: str('RuntimeClass used to run the pod.'),
    schedulerName: str('Scheduler that places the pod.', { default: 'default-scheduler' }),
    schedulingGates: mapList(ref(core('PodSchedulingGate')), 'name', 'Gates that keep the pod from being scheduled while any remain.'),
    securityContext: { ...ref(core('PodSecurityContext'), 'Pod-level security attributes and common container settings.'), default: {} },
    serviceAccount: str('Deprecated alias of serviceAccountName.'),
    serviceAccountName: str('Name of the ServiceAccount the pod runs as.'),
    setHostnameAsFQDN: bool("Set the pod's fully qualified domain name as its hostname."),
    shareProcessNamespace: bool('Share one process namespace among all containers of the pod.'),
    subdomain: str('Subdomain of the pod; its FQDN becomes hostname.subdomain.namespace.svc.cluster-domain.'),
    terminationGracePeriodSeconds: int64('Seconds the pod is given to stop gracefully after a termination signal.', { default: 30 }),
    tolerations: arr(ref(core('Toleration')), 'Taints the pod tolerates.'),
    topologySpreadConstraints: mapList(ref(core('TopologySpreadConstraint')), 'topologyKey', "How the pod's group spreads across topology domains.", { mapKeys: ['topologyKey', 'whenUnsatisfiable'] }),
    volumes: mapList(ref(core('Volume')), 'name', "Volumes that the pod's containers can mount.", { strategy: 'merge,retainKeys' }),
  }, 'Description of a pod: its containers, volumes and scheduling constraints.', { required: ['containers'] }),
  [core('PodTemplate')]: kind(v1('PodTemplate'), {
    template: ref(core('PodTemplateSpec'), 'The pod template.'),
  }, 'A template of pods to be created from.'),
  [core('PodTemplateList')]: listKind(v1('PodTemplateList'), core('PodTemplate')),
  [core('PodTemplateSpec')]: obj({
    metadata: ref(meta('ObjectMeta'), 'Metadata of the pods created from this template.'),
    spec: ref(core('PodSpec'), 'Desired behaviour of the pods.'),
  }, 'Data to create pods from: metadata and a pod spec.'),
  [core('Binding')]: kind(v1('Binding'), {
    target: ref(core('ObjectReference'), 'The object to bind to.'),
  }, 'Binds an object to another, such as a pod to a node.', { required: ['target'] }),
  [core('HostAlias')]: obj({
    hostnames: arr(str(), 'Host names for that IP address.'),
    ip: str('IP address of the host file entry.'),
  }, "An IP address with the host names that resolve to it in the pod's hosts file.", { required: ['ip'] }),
  [core('PodDNSConfig')]: obj({
    nameservers: arr(str(), 'DNS name server IP addresses, appended to the generated ones.'),
    options: arr(ref(core('PodDNSConfigOption')), 'DNS resolver options, merged with the generated ones.'),
    searches: arr(str(), 'DNS search domains, appended to the generated ones.'),
  }, 'DNS parameters of a pod besides those generated from its DNS policy.'),
  [core('PodDNSConfigOption')]: obj({
    name: str('Name of the option; required.'),
    value: str('Value of the option.'),
  }, 'One DNS resolver option.'),
  [core('PodOS')]: obj({
    name: str('Operating system name: linux or windows.'),
  }, 'The operating system of a pod.', { required: ['name'] }),
  [core('PodReadinessGate')]: obj({
    conditionType: str("Type of a condition in the pod's condition list."),
  }, 'A pod condition that must hold for the pod to be ready.', { required: ['conditionType'] }),
  [core('PodResourceClaim')]: obj({
    name: str('Name of this claim within the pod; containers refer to it.'),
    resourceClaimName: str("Name of an existing ResourceClaim in the pod's namespace."),
    resourceClaimTemplateName: str('Name of a ResourceClaimTemplate from which a claim is made for the pod.'),
  }, 'Names a ResourceClaim, directly or through a template, that the pod uses.', { required: ['name'] }),
  [core('PodSchedulingGate')]: obj({
    name: str("Name of the gate; unique among the pod's gates."),
  }, "A gate that holds back the pod's scheduling.", { required: ['name'] }),
};
