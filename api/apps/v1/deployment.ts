// Deployment and ReplicaSet.
import { bool, enumStr, int32, int64, kind, listKind, obj, ref, type Definitions } from '../../schema.js';
import { A, META, conditions, gvk, intOrString, podTemplate, replicas, selector, workloadCondition } from './common.js';

export const deploymentDefinitions: Definitions = {
  [`${A}Deployment`]: kind(gvk('Deployment'), {
    spec: ref(`${A}DeploymentSpec`, 'Desired behavior of the Deployment.'),
    status: ref(`${A}DeploymentStatus`, 'Most recently observed status of the Deployment.'),
  }, 'Declarative updates for Pods and ReplicaSets.'),
  [`${A}DeploymentList`]: listKind(gvk('DeploymentList'), `${A}Deployment`),
  [`${A}DeploymentSpec`]: obj({
    minReadySeconds: int32('Seconds a new pod must be ready without crashing to count as available.'),
    paused: bool('Whether the deployment is paused.'),
    progressDeadlineSeconds: int32('Seconds to make progress before the deployment is reported as failed.'),
    replicas: int32('Desired number of pods (default 1).'),
    revisionHistoryLimit: int32('Old ReplicaSets to keep for rollback (default 10).'),
    selector: selector('Label selector of the pods; must match the template labels.'),
    strategy: { ...ref(`${A}DeploymentStrategy`, 'How old pods are replaced by new ones.'), 'x-kubernetes-patch-strategy': 'retainKeys' },
    template: podTemplate('Template of the pods to create.'),
  }, 'Desired state of a Deployment.', { required: ['selector', 'template'] }),
  [`${A}DeploymentStrategy`]: obj({
    rollingUpdate: ref(`${A}RollingUpdateDeployment`, 'Rolling update parameters, when type is RollingUpdate.'),
    type: enumStr(['Recreate', 'RollingUpdate'], 'Recreate or RollingUpdate (default).'),
  }, 'How a Deployment replaces its pods.'),
  [`${A}RollingUpdateDeployment`]: obj({
    maxSurge: intOrString('Pods that may exist above the desired count during the update (default 25%).'),
    maxUnavailable: intOrString('Pods that may be unavailable during the update (default 25%).'),
  }, 'Parameters of a rolling update of a Deployment.'),
  [`${A}DeploymentStatus`]: obj({
    availableReplicas: int32('Pods available for at least minReadySeconds.'),
    collisionCount: int32('Count of hash collisions, used to name new ReplicaSets.'),
    conditions: conditions('DeploymentCondition'),
    observedGeneration: int64('Generation observed by the controller.'),
    readyReplicas: int32('Pods with a Ready condition.'),
    replicas: int32('Pods targeted by this deployment.'),
    unavailableReplicas: int32('Pods still needed for 100% availability.'),
    updatedReplicas: int32('Pods that have the desired template.'),
  }, 'Observed state of a Deployment.'),
  [`${A}DeploymentCondition`]: workloadCondition('Deployment', {
    lastUpdateTime: ref(`${META}Time`, 'When the condition was last updated.'),
  }),

  [`${A}ReplicaSet`]: kind(gvk('ReplicaSet'), {
    spec: ref(`${A}ReplicaSetSpec`, 'Desired behavior of the ReplicaSet.'),
    status: ref(`${A}ReplicaSetStatus`, 'Most recently observed status of the ReplicaSet.'),
  }, 'Keeps a number of pod replicas running.'),
  [`${A}ReplicaSetList`]: listKind(gvk('ReplicaSetList'), `${A}ReplicaSet`),
  [`${A}ReplicaSetSpec`]: obj({
    minReadySeconds: int32('Seconds a new pod must be ready without crashing to count as available.'),
    replicas: int32('Desired number of pods (default 1).'),
    selector: selector('Label selector of the pods; must match the template labels.'),
    template: podTemplate('Template of the pods to create.'),
  }, 'Desired state of a ReplicaSet.', { required: ['selector'] }),
  [`${A}ReplicaSetStatus`]: obj({
    availableReplicas: int32('Pods available for at least minReadySeconds.'),
    conditions: conditions('ReplicaSetCondition'),
    fullyLabeledReplicas: int32('Pods whose labels match the template labels.'),
    observedGeneration: int64('Generation observed by the controller.'),
    readyReplicas: int32('Pods with a Ready condition.'),
    replicas: replicas('Most recently observed number of pods.'),
  }, 'Observed state of a ReplicaSet.', { required: ['replicas'] }),
  [`${A}ReplicaSetCondition`]: workloadCondition('ReplicaSet'),
};
