// Small schema fixtures in the shape of the real definitions (written by others in api/), for the
// strategic merge patch and server-side apply tests.
import { arr, bool, enumStr, int32, kind, mapList, obj, ref, setOf, str, strMap, type Definitions, type Schema } from '../../../api/schema.js';
import type { SchemaLookup } from '../schema-lookup.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

export const definitions: Definitions = {
  [META]: obj({
    name: str(), namespace: str(), uid: str(), resourceVersion: str(), generation: int32(), creationTimestamp: str(),
    labels: strMap(), annotations: strMap(),
    finalizers: setOf(str(), undefined, { 'x-kubernetes-patch-strategy': 'merge' }),
    ownerReferences: mapList(ref('io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference'), 'uid'),
    managedFields: arr(obj({ manager: str() })),
  }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': obj({ apiVersion: str(), kind: str(), name: str(), uid: str(), controller: bool() }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': obj({ matchLabels: strMap() }, undefined, { 'x-kubernetes-map-type': 'atomic' }),
  'io.k8s.api.core.v1.EnvVar': obj({ name: str(), value: str() }),
  'io.k8s.api.core.v1.ContainerPort': obj({ containerPort: int32(), protocol: str(undefined, { default: 'TCP' }), name: str() }),
  'io.k8s.api.core.v1.VolumeMount': obj({ name: str(), mountPath: str() }),
  'io.k8s.api.core.v1.ResourceRequirements': obj({ limits: strMap(), requests: strMap() }),
  'io.k8s.api.core.v1.Container': obj({
    name: str(), image: str(), args: arr(str()), command: arr(str()),
    env: mapList(ref('io.k8s.api.core.v1.EnvVar'), 'name'),
    ports: mapList(ref('io.k8s.api.core.v1.ContainerPort'), 'containerPort', undefined, { mapKeys: ['containerPort', 'protocol'] }),
    volumeMounts: mapList(ref('io.k8s.api.core.v1.VolumeMount'), 'mountPath'),
    resources: ref('io.k8s.api.core.v1.ResourceRequirements', 'Compute resources.'),
  }),
  'io.k8s.api.core.v1.Volume': obj({ name: str(), emptyDir: obj({ medium: str() }), configMap: obj({ name: str() }), secret: obj({ secretName: str() }) }),
  'io.k8s.api.core.v1.Toleration': obj({ key: str(), operator: str(), effect: str() }),
  'io.k8s.api.core.v1.PodSpec': obj({
    containers: mapList(ref('io.k8s.api.core.v1.Container'), 'name'),
    initContainers: mapList(ref('io.k8s.api.core.v1.Container'), 'name'),
    volumes: mapList(ref('io.k8s.api.core.v1.Volume'), 'name', undefined, { strategy: 'merge,retainKeys' }),
    tolerations: arr(ref('io.k8s.api.core.v1.Toleration')),
    nodeSelector: strMap(undefined, { 'x-kubernetes-map-type': 'atomic' }),
    restartPolicy: enumStr(['Always', 'OnFailure', 'Never']),
    nodeName: str(),
  }, undefined, { required: ['containers'] }),
  'io.k8s.api.core.v1.PodTemplateSpec': obj({ metadata: ref(META), spec: ref('io.k8s.api.core.v1.PodSpec', 'Pod spec.') }),
  'io.k8s.api.apps.v1.DeploymentStrategy': obj({ type: str(), rollingUpdate: obj({ maxSurge: str(), maxUnavailable: str() }) }),
  'io.k8s.api.apps.v1.DeploymentSpec': obj({
    replicas: int32(), paused: bool(),
    selector: ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'),
    template: ref('io.k8s.api.core.v1.PodTemplateSpec'),
    strategy: { ...ref('io.k8s.api.apps.v1.DeploymentStrategy', 'strategy'), 'x-kubernetes-patch-strategy': 'retainKeys' },
  }),
  'io.k8s.api.apps.v1.Deployment': kind({ group: 'apps', version: 'v1', kind: 'Deployment' }, {
    spec: ref('io.k8s.api.apps.v1.DeploymentSpec'),
    status: obj({ replicas: int32() }),
  }),
};

export const lookup: SchemaLookup = (name: string): Schema | undefined => definitions[name];
export const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
