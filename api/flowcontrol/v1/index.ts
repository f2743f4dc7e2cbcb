// flowcontrol.apiserver.k8s.io/v1: API Priority and Fairness configuration. FlowSchemas classify requests (by
// subject, verb, resource or URL) into PriorityLevelConfigurations; the apiserver keeps upstream's mandatory and
// suggested objects (pkg/apiserver/flowcontrol.ts) and reports FlowSchemas whose priority level is missing.
import { bool, int32, kind, listKind, mapList, obj, ref, setOf, arr, str } from '../../schema.js';
import { ALL_VERBS, type GroupVersion } from '../../types.js';

const F = 'io.k8s.api.flowcontrol.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const gvk = (k: string) => ({ group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: k });
const condition = (of: string) => obj({
  type: str('The type of the condition.'),
  status: str('True, False or Unknown.'),
  lastTransitionTime: ref(`${M}Time`, 'When the condition last changed status.'),
  reason: str('One-word CamelCase reason of the last transition.'),
  message: str('Human-readable details of the last transition.'),
}, `A condition of a ${of}.`);
const conditions = (of: string) => obj({
  conditions: mapList(ref(`${F}${of}Condition`), 'type', `The current states of the ${of}.`),
}, `The current state of a ${of}.`);

export const groupVersion: GroupVersion = {
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  resources: [
    {
      group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'FlowSchema', plural: 'flowschemas', singular: 'flowschema',
      namespaced: false, verbs: ALL_VERBS, subresources: [{ name: 'status', group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'FlowSchema', verbs: ['get', 'patch', 'update'] }],
      definition: `${F}FlowSchema`,
    },
    {
      group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'PriorityLevelConfiguration', plural: 'prioritylevelconfigurations',
      singular: 'prioritylevelconfiguration', namespaced: false, verbs: ALL_VERBS,
      subresources: [{ name: 'status', group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'PriorityLevelConfiguration', verbs: ['get', 'patch', 'update'] }],
      definition: `${F}PriorityLevelConfiguration`,
    },
  ],
  definitions: {
    [`${F}FlowSchema`]: kind(gvk('FlowSchema'), {
      spec: ref(`${F}FlowSchemaSpec`, 'Which requests this schema matches and where they go.'),
      status: ref(`${F}FlowSchemaStatus`, 'The current status of the FlowSchema.'),
    }, 'The schema of a group of flows: requests matched by its rules go to its priority level.'),
    [`${F}FlowSchemaList`]: listKind(gvk('FlowSchemaList'), `${F}FlowSchema`),
    [`${F}FlowSchemaSpec`]: obj({
      priorityLevelConfiguration: ref(`${F}PriorityLevelConfigurationReference`, 'The priority level matched requests go to.'),
      matchingPrecedence: int32('Among matching schemas the one with the lowest value wins (1 to 10000).', { default: 1000 }),
      distinguisherMethod: ref(`${F}FlowDistinguisherMethod`, 'How requests are told apart into flows (none: one flow).'),
      rules: arr(ref(`${F}PolicyRulesWithSubjects`), 'The schema matches a request when one of these does.'),
    }, 'The specification of a FlowSchema.', { required: ['priorityLevelConfiguration'] }),
    [`${F}FlowSchemaStatus`]: conditions('FlowSchema'),
    [`${F}FlowSchemaCondition`]: condition('FlowSchema'),
    [`${F}FlowDistinguisherMethod`]: obj({
      type: str('ByUser or ByNamespace.', { default: '' }),
    }, 'How the flow of a request is found.', { required: ['type'] }),
    [`${F}PriorityLevelConfigurationReference`]: obj({
      name: str('The name of the priority level.', { default: '' }),
    }, 'A reference to a PriorityLevelConfiguration.', { required: ['name'] }),
    [`${F}PolicyRulesWithSubjects`]: obj({
      subjects: arr(ref(`${F}Subject`), 'Who the rules apply to (at least one).'),
      resourceRules: arr(ref(`${F}ResourcePolicyRule`), 'Rules on resource requests.'),
      nonResourceRules: arr(ref(`${F}NonResourcePolicyRule`), 'Rules on non-resource requests.'),
    }, 'Rules that match a request by who makes it and what it asks.', { required: ['subjects'] }),
    [`${F}Subject`]: obj({
      kind: str('User, Group or ServiceAccount.', { default: '' }),
      user: ref(`${F}UserSubject`, 'Matches by user name.'),
      group: ref(`${F}GroupSubject`, 'Matches by group.'),
      serviceAccount: ref(`${F}ServiceAccountSubject`, 'Matches service accounts.'),
    }, 'The originator of a request.', { required: ['kind'] }),
    [`${F}UserSubject`]: obj({ name: str('A user name, or * for all.', { default: '' }) }, 'A user subject.', { required: ['name'] }),
    [`${F}GroupSubject`]: obj({ name: str('A group, or * for all.', { default: '' }) }, 'A group subject.', { required: ['name'] }),
    [`${F}ServiceAccountSubject`]: obj({
      namespace: str('The namespace of the service accounts.', { default: '' }),
      name: str('A service account name, or * for all.', { default: '' }),
    }, 'A service-account subject.', { required: ['namespace', 'name'] }),
    [`${F}ResourcePolicyRule`]: obj({
      verbs: setOf(str(), 'Matching verbs; * for all.'),
      apiGroups: setOf(str(), 'Matching API groups; * for all.'),
      resources: setOf(str(), 'Matching resources (with a subresource: pods/status); * for all.'),
      clusterScope: bool('Whether requests without a namespace match.'),
      namespaces: setOf(str(), 'Matching namespaces; * for any.'),
    }, 'Matches resource requests by verb and target.', { required: ['verbs', 'apiGroups', 'resources'] }),
    [`${F}NonResourcePolicyRule`]: obj({
      verbs: setOf(str(), 'Matching verbs; * for all.'),
      nonResourceURLs: setOf(str(), 'Matching URL prefixes; * for all.'),
    }, 'Matches non-resource requests by verb and URL.', { required: ['verbs', 'nonResourceURLs'] }),
    [`${F}PriorityLevelConfiguration`]: kind(gvk('PriorityLevelConfiguration'), {
      spec: ref(`${F}PriorityLevelConfigurationSpec`, 'How requests of this level are limited.'),
      status: ref(`${F}PriorityLevelConfigurationStatus`, 'The current status of the priority level.'),
    }, 'The configuration of a priority level.'),
    [`${F}PriorityLevelConfigurationList`]: listKind(gvk('PriorityLevelConfigurationList'), `${F}PriorityLevelConfiguration`),
    [`${F}PriorityLevelConfigurationSpec`]: obj({
      type: str('Exempt (never limited) or Limited.', { default: '' }),
      limited: ref(`${F}LimitedPriorityLevelConfiguration`, 'The limits of a Limited level.'),
      exempt: ref(`${F}ExemptPriorityLevelConfiguration`, 'The settings of an Exempt level.'),
    }, 'The specification of a priority level.', { required: ['type'] }),
    [`${F}PriorityLevelConfigurationStatus`]: conditions('PriorityLevelConfiguration'),
    [`${F}PriorityLevelConfigurationCondition`]: condition('PriorityLevelConfiguration'),
    [`${F}LimitedPriorityLevelConfiguration`]: obj({
      nominalConcurrencyShares: int32('This level\'s share of the server\'s concurrency limit.', { default: 30 }),
      limitResponse: ref(`${F}LimitResponse`, 'What to do with requests that cannot run now.'),
      lendablePercent: int32('The part of its nominal limit other levels may borrow (0 to 100).', { default: 0 }),
      borrowingLimitPercent: int32('How much this level may borrow, relative to its nominal limit (unset: no limit).'),
    }, 'How requests of a Limited level are limited.'),
    [`${F}ExemptPriorityLevelConfiguration`]: obj({
      nominalConcurrencyShares: int32('Seats nominally reserved for this level.', { default: 0 }),
      lendablePercent: int32('The part of its nominal limit other levels may borrow (0 to 100).', { default: 0 }),
    }, 'The settings of an Exempt level.'),
    [`${F}LimitResponse`]: obj({
      type: str('Queue or Reject.', { default: '' }),
      queuing: ref(`${F}QueuingConfiguration`, 'The queues, with type Queue.'),
    }, 'What happens to requests that cannot run now.', { required: ['type'] }),
    [`${F}QueuingConfiguration`]: obj({
      queues: int32('Number of queues.', { default: 64 }),
      handSize: int32('Queues dealt to a flow by shuffle sharding.', { default: 8 }),
      queueLengthLimit: int32('Requests waiting in one queue at most.', { default: 50 }),
    }, 'The queues of a priority level.'),
  },
  defaulters: {
    // Zero is "unset" for these, as upstream's defaulting reads them (the schema defaults cover absent fields).
    [`${F}FlowSchemaSpec`]: (spec) => {
      if (spec.matchingPrecedence === 0) spec.matchingPrecedence = 1000;
    },
    [`${F}QueuingConfiguration`]: (q) => {
      for (const [field, value] of [['queues', 64], ['handSize', 8], ['queueLengthLimit', 50]] as const) if (q[field] === 0) q[field] = value;
    },
    // An Exempt level without settings gets the default ones (upstream: SetDefaults_PriorityLevelConfiguration).
    [`${F}PriorityLevelConfigurationSpec`]: (spec) => {
      if (spec.type === 'Exempt' && spec.exempt === undefined) spec.exempt = { nominalConcurrencyShares: 0, lendablePercent: 0 };
    },
  },
};
