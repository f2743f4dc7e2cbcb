// Protobuf field numbers of flowcontrol.apiserver.k8s.io/v1 messages, by definition name (k8s.io/api flowcontrol/v1
// generated.proto).
import type { ProtoFields } from './types.js';

const F = 'io.k8s.api.flowcontrol.v1.';
const condition = { 1: 'type', 2: 'status', 3: 'lastTransitionTime', 4: 'reason', 5: 'message' };

export const flowcontrolV1: ProtoFields = {
  [`${F}FlowSchema`]: { 1: 'metadata', 2: 'spec', 3: 'status' },
  [`${F}FlowSchemaList`]: { 1: 'metadata', 2: 'items' },
  [`${F}FlowSchemaSpec`]: { 1: 'priorityLevelConfiguration', 2: 'matchingPrecedence', 3: 'distinguisherMethod', 4: 'rules' },
  [`${F}FlowSchemaStatus`]: { 1: 'conditions' },
  [`${F}FlowSchemaCondition`]: condition,
  [`${F}FlowDistinguisherMethod`]: { 1: 'type*' },
  [`${F}PriorityLevelConfigurationReference`]: { 1: 'name*' },
  [`${F}PolicyRulesWithSubjects`]: { 1: 'subjects', 2: 'resourceRules', 3: 'nonResourceRules' },
  [`${F}Subject`]: { 1: 'kind*', 2: 'user', 3: 'group', 4: 'serviceAccount' },
  [`${F}UserSubject`]: { 1: 'name*' },
  [`${F}GroupSubject`]: { 1: 'name*' },
  [`${F}ServiceAccountSubject`]: { 1: 'namespace*', 2: 'name*' },
  [`${F}ResourcePolicyRule`]: { 1: 'verbs', 2: 'apiGroups', 3: 'resources', 4: 'clusterScope', 5: 'namespaces' },
  [`${F}NonResourcePolicyRule`]: { 1: 'verbs', 6: 'nonResourceURLs' },
  [`${F}PriorityLevelConfiguration`]: { 1: 'metadata', 2: 'spec', 3: 'status' },
  [`${F}PriorityLevelConfigurationList`]: { 1: 'metadata', 2: 'items' },
  [`${F}PriorityLevelConfigurationSpec`]: { 1: 'type*', 2: 'limited', 3: 'exempt' },
  [`${F}PriorityLevelConfigurationStatus`]: { 1: 'conditions' },
  [`${F}PriorityLevelConfigurationCondition`]: condition,
  [`${F}LimitedPriorityLevelConfiguration`]: { 1: 'nominalConcurrencyShares*', 2: 'limitResponse', 3: 'lendablePercent*', 4: 'borrowingLimitPercent*' },
  [`${F}ExemptPriorityLevelConfiguration`]: { 1: 'nominalConcurrencyShares*', 2: 'lendablePercent*' },
  [`${F}LimitResponse`]: { 1: 'type*', 2: 'queuing' },
  [`${F}QueuingConfiguration`]: { 1: 'queues', 2: 'handSize', 3: 'queueLengthLimit' },
};
