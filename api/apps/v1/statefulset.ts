// StatefulSet.
import { arr, enumStr, int32, int64, kind, listKind, obj, ref, str, type Definitions } from '../../schema.js';
import { A, conditions, gvk, intOrString, podTemplate, replicas, selector, workloadCondition } from './common.js';

const retention = (when: string) => str(`What happens to the PVCs when the set is ${when}: Retain (default) or Delete.`);

export const statefulSetDefinitions: Definitions = {
  [`${A}StatefulSet`]: kind(gvk('StatefulSet'), {
    spec: ref(`${A}StatefulSetSpec`, 'Desired identities of the pods.'),
    status: ref(`${A}StatefulSetStatus`, 'Current status of the pods of the set.'),
  }, 'A set of pods with stable identities and storage.'),
  [`${A}StatefulSetList`]: listKind(gvk('StatefulSetList'), `${A}StatefulSet`),
  [`${A}StatefulSetSpec`]: obj({
    minReadySeconds: int32('Seconds a new pod must be ready without crashing to count as available.'),
    ordinals: ref(`${A}StatefulSetOrdinals`, 'Numbering of the replica indices.'),
    persistentVolumeClaimRetentionPolicy: ref(`${A}StatefulSetPersistentVolumeClaimRetentionPolicy`,
      'Lifecycle of the PVCs created from volumeClaimTemplates.'),
    podManagementPolicy: enumStr(['OrderedReady', 'Parallel'], 'OrderedReady (default) or Parallel pod creation and deletion.'),
    replicas: int32('Desired number of pods (default 1).'),
    revisionHistoryLimit: int32('Revisions to keep in history (default 10).'),
    selector: selector('Label selector of the pods; must match the template labels.'),
    serviceName: str('Headless service that gives the pods their network identity.', { default: '' }),
    template: podTemplate('Template of the pods to create.'),
    updateStrategy: ref(`${A}StatefulSetUpdateStrategy`, 'How pods are updated when the template changes.'),
    volumeClaimTemplates: arr(ref('io.k8s.api.core.v1.PersistentVolumeClaim'), 'Claims every pod gets its own copy of.'),
  }, 'Desired state of a StatefulSet.', { required: ['selector', 'template'] }),
  [`${A}StatefulSetOrdinals`]: obj({
    start: int32('Index of the first replica (default 0).', { default: 0 }),
  }, 'How replica indices are assigned.'),
  [`${A}StatefulSetPersistentVolumeClaimRetentionPolicy`]: obj({
    whenDeleted: retention('deleted'),
    whenScaled: retention('scaled down'),
  }, 'Policy for the PVCs created from volumeClaimTemplates.'),
  [`${A}StatefulSetUpdateStrategy`]: obj({
    rollingUpdate: ref(`${A}RollingUpdateStatefulSetStrategy`, 'Rolling update parameters, when type is RollingUpdate.'),
    type: enumStr(['OnDelete', 'RollingUpdate'], 'RollingUpdate (default) or OnDelete.'),
  }, 'How a StatefulSet updates its pods.'),
  [`${A}RollingUpdateStatefulSetStrategy`]: obj({
    maxUnavailable: intOrString('Pods that may be unavailable during the update (alpha, default 1).'),
    partition: int32('Ordinal at and above which pods are updated (default 0).'),
  }, 'Parameters of a rolling update of a StatefulSet.'),
  [`${A}StatefulSetStatus`]: obj({
    availableReplicas: int32('Pods available for at least minReadySeconds.', { default: 0 }),
    collisionCount: int32('Count of hash collisions, used to name new ControllerRevisions.'),
    conditions: conditions('StatefulSetCondition'),
    currentReplicas: int32('Pods at currentRevision.'),
    currentRevision: str('Revision of the pods in [0, currentReplicas).'),
    observedGeneration: int64('Generation observed by the controller.'),
    readyReplicas: int32('Pods with a Ready condition.'),
    replicas: replicas('Pods created by the controller.'),
    updateRevision: str('Revision of the pods in [replicas-updatedReplicas, replicas).'),
    updatedReplicas: int32('Pods at updateRevision.'),
  }, 'Observed state of a StatefulSet.', { required: ['replicas'] }),
  [`${A}StatefulSetCondition`]: workloadCondition('StatefulSet'),
};
