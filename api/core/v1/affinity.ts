// Scheduling constraints: affinity, tolerations, topology spread and topology selectors.
import { arr, enumStr, int32, int64, obj, ref, str, type Definitions } from '../../schema.js';
import { core, meta } from './names.js';

export const affinityDefinitions: Definitions = {
  [core('Affinity')]: obj({
    nodeAffinity: ref(core('NodeAffinity'), 'Node affinity rules.'),
    podAffinity: ref(core('PodAffinity'), 'Rules to co-locate the pod with other pods.'),
    podAntiAffinity: ref(core('PodAntiAffinity'), 'Rules to keep the pod away from other pods.'),
  }, 'Affinity scheduling rules of a pod.'),
  [core('NodeAffinity')]: obj({
    preferredDuringSchedulingIgnoredDuringExecution: arr(ref(core('PreferredSchedulingTerm')), 'Weighted node preferences the scheduler tries to satisfy.'),
    requiredDuringSchedulingIgnoredDuringExecution: ref(core('NodeSelector'), 'Node requirements that must be met at scheduling time.'),
  }, 'Node affinity scheduling rules.'),
  [core('NodeSelector')]: obj({
    nodeSelectorTerms: arr(ref(core('NodeSelectorTerm')), 'The terms; at least one must match.'),
  }, 'Node selector terms, ORed together.', { required: ['nodeSelectorTerms'], 'x-kubernetes-map-type': 'atomic' }),
  [core('NodeSelectorTerm')]: obj({
    matchExpressions: arr(ref(core('NodeSelectorRequirement')), 'Requirements over node labels.'),
    matchFields: arr(ref(core('NodeSelectorRequirement')), 'Requirements over node fields.'),
  }, 'Requirements over node labels and fields, ANDed together; an empty term matches nothing.', { 'x-kubernetes-map-type': 'atomic' }),
  [core('NodeSelectorRequirement')]: obj({
    key: str('Label key the selector applies to.'),
    operator: enumStr(['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'], 'Relation of key and values: In, NotIn, Exists, DoesNotExist, Gt or Lt.'),
    values: arr(str(), 'Values to compare against; one integer for Gt and Lt, none for Exists and DoesNotExist.'),
  }, 'A key, operator and values matched against a node.', { required: ['key', 'operator'] }),
  [core('PreferredSchedulingTerm')]: obj({
    preference: ref(core('NodeSelectorTerm'), 'The node selector term.'),
    weight: int32('Weight of the term, 1 to 100.'),
  }, 'A weighted node selector term.', { required: ['weight', 'preference'] }),
  [core('PodAffinity')]: obj({
    preferredDuringSchedulingIgnoredDuringExecution: arr(ref(core('WeightedPodAffinityTerm')), 'Weighted co-location preferences.'),
    requiredDuringSchedulingIgnoredDuringExecution: arr(ref(core('PodAffinityTerm')), 'Co-location terms that must all be met at scheduling time.'),
  }, 'Inter-pod affinity rules.'),
  [core('PodAntiAffinity')]: obj({
    preferredDuringSchedulingIgnoredDuringExecution: arr(ref(core('WeightedPodAffinityTerm')), 'Weighted anti-affinity preferences.'),
    requiredDuringSchedulingIgnoredDuringExecution: arr(ref(core('PodAffinityTerm')), 'Anti-affinity terms that must all be met at scheduling time.'),
  }, 'Inter-pod anti-affinity rules.'),
  [core('PodAffinityTerm')]: obj({
    labelSelector: ref(meta('LabelSelector'), 'Label query over pods.'),
    matchLabelKeys: arr(str(), 'Label keys whose values from the incoming pod are ANDed into labelSelector.'),
    mismatchLabelKeys: arr(str(), 'Label keys whose values from the incoming pod are excluded by labelSelector.'),
    namespaceSelector: ref(meta('LabelSelector'), 'Label query over namespaces the term applies to.'),
    namespaces: arr(str(), "Namespaces the term applies to; the pod's own if empty and no namespaceSelector."),
    topologyKey: str('Node label key whose value defines the topology domain.'),
  }, 'Pods, selected by labels in some namespaces, that this pod should (or should not) share a topology domain with.', { required: ['topologyKey'] }),
  [core('WeightedPodAffinityTerm')]: obj({
    podAffinityTerm: ref(core('PodAffinityTerm'), 'The pod affinity term.'),
    weight: int32('Weight of the term, 1 to 100.'),
  }, 'A pod affinity term with a weight.', { required: ['weight', 'podAffinityTerm'] }),
  [core('Toleration')]: obj({
    effect: enumStr(['NoExecute', 'NoSchedule', 'PreferNoSchedule'], 'Taint effect to match; all effects if empty.'),
    key: str('Taint key to match; all keys if empty, with operator Exists.'),
    operator: enumStr(['Equal', 'Exists'], 'Relation of key and value: Exists or Equal (the default).'),
    tolerationSeconds: int64('How long a NoExecute taint is tolerated before eviction; forever if unset.'),
    value: str('Taint value to match; empty for operator Exists.'),
  }, 'Lets a pod tolerate taints that match the key, value and effect.'),
  [core('TopologySpreadConstraint')]: obj({
    labelSelector: ref(meta('LabelSelector'), 'Label query over the pods counted in each domain.'),
    matchLabelKeys: arr(str(), 'Label keys whose values from the incoming pod narrow labelSelector.'),
    maxSkew: int32('Largest allowed difference in matching pods between domains.'),
    minDomains: int32('Minimum number of eligible domains.'),
    nodeAffinityPolicy: enumStr(['Honor', 'Ignore'], 'Whether node affinity and selector count when computing skew: Honor or Ignore.'),
    nodeTaintsPolicy: enumStr(['Honor', 'Ignore'], 'Whether node taints count when computing skew: Honor or Ignore.'),
    topologyKey: str('Node label key whose values define the domains.'),
    whenUnsatisfiable: enumStr(['DoNotSchedule', 'ScheduleAnyway'], 'What to do with a pod that cannot satisfy the constraint: DoNotSchedule or ScheduleAnyway.'),
  }, 'How matching pods spread across a topology.', { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] }),
  [core('TopologySelectorTerm')]: obj({
    matchLabelExpressions: arr(ref(core('TopologySelectorLabelRequirement')), 'Label requirements.'),
  }, 'Label requirements ANDed together; an empty term matches nothing.', { 'x-kubernetes-map-type': 'atomic' }),
  [core('TopologySelectorLabelRequirement')]: obj({
    key: str('Label key.'),
    values: arr(str(), 'Values the label may take; one must match.'),
  }, 'A label key and the values it may take.', { required: ['key', 'values'] }),
};
