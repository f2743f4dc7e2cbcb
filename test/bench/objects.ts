// The objects the bench writes: ~1 KB ConfigMaps, ~1.5 KB pods shaped like a real Deployment's, and
// small ConfigMaps as watch events. Deterministic, so every run sends the same bytes.

/** Filler text of exactly n characters. */
const filler = (n: number, seed: number): string => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[(i * 7 + seed) % alphabet.length];
  return s;
};

const CM_VALUE = filler(230, 3);

/** A ConfigMap whose JSON is about 1 KB. */
export function configMap(namespace: string, name: string): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name, namespace, labels: { app: 'bench', tier: 'config' } },
    data: { 'a.conf': CM_VALUE, 'b.conf': CM_VALUE, 'c.conf': CM_VALUE, 'd.conf': CM_VALUE.slice(0, 120) },
  });
}

/** A small ConfigMap carrying the event's index, used as a watch event. */
export function eventConfigMap(namespace: string, name: string): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name, namespace, labels: { app: 'bench-watch' } },
    data: { payload: filler(200, 5) },
  });
}

/** A pod as a ReplicaSet would create it: labels, owner, one container with env, ports, probes, resources, mounts. */
export function pod(namespace: string, name: string): string {
  return JSON.stringify({
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name, namespace,
      labels: { app: 'web', 'pod-template-hash': '7d9f8c6b5d', tier: 'frontend', release: 'stable' },
      annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090', 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5d', uid: '4b1e9a52-5d0c-4f57-9d5e-2a7c1f0b8e11', controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      containers: [{
        name: 'web', image: 'registry.example.com/team/web:1.27.3',
        args: ['--port=8080', '--metrics-port=9090', '--log-level=info'],
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }, { name: 'metrics', containerPort: 9090, protocol: 'TCP' }],
        env: [
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
          { name: 'LOG_FORMAT', value: 'json' },
          { name: 'CACHE_URL', value: 'redis://cache.default.svc.cluster.local:6379' },
        ],
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
        readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 2, periodSeconds: 5 },
        livenessProbe: { httpGet: { path: '/livez', port: 8080 }, initialDelaySeconds: 10, periodSeconds: 10 },
        volumeMounts: [{ name: 'config', mountPath: '/etc/web', readOnly: true }, { name: 'cache', mountPath: '/var/cache/web' }],
      }],
      volumes: [{ name: 'config', configMap: { name: 'web-config' } }, { name: 'cache', emptyDir: {} }],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      terminationGracePeriodSeconds: 30,
    },
  });
}

export const namespace = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

/** The status a kubelet reports for a started pod of `pod()`, as a merge patch of pods/status. */
export function runningStatusPatch(uid: string, at = '2026-01-01T00:00:05Z'): string {
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: at });
  return JSON.stringify({
    metadata: { uid },
    status: {
      phase: 'Running',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
      hostIP: '10.0.0.7', hostIPs: [{ ip: '10.0.0.7' }], podIP: '10.244.7.19', podIPs: [{ ip: '10.244.7.19' }], startTime: at,
      containerStatuses: [{
        name: 'web', state: { running: { startedAt: at } }, lastState: {}, ready: true, restartCount: 0, started: true,
        image: 'registry.example.com/team/web:1.27.3', imageID: 'registry.example.com/team/web@sha256:0f3c1b2a', containerID: `fake://${uid}/web`,
      }],
      qosClass: 'Burstable',
    },
  });
}

/** An events.k8s.io/v1 Event as kube-scheduler writes one for each pod it binds. */
export function scheduledEvent(namespace: string, name: string): string {
  return JSON.stringify({
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: `${name}.18a2b3c4d5e6f708`, namespace },
    eventTime: '2026-01-01T00:00:05.123456Z', reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-vm',
    action: 'Binding', reason: 'Scheduled', type: 'Normal', note: `Successfully assigned ${namespace}/${name} to node-7`,
    regarding: { apiVersion: 'v1', kind: 'Pod', namespace, name, uid: '6f1c1d5e-8c1b-4c55-9d1e-3b8f0e2a7c41', resourceVersion: '1234' },
  });
}

/** The custom resources' group (issue 6's bench). */
export const GROUP = 'bench.example.com';

export const crd = (plural: string, kind: string, spec: Record<string, unknown>, rules: { rule: string; message: string }[] = []): string => JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${GROUP}` },
  spec: {
    group: GROUP, scope: 'Namespaced', names: { plural, singular: plural.replace(/s$/, ''), kind, listKind: `${kind}List` },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec, ...(rules.length ? { 'x-kubernetes-validations': rules } : {}) } } } },
    }],
  },
});

/** 50 fields: strings with lengths and patterns, bounded integers, booleans and enums, as a real operator's spec. */
export const WIDGET_FIELDS: Record<string, unknown> = Object.fromEntries(Array.from({ length: 50 }, (_, i) => {
  const name = `field${String(i).padStart(2, '0')}`;
  switch (i % 4) {
    case 0: return [name, { type: 'string', maxLength: 64, pattern: '^[a-z0-9-]*$' }];
    case 1: return [name, { type: 'integer', minimum: 0, maximum: 1_000_000 }];
    case 2: return [name, { type: 'boolean' }];
    default: return [name, { type: 'string', enum: ['Always', 'IfNotPresent', 'Never'] }];
  }
}));
export const WIDGET_RULES = [
  { rule: 'self.field01 <= self.field05', message: 'field01 must not exceed field05' },
  { rule: 'self.field00.size() + self.field04.size() <= 100', message: 'field00 and field04 are too long together' },
  { rule: '!self.field02 || self.field03 != "Never"', message: 'field03 may not be Never when field02 is set' },
];
const WIDGET_SPEC: Record<string, unknown> = Object.fromEntries(Object.entries(WIDGET_FIELDS).map(([name, s], i) => {
  const t = (s as { type: string }).type;
  return [name, t === 'integer' ? i * 10 : t === 'boolean' ? i % 8 === 2 : (s as { enum?: string[] }).enum ? 'IfNotPresent' : `value-${i}`];
}));
export const widget = (namespace: string, name: string): string => JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name, namespace, labels: { app: 'bench' } }, spec: WIDGET_SPEC });
