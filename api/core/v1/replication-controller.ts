// ReplicationControllers.
import { int32, int64, kind, listKind, mapList, obj, ref, str, strMap, type Definitions } from '../../schema.js';
import { core, meta, v1 } from './names.js';

export const replicationControllerDefinitions: Definitions = {
  [core('ReplicationController')]: kind(v1('ReplicationController'), {
    spec: ref(core('ReplicationControllerSpec'), 'Desired behaviour of the replication controller.'),
    status: ref(core('ReplicationControllerStatus'), 'Most recently observed status of the replication controller.'),
  }, 'Keeps a number of replicas of a pod running.'),
  [core('ReplicationControllerList')]: listKind(v1('ReplicationControllerList'), core('ReplicationController')),
  [core('ReplicationControllerSpec')]: obj({
    minReadySeconds: int32('Seconds a new pod must be ready, without crashing, to count as available.'),
    replicas: int32('Number of desired replicas; 1 if unset.', { default: 1 }),
    selector: strMap("Label query over the pods that count as replicas; the template's labels if empty.", { 'x-kubernetes-map-type': 'atomic' }),
    template: ref(core('PodTemplateSpec'), 'Pod template used when too few replicas exist.'),
  }, 'Desired behaviour of a replication controller.'),
  [core('ReplicationControllerStatus')]: obj({
    availableReplicas: int32('Available replicas (ready for at least minReadySeconds).'),
    conditions: mapList(ref(core('ReplicationControllerCondition')), 'type', "Latest observations of the controller's state."),
    fullyLabeledReplicas: int32("Pods whose labels match the template's."),
    observedGeneration: int64('Generation of the most recently observed controller.'),
    readyReplicas: int32('Ready replicas.'),
    replicas: int32('Most recently observed number of replicas.'),
  }, 'Most recently observed status of a replication controller.', { required: ['replicas'] }),
  [core('ReplicationControllerCondition')]: obj({
    lastTransitionTime: ref(meta('Time'), 'Last time the condition moved from one status to another.'),
    message: str('Human-readable details about the last transition or state.'),
    reason: str('Short machine-readable reason in CamelCase.'),
    status: str('Status of the condition: True, False or Unknown.'),
    type: str('Type of the condition, such as ReplicaFailure.'),
  }, 'One condition of a replication controller.', { required: ['type', 'status'] }),
};
