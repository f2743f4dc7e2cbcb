// DaemonSet and ControllerRevision.
import { enumStr, int32, int64, kind, listKind, obj, ref, type Definitions } from '../../schema.js';
import { A, conditions, gvk, intOrString, podTemplate, replicas, selector, workloadCondition } from './common.js';

export const daemonSetDefinitions: Definitions = {
  [`${A}DaemonSet`]: kind(gvk('DaemonSet'), {
    spec: ref(`${A}DaemonSetSpec`, 'Desired behavior of the DaemonSet.'),
    status: ref(`${A}DaemonSetStatus`, 'Most recently observed status of the DaemonSet.'),
  }, 'Runs one pod per eligible node.'),
  [`${A}DaemonSetList`]: listKind(gvk('DaemonSetList'), `${A}DaemonSet`),
  [`${A}DaemonSetSpec`]: obj({
    minReadySeconds: int32('Seconds a new pod must be ready without crashing to count as available.'),
    revisionHistoryLimit: int32('Old revisions to keep for rollback (default 10).'),
    selector: selector('Label selector of the pods; must match the template labels.'),
    template: podTemplate('Template of the pod run on each node.'),
    updateStrategy: ref(`${A}DaemonSetUpdateStrategy`, 'How old pods are replaced by new ones.'),
  }, 'Desired state of a DaemonSet.', { required: ['selector', 'template'] }),
  [`${A}DaemonSetUpdateStrategy`]: obj({
    rollingUpdate: ref(`${A}RollingUpdateDaemonSet`, 'Rolling update parameters, when type is RollingUpdate.'),
    type: enumStr(['OnDelete', 'RollingUpdate'], 'RollingUpdate (default) or OnDelete.'),
  }, 'How a DaemonSet updates its pods.'),
  [`${A}RollingUpdateDaemonSet`]: obj({
    maxSurge: intOrString('Nodes that may run an extra updated pod during the update (default 0).'),
    maxUnavailable: intOrString('Nodes whose pod may be unavailable during the update (default 1).'),
  }, 'Parameters of a rolling update of a DaemonSet.'),
  [`${A}DaemonSetStatus`]: obj({
    collisionCount: int32('Count of hash collisions, used to name new ControllerRevisions.'),
    conditions: conditions('DaemonSetCondition'),
    currentNumberScheduled: replicas('Nodes running at least one daemon pod that should.'),
    desiredNumberScheduled: replicas('Nodes that should run the daemon pod.'),
    numberAvailable: int32('Nodes whose daemon pod is available.'),
    numberMisscheduled: replicas('Nodes running the daemon pod that should not.'),
    numberReady: replicas('Nodes whose daemon pod is ready.'),
    numberUnavailable: int32('Nodes that should run an available daemon pod and do not.'),
    observedGeneration: int64('Generation observed by the controller.'),
    updatedNumberScheduled: int32('Nodes running the updated daemon pod.'),
  }, 'Observed state of a DaemonSet.', {
    required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'],
  }),
  [`${A}DaemonSetCondition`]: workloadCondition('DaemonSet'),

  [`${A}ControllerRevision`]: kind(gvk('ControllerRevision'), {
    data: ref('io.k8s.apimachinery.pkg.runtime.RawExtension', 'The serialized state of this revision.'),
    revision: int64('Revision number.', { default: 0 }),
  }, 'An immutable snapshot of a controller\'s state.', { required: ['revision'] }),
  [`${A}ControllerRevisionList`]: listKind(gvk('ControllerRevisionList'), `${A}ControllerRevision`),
};
