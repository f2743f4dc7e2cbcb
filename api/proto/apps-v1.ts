// Protobuf field numbers of apps/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const appsV1: ProtoFields = {
  'io.k8s.api.apps.v1.ControllerRevision': { 1: 'metadata', 2: 'data', 3: 'revision*' },
  'io.k8s.api.apps.v1.ControllerRevisionList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.apps.v1.DaemonSet': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.apps.v1.DaemonSetCondition': {
    1: 'type*', 2: 'status*', 3: 'lastTransitionTime', 4: 'reason', 5: 'message',
  },
  'io.k8s.api.apps.v1.DaemonSetList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.apps.v1.DaemonSetSpec': {
    1: 'selector', 2: 'template', 3: 'updateStrategy', 4: 'minReadySeconds', 6: 'revisionHistoryLimit*',
  },
  'io.k8s.api.apps.v1.DaemonSetStatus': {
    1: 'currentNumberScheduled*', 2: 'numberMisscheduled*', 3: 'desiredNumberScheduled*', 4: 'numberReady*',
    5: 'observedGeneration', 6: 'updatedNumberScheduled', 7: 'numberAvailable', 8: 'numberUnavailable',
    9: 'collisionCount*', 10: 'conditions',
  },
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy': { 1: 'type', 2: 'rollingUpdate' },
  'io.k8s.api.apps.v1.Deployment': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.apps.v1.DeploymentCondition': {
    1: 'type*', 2: 'status*', 4: 'reason', 5: 'message', 6: 'lastUpdateTime', 7: 'lastTransitionTime',
  },
  'io.k8s.api.apps.v1.DeploymentList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.apps.v1.DeploymentSpec': {
    1: 'replicas*', 2: 'selector', 3: 'template', 4: 'strategy', 5: 'minReadySeconds', 6: 'revisionHistoryLimit*',
    7: 'paused', 9: 'progressDeadlineSeconds*',
  },
  'io.k8s.api.apps.v1.DeploymentStatus': {
    1: 'observedGeneration', 2: 'replicas', 3: 'updatedReplicas', 4: 'availableReplicas', 5: 'unavailableReplicas',
    6: 'conditions', 7: 'readyReplicas', 8: 'collisionCount*',
  },
  'io.k8s.api.apps.v1.DeploymentStrategy': { 1: 'type', 2: 'rollingUpdate' },
  'io.k8s.api.apps.v1.ReplicaSet': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.apps.v1.ReplicaSetCondition': {
    1: 'type*', 2: 'status*', 3: 'lastTransitionTime', 4: 'reason', 5: 'message',
  },
  'io.k8s.api.apps.v1.ReplicaSetList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.apps.v1.ReplicaSetSpec': { 1: 'replicas*', 2: 'selector', 3: 'template', 4: 'minReadySeconds' },
  'io.k8s.api.apps.v1.ReplicaSetStatus': {
    1: 'replicas*', 2: 'fullyLabeledReplicas', 3: 'observedGeneration', 4: 'readyReplicas', 5: 'availableReplicas',
    6: 'conditions',
  },
  'io.k8s.api.apps.v1.RollingUpdateDaemonSet': { 1: 'maxUnavailable', 2: 'maxSurge' },
  'io.k8s.api.apps.v1.RollingUpdateDeployment': { 1: 'maxUnavailable', 2: 'maxSurge' },
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy': { 1: 'partition*', 2: 'maxUnavailable' },
  'io.k8s.api.apps.v1.StatefulSet': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.apps.v1.StatefulSetCondition': {
    1: 'type*', 2: 'status*', 3: 'lastTransitionTime', 4: 'reason', 5: 'message',
  },
  'io.k8s.api.apps.v1.StatefulSetList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.apps.v1.StatefulSetOrdinals': { 1: 'start*' },
  'io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy': { 1: 'whenDeleted', 2: 'whenScaled' },
  'io.k8s.api.apps.v1.StatefulSetSpec': {
    1: 'replicas*', 2: 'selector', 3: 'template', 4: 'volumeClaimTemplates', 5: 'serviceName*',
    6: 'podManagementPolicy', 7: 'updateStrategy', 8: 'revisionHistoryLimit*', 9: 'minReadySeconds',
    10: 'persistentVolumeClaimRetentionPolicy', 11: 'ordinals',
  },
  'io.k8s.api.apps.v1.StatefulSetStatus': {
    1: 'observedGeneration', 2: 'replicas*', 3: 'readyReplicas', 4: 'currentReplicas', 5: 'updatedReplicas',
    6: 'currentRevision', 7: 'updateRevision', 9: 'collisionCount*', 10: 'conditions', 11: 'availableReplicas*',
  },
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy': { 1: 'type', 2: 'rollingUpdate' },
};
