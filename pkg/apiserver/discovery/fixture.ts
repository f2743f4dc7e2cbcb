// A small served set for the discovery and OpenAPI tests: core pods (with status, log, exec, binding and a
// cross-group eviction), apps deployments (scale answers autoscaling/v1 Scale) and a two-version group.
import { int32, kind, listKind, obj, ref, str, type Definitions } from '../../../api/schema.js';
import type { GroupVersion } from '../../../api/types.js';

const crud = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

const coreDefinitions: Definitions = {
  'io.k8s.api.core.v1.Pod': kind({ group: '', version: 'v1', kind: 'Pod' }, {
    spec: ref('io.k8s.api.core.v1.PodSpec', 'Specification of the pod.'),
  }, 'Pod is a collection of containers.'),
  'io.k8s.api.core.v1.PodSpec': obj({ nodeName: str('The node the pod runs on.') }, 'A pod specification.'),
  'io.k8s.api.core.v1.PodList': listKind({ group: '', version: 'v1', kind: 'PodList' }, 'io.k8s.api.core.v1.Pod'),
  'io.k8s.api.core.v1.Binding': kind({ group: '', version: 'v1', kind: 'Binding' }, {
    target: ref('io.k8s.api.core.v1.ObjectReference'),
  }, 'Binding ties one object to another.'),
  'io.k8s.api.core.v1.ObjectReference': obj({ name: str('Name of the referent.') }, 'A reference.'),
  'io.k8s.api.core.v1.Namespace': kind({ group: '', version: 'v1', kind: 'Namespace' }, {}, 'A namespace.'),
  'io.k8s.api.core.v1.NamespaceList': listKind({ group: '', version: 'v1', kind: 'NamespaceList' },
    'io.k8s.api.core.v1.Namespace'),
};

export const coreV1: GroupVersion = {
  group: '', version: 'v1', definitions: coreDefinitions,
  resources: [
    {
      group: '', version: 'v1', kind: 'Pod', plural: 'pods', singular: 'pod', namespaced: true, verbs: [...crud],
      shortNames: ['po'], categories: ['all'], definition: 'io.k8s.api.core.v1.Pod',
      subresources: [
        { name: 'status', group: '', version: 'v1', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
        { name: 'log', group: '', version: 'v1', kind: 'Pod', verbs: ['get'] },
        { name: 'exec', group: '', version: 'v1', kind: 'PodExecOptions', verbs: ['create', 'get'] },
        { name: 'binding', group: '', version: 'v1', kind: 'Binding', verbs: ['create'] },
        { name: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
      ],
    },
    {
      group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', singular: 'namespace', namespaced: false,
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ns'],
      definition: 'io.k8s.api.core.v1.Namespace',
    },
  ],
};

const appsDefinitions: Definitions = {
  'io.k8s.api.apps.v1.Deployment': kind({ group: 'apps', version: 'v1', kind: 'Deployment' }, {
    spec: ref('io.k8s.api.apps.v1.DeploymentSpec'),
  }, 'Deployment enables declarative updates for Pods and ReplicaSets.'),
  'io.k8s.api.apps.v1.DeploymentSpec': obj({ replicas: int32('Desired pods.') }, 'The desired state.'),
  'io.k8s.api.apps.v1.DeploymentList': listKind({ group: 'apps', version: 'v1', kind: 'DeploymentList' },
    'io.k8s.api.apps.v1.Deployment'),
};

export const appsV1: GroupVersion = {
  group: 'apps', version: 'v1', definitions: appsDefinitions,
  resources: [{
    group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', singular: 'deployment',
    namespaced: true, verbs: [...crud], shortNames: ['deploy'], categories: ['all'],
    definition: 'io.k8s.api.apps.v1.Deployment',
    subresources: [
      { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
      { name: 'status', group: 'apps', version: 'v1', kind: 'Deployment', verbs: ['get', 'patch', 'update'] },
    ],
  }],
};

export const autoscalingV1: GroupVersion = {
  group: 'autoscaling', version: 'v1', resources: [],
  definitions: {
    'io.k8s.api.autoscaling.v1.Scale': kind({ group: 'autoscaling', version: 'v1', kind: 'Scale' }, {
      spec: obj({ replicas: int32('Desired replicas.') }, 'Scale spec.'),
    }, 'Scale of a scalable resource.'),
  },
};

const widget = (version: string): GroupVersion => ({
  group: 'stable.example.com', version,
  definitions: {
    [`com.example.stable.${version}.Widget`]: kind({ group: 'stable.example.com', version, kind: 'Widget' }, {
      spec: obj({ size: str('How big.') }),
    }, 'A widget.'),
    [`com.example.stable.${version}.WidgetList`]: listKind(
      { group: 'stable.example.com', version, kind: 'WidgetList' }, `com.example.stable.${version}.Widget`),
  },
  resources: [{
    group: 'stable.example.com', version, kind: 'Widget', plural: 'widgets', singular: 'widget', namespaced: true,
    verbs: [...crud], definition: `com.example.stable.${version}.Widget`,
  }],
});

export const widgetsV1beta1 = widget('v1beta1');
export const widgetsV1 = widget('v1');

/** Served in an order that tests the sorting: the beta version of a group before its GA version. */
export const fixture = (): GroupVersion[] => [coreV1, appsV1, autoscalingV1, widgetsV1beta1, widgetsV1];
