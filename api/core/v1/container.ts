// Containers: image, command, ports, environment, mounts and resources.
import { arr, bool, enumStr, int32, mapList, mapOf, obj, ref, str, type Definitions, type Schema } from '../../schema.js';
import { QUANTITY, core } from './names.js';

/** Fields of Container, shared with EphemeralContainer. */
const containerFields: Record<string, Schema> = {
  args: arr(str(), "Arguments to the entrypoint; the image's CMD if unset. $(VAR) references are expanded."),
  command: arr(str(), "Entrypoint array, not run in a shell; the image's ENTRYPOINT if unset."),
  env: mapList(ref(core('EnvVar')), 'name', 'Environment variables set in the container.'),
  envFrom: arr(ref(core('EnvFromSource')), 'Sources of environment variables; explicit env entries take precedence.'),
  image: str('Container image name.'),
  imagePullPolicy: enumStr(['Always', 'IfNotPresent', 'Never'], 'When to pull the image: Always, Never or IfNotPresent.'),
  lifecycle: ref(core('Lifecycle'), 'Actions taken on container lifecycle events.'),
  livenessProbe: ref(core('Probe'), 'Probe of container liveness; the container restarts when it fails.'),
  name: str('Name of the container, a DNS label unique within the pod.'),
  ports: mapList(ref(core('ContainerPort')), 'containerPort', 'Ports the container exposes; informational.', { mapKeys: ['containerPort', 'protocol'] }),
  readinessProbe: ref(core('Probe'), 'Probe of readiness to serve; the pod leaves service endpoints when it fails.'),
  resizePolicy: arr(ref(core('ContainerResizePolicy')), 'How each resource may be resized in place.'),
  resources: ref(core('ResourceRequirements'), 'Compute resources the container needs.'),
  restartPolicy: str('Restart policy of this container; only Always for init containers (sidecars).'),
  securityContext: ref(core('SecurityContext'), 'Security options the container runs with.'),
  startupProbe: ref(core('Probe'), 'Probe that must succeed before other probes start.'),
  stdin: bool('Allocate a buffer for stdin in the container runtime.'),
  stdinOnce: bool('Close stdin after the first attach session ends.'),
  terminationMessagePath: str("File whose contents become the container's termination message.", { default: '/dev/termination-log' }),
  terminationMessagePolicy: enumStr(['FallbackToLogsOnError', 'File'], 'How the termination message is filled: File or FallbackToLogsOnError.', { default: 'File' }),
  tty: bool('Allocate a TTY for the container; needs stdin.'),
  volumeDevices: mapList(ref(core('VolumeDevice')), 'devicePath', 'Block devices the container uses.'),
  volumeMounts: mapList(ref(core('VolumeMount')), 'mountPath', "Pod volumes mounted into the container's filesystem."),
  workingDir: str("Working directory of the container; the image's default if unset."),
};

export const containerDefinitions: Definitions = {
  [core('Container')]: obj(containerFields, 'A single application container of a pod.', { required: ['name'] }),
  [core('EphemeralContainer')]: obj({
    ...containerFields,
    lifecycle: ref(core('Lifecycle'), 'Lifecycle is not allowed for ephemeral containers.'),
    livenessProbe: ref(core('Probe'), 'Probes are not allowed for ephemeral containers.'),
    name: str('Name of the ephemeral container, unique among all containers of the pod.'),
    ports: mapList(ref(core('ContainerPort')), 'containerPort', 'Ports are not allowed for ephemeral containers.', { mapKeys: ['containerPort', 'protocol'] }),
    readinessProbe: ref(core('Probe'), 'Probes are not allowed for ephemeral containers.'),
    resizePolicy: arr(ref(core('ContainerResizePolicy')), 'Resize policy is not allowed for ephemeral containers.'),
    resources: ref(core('ResourceRequirements'), 'Resources are not allowed for ephemeral containers.'),
    restartPolicy: str('Restart policy is not allowed for ephemeral containers.'),
    startupProbe: ref(core('Probe'), 'Probes are not allowed for ephemeral containers.'),
    targetContainerName: str('Container whose namespaces (IPC, PID) this one targets.'),
  }, 'A temporary container added to a running pod for debugging.', { required: ['name'] }),
  [core('ContainerPort')]: obj({
    containerPort: int32("Port number on the pod's IP address."),
    hostIP: str('Host IP the external port binds to.'),
    hostPort: int32('Port number on the host; most containers do not need one.'),
    name: str('IANA_SVC_NAME of the port, unique in the pod; services may refer to it.'),
    protocol: enumStr(['SCTP', 'TCP', 'UDP'], 'Protocol of the port: UDP, TCP or SCTP.', { default: 'TCP' }),
  }, 'A network port of a container.', { required: ['containerPort'] }),
  [core('EnvVar')]: obj({
    name: str('Name of the variable.'),
    value: str('Value of the variable; $(VAR) references are expanded.'),
    valueFrom: ref(core('EnvVarSource'), 'Source of the value; not allowed together with value.'),
  }, 'An environment variable of a container.', { required: ['name'] }),
  [core('EnvVarSource')]: obj({
    configMapKeyRef: ref(core('ConfigMapKeySelector'), 'A key of a ConfigMap.'),
    fieldRef: ref(core('ObjectFieldSelector'), 'A field of the pod: metadata.name, metadata.namespace, status.podIP and the like.'),
    resourceFieldRef: ref(core('ResourceFieldSelector'), 'A resource of the container: limits.cpu, requests.memory and the like.'),
    secretKeyRef: ref(core('SecretKeySelector'), "A key of a secret in the pod's namespace."),
  }, 'Where the value of an environment variable comes from.'),
  [core('EnvFromSource')]: obj({
    configMapRef: ref(core('ConfigMapEnvSource'), 'The ConfigMap to take variables from.'),
    prefix: str('Identifier prepended to every key.'),
    secretRef: ref(core('SecretEnvSource'), 'The Secret to take variables from.'),
  }, 'A source of a set of environment variables.'),
  [core('ConfigMapEnvSource')]: obj({
    name: str('Name of the referent.', { default: '' }),
    optional: bool('Whether the ConfigMap may be absent.'),
  }, 'A ConfigMap whose data become environment variables.'),
  [core('SecretEnvSource')]: obj({
    name: str('Name of the referent.', { default: '' }),
    optional: bool('Whether the Secret may be absent.'),
  }, 'A Secret whose data become environment variables.'),
  [core('VolumeMount')]: obj({
    mountPath: str("Path in the container at which the volume is mounted; must not contain ':'."),
    mountPropagation: enumStr(['Bidirectional', 'HostToContainer', 'None'], 'How mounts propagate between host and container: None, HostToContainer or Bidirectional.'),
    name: str('Name of the pod volume to mount.'),
    readOnly: bool('Mount read-only; false if unset.'),
    recursiveReadOnly: str('Whether a read-only mount is read-only recursively: Disabled, IfPossible or Enabled.'),
    subPath: str('Path within the volume to mount instead of its root.'),
    subPathExpr: str("Like subPath, with $(VAR) references expanded from the container's environment."),
  }, 'The mounting of a volume within a container.', { required: ['name', 'mountPath'] }),
  [core('VolumeDevice')]: obj({
    devicePath: str('Path in the container at which the device is mapped.'),
    name: str('Name of a persistentVolumeClaim volume of the pod.'),
  }, 'A raw block device mapped into a container.', { required: ['name', 'devicePath'] }),
  [core('ContainerResizePolicy')]: obj({
    resourceName: str('Name of the resource, such as cpu or memory.'),
    restartPolicy: str('Restart policy when the resource is resized: NotRequired or RestartContainer.'),
  }, 'How one resource of a container is resized in place.', { required: ['resourceName', 'restartPolicy'] }),
  [core('ResourceRequirements')]: obj({
    claims: arr(ref(core('ResourceClaim')), "Resources from the pod's resourceClaims this container uses.", { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }),
    limits: mapOf(ref(QUANTITY), 'Maximum amount of each compute resource allowed.'),
    requests: mapOf(ref(QUANTITY), 'Minimum amount of each compute resource required; limits if unset.'),
  }, 'Compute resource requirements.'),
  [core('ResourceClaim')]: obj({
    name: str("Name of an entry of the pod's resourceClaims."),
    request: str('Name of a request in the claim; the whole claim if empty.'),
  }, 'A reference to one entry of PodSpec.resourceClaims.', { required: ['name'] }),
};
