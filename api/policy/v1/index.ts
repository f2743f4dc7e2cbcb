// policy/v1: PodDisruptionBudgets and the Eviction kind spoken by pods/eviction.
import { enumStr, int32, int64, kind, listKind, mapList, mapOf, obj, ref } from '../../schema.js';
import { ALL_VERBS, type GroupVersion } from '../../types.js';

const P = 'io.k8s.api.policy.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const gvk = (k: string) => ({ group: 'policy', version: 'v1', kind: k });
const intOrString = (description: string) => ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString', description);
const count = (description: string) => int32(description, { default: 0 });

export const groupVersion: GroupVersion = {
  group: 'policy',
  version: 'v1',
  resources: [{
    group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget', namespaced: true, verbs: ALL_VERBS, shortNames: ['pdb'],
    subresources: [{ name: 'status', group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', verbs: ['get', 'patch', 'update'] }],
    definition: `${P}PodDisruptionBudget`,
  }],
  definitions: {
    [`${P}PodDisruptionBudget`]: kind(gvk('PodDisruptionBudget'), {
      spec: ref(`${P}PodDisruptionBudgetSpec`, 'Desired behavior of the budget.'),
      status: ref(`${P}PodDisruptionBudgetStatus`, 'Most recently observed status of the budget.'),
    }, 'Limits how many pods of a set may be voluntarily disrupted at once.'),
    [`${P}PodDisruptionBudgetList`]: listKind(gvk('PodDisruptionBudgetList'), `${P}PodDisruptionBudget`),
    [`${P}PodDisruptionBudgetSpec`]: obj({
      maxUnavailable: intOrString('Pods that may be unavailable after an eviction.'),
      minAvailable: intOrString('Pods that must stay available after an eviction.'),
      selector: { ...ref(`${M}LabelSelector`, 'The pods the budget covers; empty selects all in the namespace.'), 'x-kubernetes-patch-strategy': 'replace' },
      unhealthyPodEvictionPolicy: enumStr(['AlwaysAllow', 'IfHealthyBudget'], 'When unhealthy running pods may be evicted.'),
    }, 'Desired state of a PodDisruptionBudget.'),
    [`${P}PodDisruptionBudgetStatus`]: obj({
      conditions: mapList(ref(`${M}Condition`), 'type', 'Latest observations of the budget state (DisruptionAllowed).'),
      currentHealthy: count('Current number of healthy pods.'),
      desiredHealthy: count('Minimum desired number of healthy pods.'),
      disruptedPods: mapOf(ref(`${M}Time`), 'Pods being evicted, by name, with the time the eviction was admitted.'),
      disruptionsAllowed: count('Disruptions currently allowed.'),
      expectedPods: count('Pods counted by the budget.'),
      observedGeneration: int64('Generation observed by the disruption controller.'),
    }, 'Observed state of a PodDisruptionBudget.', {
      required: ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'],
    }),
    [`${P}Eviction`]: kind(gvk('Eviction'), {
      deleteOptions: ref(`${M}DeleteOptions`, 'Options for the deletion of the pod.'),
    }, 'Asks to evict a pod, subject to disruption budgets (POST to pods/eviction).'),
  },
};
