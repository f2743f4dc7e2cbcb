// Job and its failure / success policies.
import { arr, bool, enumStr, int32, int64, kind, listKind, obj, ref, setOf, str, type Definitions } from '../../schema.js';

export const B = 'io.k8s.api.batch.v1.';
export const gvk = (k: string) => ({ group: 'batch', version: 'v1', kind: k });
const time = (description: string) => ref('io.k8s.apimachinery.pkg.apis.meta.v1.Time', description);

export const jobDefinitions: Definitions = {
  [`${B}Job`]: kind(gvk('Job'), {
    spec: ref(`${B}JobSpec`, 'Desired behavior of the Job.'),
    status: ref(`${B}JobStatus`, 'Most recently observed status of the Job.'),
  }, 'A single job: pods run to completion.'),
  [`${B}JobList`]: listKind(gvk('JobList'), `${B}Job`),
  [`${B}JobSpec`]: obj({
    activeDeadlineSeconds: int64('Seconds the job may be active before the system terminates it.'),
    backoffLimit: int32('Retries before the job is marked failed (default 6).'),
    backoffLimitPerIndex: int32('Retries per index of an Indexed job before that index fails.'),
    completionMode: enumStr(['Indexed', 'NonIndexed'], 'NonIndexed (default) or Indexed completion tracking.'),
    completions: int32('Successful pods needed to finish the job.'),
    managedBy: str('Controller that manages the job; empty or "kubernetes.io/job-controller" for the built-in one.'),
    manualSelector: bool('Whether the user manages the pod selector rather than the system.'),
    maxFailedIndexes: int32('Failed indexes tolerated before the whole job fails.'),
    parallelism: int32('Pods that may run at once.'),
    podFailurePolicy: ref(`${B}PodFailurePolicy`, 'How pod failures count against the backoff limit.'),
    podReplacementPolicy: enumStr(['Failed', 'TerminatingOrFailed'], 'When replacement pods are created.'),
    selector: ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', 'Label selector of the pods.'),
    successPolicy: ref(`${B}SuccessPolicy`, 'When an Indexed job may be declared succeeded early.'),
    suspend: bool('Whether the job controller should create no pods.'),
    template: ref('io.k8s.api.core.v1.PodTemplateSpec', 'Template of the pods to run.'),
    ttlSecondsAfterFinished: int32('Seconds after finishing before the job is deleted.'),
  }, 'Desired state of a Job.', { required: ['template'] }),
  [`${B}PodFailurePolicy`]: obj({
    rules: arr(ref(`${B}PodFailurePolicyRule`), 'Rules evaluated in order; the first match applies.'),
  }, 'Handling of pod failures.', { required: ['rules'] }),
  [`${B}PodFailurePolicyRule`]: obj({
    action: enumStr(['Count', 'FailIndex', 'FailJob', 'Ignore'], 'What to do when the rule matches.', { default: '' }),
    onExitCodes: ref(`${B}PodFailurePolicyOnExitCodesRequirement`, 'Container exit codes to match.'),
    onPodConditions: arr(ref(`${B}PodFailurePolicyOnPodConditionsPattern`), 'Pod conditions to match.'),
  }, 'One rule of a pod failure policy.', { required: ['action'] }),
  [`${B}PodFailurePolicyOnExitCodesRequirement`]: obj({
    containerName: str('Restricts the check to this container.'),
    operator: enumStr(['In', 'NotIn'], 'In or NotIn.', { default: '' }),
    values: setOf(int32(undefined, { default: 0 }), 'Exit codes to check against.'),
  }, 'Matches failed containers by exit code.', { required: ['operator', 'values'] }),
  [`${B}PodFailurePolicyOnPodConditionsPattern`]: obj({
    status: str('Required condition status (default True).'),
    type: str('Required condition type.', { default: '' }),
  }, 'Matches failed pods by condition.', { required: ['type'] }),
  [`${B}SuccessPolicy`]: obj({
    rules: arr(ref(`${B}SuccessPolicyRule`), 'Rules; the job succeeds when any one is met.'),
  }, 'When a job may be declared succeeded.', { required: ['rules'] }),
  [`${B}SuccessPolicyRule`]: obj({
    succeededCount: int32('Minimum number of succeeded indexes.'),
    succeededIndexes: str('Indexes that must succeed, as intervals such as "1,3-5".'),
  }, 'One rule of a success policy.'),
  [`${B}JobStatus`]: obj({
    active: int32('Pending or running pods.'),
    completedIndexes: str('Completed indexes of an Indexed job, as intervals.'),
    completionTime: time('When the job completed.'),
    conditions: arr(ref(`${B}JobCondition`), 'Latest observations of the job state.',
      { 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge' }),
    failed: int32('Pods that reached phase Failed.'),
    failedIndexes: str('Failed indexes when backoffLimitPerIndex is set, as intervals.'),
    ready: int32('Active pods with a Ready condition.'),
    startTime: time('When the job controller started processing the job.'),
    succeeded: int32('Pods that reached phase Succeeded.'),
    terminating: int32('Terminating pods.'),
    uncountedTerminatedPods: ref(`${B}UncountedTerminatedPods`, 'Finished pods not yet counted in status.'),
  }, 'Observed state of a Job.'),
  [`${B}JobCondition`]: obj({
    lastProbeTime: time('When the condition was last probed.'),
    lastTransitionTime: time('When the condition last changed status.'),
    message: str('Human-readable detail of the transition.'),
    reason: str('CamelCase reason of the last transition.'),
    status: str('True, False or Unknown.', { default: '' }),
    type: str('Type of the condition: Complete, Failed, Suspended, ...', { default: '' }),
  }, 'A condition of a Job.', { required: ['type', 'status'] }),
  [`${B}UncountedTerminatedPods`]: obj({
    failed: setOf(str(undefined, { default: '' }), 'UIDs of failed pods not yet counted.'),
    succeeded: setOf(str(undefined, { default: '' }), 'UIDs of succeeded pods not yet counted.'),
  }, 'Finished pods the job controller has not yet accounted for.'),
};
