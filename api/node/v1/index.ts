// node.k8s.io/v1: RuntimeClasses, which name the container runtime handler pods of the class run with, the pod
// overhead it costs and where such pods may be scheduled (the RuntimeClass admission plugin applies both).
import { QUANTITY } from '../../core/v1/names.js';
import { arr, kind, listKind, mapOf, obj, ref, str, strMap } from '../../schema.js';
import { ALL_VERBS, type GroupVersion } from '../../types.js';

const N = 'io.k8s.api.node.v1.';
const gvk = (k: string) => ({ group: 'node.k8s.io', version: 'v1', kind: k });

export const groupVersion: GroupVersion = {
  group: 'node.k8s.io',
  version: 'v1',
  resources: [{
    group: 'node.k8s.io', version: 'v1', kind: 'RuntimeClass', plural: 'runtimeclasses', singular: 'runtimeclass',
    namespaced: false, verbs: ALL_VERBS, definition: `${N}RuntimeClass`,
  }],
  definitions: {
    [`${N}RuntimeClass`]: kind(gvk('RuntimeClass'), {
      handler: str('The CRI handler that runs pods of this class (a DNS label; immutable).'),
      overhead: ref(`${N}Overhead`, 'The resources running a pod of this class costs beyond its containers.'),
      scheduling: ref(`${N}Scheduling`, 'The nodes that support this class.'),
    }, 'A class of container runtime supported in the cluster.', { required: ['handler'] }),
    [`${N}Overhead`]: obj({
      podFixed: mapOf(ref(QUANTITY), 'The fixed resource overhead of a pod of this class.'),
    }, 'The resource overhead of running a pod of a RuntimeClass.'),
    [`${N}Scheduling`]: obj({
      nodeSelector: strMap('Labels a node must have to run pods of this class; merged into the pod\'s nodeSelector.', { 'x-kubernetes-map-type': 'atomic' }),
      tolerations: arr(ref('io.k8s.api.core.v1.Toleration'), 'Added to the pod\'s tolerations.', { 'x-kubernetes-list-type': 'atomic' }),
    }, 'The scheduling constraints of a RuntimeClass.'),
    [`${N}RuntimeClassList`]: listKind(gvk('RuntimeClassList'), `${N}RuntimeClass`),
  },
};
