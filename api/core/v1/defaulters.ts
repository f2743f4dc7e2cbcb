// core/v1 computed defaults (upstream pkg/apis/core/v1/defaults.go); constant ones are schema defaults.
import type { Defaulter } from '../../types.js';
import { defaultPullPolicy } from './image-pull-policy.js';
import { core } from './names.js';

type Obj = Record<string, any>;

/** Requests default to limits, per resource (only on Pods, not on pod templates). */
const requestsFromLimits = (container: Obj): void => {
  const resources: Obj | undefined = container.resources;
  if (!resources?.limits) return;
  const requests = { ...resources.limits, ...resources.requests };
  if (Object.keys(requests).length > 0) resources.requests = requests;
};

/** With host networking, container ports are host ports. */
const hostNetworkPorts = (container: Obj): void => {
  for (const port of container.ports ?? []) port.hostPort ||= port.containerPort;
};

const pod: Defaulter = (o) => {
  const spec: Obj | undefined = o.spec;
  if (!spec) return;
  const containers: Obj[] = [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  containers.forEach(requestsFromLimits);
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork) containers.forEach(hostNetworkPorts);
};

/** serviceAccount is the deprecated alias of serviceAccountName: read when the new field is empty, always written
 * back equal to it (upstream does this in its v1 conversion, so every PodSpec it serves shows both). */
const podSpec: Defaulter = (spec) => {
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
};

const container: Defaulter = (c) => {
  c.imagePullPolicy ||= defaultPullPolicy(c.image);
};

/** A volume that names no source is an emptyDir. */
const volume: Defaulter = (v) => {
  if (Object.keys(v).every((k) => k === 'name')) v.emptyDir = {};
};

const DEFAULT_CLIENT_IP_TIMEOUT_SECONDS = 10800;

/** Runs after ServiceSpec's constant defaults (type ClusterIP, sessionAffinity None). */
const serviceSpec: Defaulter = (spec) => {
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds == null) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_TIMEOUT_SECONDS } };
  }
  const type: string = spec.type;
  const externallyAccessible = type === 'LoadBalancer' || type === 'NodePort' ||
    (type === 'ClusterIP' && (spec.externalIPs?.length ?? 0) > 0);
  if (externallyAccessible) spec.externalTrafficPolicy ||= 'Cluster';
  if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') spec.internalTrafficPolicy ??= 'Cluster';
  if (type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
};

/** Load balancer ingress IPs are VIPs unless the provider says otherwise. */
const service: Defaulter = (o) => {
  if (o.spec?.type !== 'LoadBalancer') return;
  for (const ingress of o.status?.loadBalancer?.ingress ?? []) {
    if (ingress.ip && ingress.ipMode == null) ingress.ipMode = 'VIP';
  }
};

const servicePort: Defaulter = (p) => {
  if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
};

const namespace: Defaulter = (o) => {
  const name: string | undefined = o.metadata?.name;
  if (name) o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': name };
  (o.status ??= {}).phase ||= 'Active';
};

const phase = (initial: string): Defaulter => (o) => {
  (o.status ??= {}).phase ||= initial;
};

const nodeStatus: Defaulter = (s) => {
  if (s.allocatable == null && s.capacity != null) s.allocatable = { ...s.capacity };
};

/** Container limit items: default falls back to max, defaultRequest to default and then to min. */
const limitRangeItem: Defaulter = (item) => {
  if (item.type !== 'Container') return;
  const limit = { ...item.max, ...item.default };
  const request = { ...item.min, ...limit, ...item.defaultRequest };
  if (Object.keys(limit).length > 0) item.default = limit;
  if (Object.keys(request).length > 0) item.defaultRequest = request;
};

/** Selector and labels come from the pod template when unset. */
const replicationController: Defaulter = (o) => {
  const labels: Record<string, string> | undefined = o.spec?.template?.metadata?.labels;
  if (!labels) return;
  if (Object.keys(o.spec.selector ?? {}).length === 0) o.spec.selector = { ...labels };
  o.metadata ??= {};
  if (Object.keys(o.metadata.labels ?? {}).length === 0) o.metadata.labels = { ...labels };
};

export const defaulters: Record<string, Defaulter> = {
  [core('Pod')]: pod,
  [core('PodSpec')]: podSpec,
  [core('Container')]: container,
  [core('EphemeralContainer')]: container,
  [core('Volume')]: volume,
  [core('Service')]: service,
  [core('ServiceSpec')]: serviceSpec,
  [core('ServicePort')]: servicePort,
  [core('Namespace')]: namespace,
  [core('PersistentVolume')]: phase('Pending'),
  [core('PersistentVolumeClaim')]: phase('Pending'),
  [core('NodeStatus')]: nodeStatus,
  [core('LimitRangeItem')]: limitRangeItem,
  [core('ReplicationController')]: replicationController,
};
