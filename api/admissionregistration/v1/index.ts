// admissionregistration.k8s.io/v1 (1.32): dynamic admission webhooks and CEL validating admission
// policies with their bindings. Every kind is cluster-scoped.
import { arr, bytes, enumStr, int32, int64, kind, listKind, mapList, obj, ref, setOf, str } from '../../schema.js';
import { ALL_VERBS, type GroupVersion, type ResourceType } from '../../types.js';

const A = 'io.k8s.api.admissionregistration.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const GROUP = 'admissionregistration.k8s.io';
const gvk = (k: string) => ({ group: GROUP, version: 'v1', kind: k });
const strings = (description: string) => arr(str(), description);

const resource = (kindName: string, plural: string, status = false): ResourceType => ({
  group: GROUP, version: 'v1', kind: kindName, plural, singular: kindName.toLowerCase(), namespaced: false,
  verbs: ALL_VERBS, categories: ['api-extensions'], definition: `${A}${kindName}`,
  ...(status ? { subresources: [{ name: 'status', group: GROUP, version: 'v1', kind: kindName, verbs: ['get', 'patch', 'update'] }] } : {}),
});

const FAILURE_POLICY = ['Fail', 'Ignore'];
const MATCH_POLICY = ['Equivalent', 'Exact'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];

const ruleProps = {
  apiGroups: strings('The API groups the resources belong to; "*" is all groups.'),
  apiVersions: strings('The API versions the resources belong to; "*" is all versions.'),
  resources: strings('The resources this rule applies to ("pods", "pods/status", "*", "*/scale", "pods/*").'),
  scope: enumStr(['*', 'Cluster', 'Namespaced'], 'The scope of the rule ("Cluster", "Namespaced" or "*"); default "*".'),
};
const operations = setOf(enumStr(OPERATIONS), 'The operations the rule cares about; "*" is all of them.');

const webhookProps = {
  admissionReviewVersions: strings('Preferred AdmissionReview versions the webhook expects, in order.'),
  clientConfig: ref(`${A}WebhookClientConfig`, 'How to talk to the webhook.'),
  failurePolicy: enumStr(FAILURE_POLICY, 'How unrecognized errors from the endpoint are handled; default Fail.'),
  matchConditions: mapList(ref(`${A}MatchCondition`), 'name', 'CEL conditions all of which must be true for the request to be sent to the webhook.'),
  matchPolicy: enumStr(MATCH_POLICY, 'How the rules match incoming requests (Exact or Equivalent); default Equivalent.'),
  name: str('The name of the admission webhook, fully qualified ("imagepolicy.kubernetes.io").'),
  namespaceSelector: ref(`${M}LabelSelector`, 'Whether to run the webhook on an object by its namespace\'s labels.'),
  objectSelector: ref(`${M}LabelSelector`, 'Whether to run the webhook by the object\'s labels.'),
  rules: arr(ref(`${A}RuleWithOperations`), 'The operations on resources the webhook cares about.'),
  sideEffects: enumStr(['None', 'NoneOnDryRun', 'Some', 'Unknown'], 'Whether calling the webhook has side effects (None, NoneOnDryRun).'),
  timeoutSeconds: int32('Timeout of a call, 1 to 30 seconds; default 10.'),
};
const webhookRequired = ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions'];

const matchResourcesProps = {
  excludeResourceRules: arr(ref(`${A}NamedRuleWithOperations`), 'Operations and resources the policy must not care about.'),
  matchPolicy: enumStr(MATCH_POLICY, 'How resourceRules match incoming requests; default Equivalent.'),
  namespaceSelector: ref(`${M}LabelSelector`, 'Whether to run the policy on an object by its namespace\'s labels.'),
  objectSelector: ref(`${M}LabelSelector`, 'Whether to run the policy by the object\'s labels.'),
  resourceRules: arr(ref(`${A}NamedRuleWithOperations`), 'Operations and resources the policy matches.'),
};

export const groupVersion: GroupVersion = {
  group: GROUP,
  version: 'v1',
  resources: [
    resource('MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'),
    resource('ValidatingAdmissionPolicy', 'validatingadmissionpolicies', true),
    resource('ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings'),
    resource('ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'),
  ],
  definitions: {
    [`${A}MutatingWebhookConfiguration`]: kind(gvk('MutatingWebhookConfiguration'), {
      webhooks: mapList(ref(`${A}MutatingWebhook`), 'name', 'The webhooks and the resources and operations they act on.'),
    }, 'Admission webhooks that accept or reject and may change objects.'),
    [`${A}MutatingWebhookConfigurationList`]: listKind(gvk('MutatingWebhookConfigurationList'), `${A}MutatingWebhookConfiguration`),
    [`${A}ValidatingWebhookConfiguration`]: kind(gvk('ValidatingWebhookConfiguration'), {
      webhooks: mapList(ref(`${A}ValidatingWebhook`), 'name', 'The webhooks and the resources and operations they act on.'),
    }, 'Admission webhooks that accept or reject objects without changing them.'),
    [`${A}ValidatingWebhookConfigurationList`]: listKind(gvk('ValidatingWebhookConfigurationList'), `${A}ValidatingWebhookConfiguration`),
    [`${A}MutatingWebhook`]: obj({
      ...webhookProps,
      reinvocationPolicy: enumStr(['IfNeeded', 'Never'], 'Whether the webhook is called again when later plugins change the object; default Never.'),
    }, 'An admission webhook and the resources and operations it applies to.', { required: webhookRequired }),
    [`${A}ValidatingWebhook`]: obj(webhookProps, 'An admission webhook and the resources and operations it applies to.', { required: webhookRequired }),
    [`${A}WebhookClientConfig`]: obj({
      caBundle: bytes('PEM CA bundle used to validate the webhook\'s serving certificate; the system trust roots when unset.'),
      service: ref(`${A}ServiceReference`, 'The service of the webhook (one of url or service).'),
      url: str('The webhook\'s location as a URL (https://host:port/path).'),
    }, 'How to connect to the webhook.'),
    [`${A}ServiceReference`]: obj({
      name: str('The name of the service.'),
      namespace: str('The namespace of the service.'),
      path: str('URL path sent in requests to the service.'),
      port: int32('The port of the service the webhook listens on; default 443.'),
    }, 'A reference to a Service.', { required: ['namespace', 'name'] }),
    [`${A}RuleWithOperations`]: obj({ operations, ...ruleProps }, 'Operations and resources.'),
    [`${A}NamedRuleWithOperations`]: obj({
      operations,
      resourceNames: strings('Names of the resources the rule applies to; empty is all.'),
      ...ruleProps,
    }, 'Operations and resources with resource names.', { 'x-kubernetes-map-type': 'atomic' }),
    [`${A}MatchCondition`]: obj({
      expression: str('A CEL expression returning a bool.'),
      name: str('An identifier for the condition, used in errors and logs.'),
    }, 'A condition that must hold for a request to be sent to a webhook or policy.', { required: ['name', 'expression'] }),
    [`${A}ValidatingAdmissionPolicy`]: kind(gvk('ValidatingAdmissionPolicy'), {
      spec: ref(`${A}ValidatingAdmissionPolicySpec`, 'The desired behavior of the policy.'),
      status: ref(`${A}ValidatingAdmissionPolicyStatus`, 'The status of the policy, including warnings that are useful to determine if the policy behaves as expected.'),
    }, 'Validation of objects by CEL expressions, without a webhook.'),
    [`${A}ValidatingAdmissionPolicyList`]: listKind(gvk('ValidatingAdmissionPolicyList'), `${A}ValidatingAdmissionPolicy`),
    [`${A}ValidatingAdmissionPolicySpec`]: obj({
      auditAnnotations: arr(ref(`${A}AuditAnnotation`), 'Audit annotations the policy adds to the audit event.'),
      failurePolicy: enumStr(FAILURE_POLICY, 'How misconfigurations and CEL evaluation errors are handled; default Fail.'),
      matchConditions: mapList(ref(`${A}MatchCondition`), 'name', 'Conditions that must all hold for the request to be validated.'),
      matchConstraints: ref(`${A}MatchResources`, 'The resources the policy validates.'),
      paramKind: ref(`${A}ParamKind`, 'The kind of the resources used to parameterize the policy.'),
      validations: arr(ref(`${A}Validation`), 'The CEL expressions that validate the request.'),
      variables: mapList(ref(`${A}Variable`), 'name', 'Named CEL expressions usable in the other expressions as variables.NAME.'),
    }, 'The specification of a ValidatingAdmissionPolicy.'),
    [`${A}ValidatingAdmissionPolicyStatus`]: obj({
      conditions: mapList(ref(`${M}Condition`), 'type', 'The latest available observations of the policy\'s state.'),
      observedGeneration: int64('The generation observed by the controller.'),
      typeChecking: ref(`${A}TypeChecking`, 'The results of type checking each expression.'),
    }, 'The status of a ValidatingAdmissionPolicy.'),
    [`${A}TypeChecking`]: obj({
      expressionWarnings: arr(ref(`${A}ExpressionWarning`), 'The type checking warnings for each expression.'),
    }, 'The results of type checking the expressions of a policy.'),
    [`${A}ExpressionWarning`]: obj({
      fieldRef: str('The path to the field that refers to the expression.'),
      warning: str('The content of the type checking information.'),
    }, 'A warning targeting a specific expression.', { required: ['fieldRef', 'warning'] }),
    [`${A}ParamKind`]: obj({
      apiVersion: str('The API group/version of the parameter resource.'),
      kind: str('The kind of the parameter resource.'),
    }, 'A group, version and kind.', { 'x-kubernetes-map-type': 'atomic' }),
    [`${A}MatchResources`]: obj(matchResourcesProps, 'Which requests a policy or binding matches.', { 'x-kubernetes-map-type': 'atomic' }),
    [`${A}Validation`]: obj({
      expression: str('A CEL expression that must evaluate to true.'),
      message: str('The message shown when validation fails.'),
      messageExpression: str('A CEL expression whose string result is the message shown when validation fails.'),
      reason: str('The machine-readable reason of a failure (Unauthorized, Forbidden, Invalid, RequestEntityTooLarge); default Invalid.'),
    }, 'A CEL validation expression.', { required: ['expression'] }),
    [`${A}Variable`]: obj({
      expression: str('The CEL expression of the variable.'),
      name: str('The name of the variable, a valid CEL identifier.'),
    }, 'A named CEL expression.', { required: ['name', 'expression'], 'x-kubernetes-map-type': 'atomic' }),
    [`${A}AuditAnnotation`]: obj({
      key: str('The audit annotation key (combined with the policy name).'),
      valueExpression: str('A CEL expression evaluated to the annotation value (a string or null).'),
    }, 'An audit annotation produced by a policy.', { required: ['key', 'valueExpression'] }),
    [`${A}ValidatingAdmissionPolicyBinding`]: kind(gvk('ValidatingAdmissionPolicyBinding'), {
      spec: ref(`${A}ValidatingAdmissionPolicyBindingSpec`, 'The desired behavior of the binding.'),
    }, 'Binds a ValidatingAdmissionPolicy to parameters and scoping.'),
    [`${A}ValidatingAdmissionPolicyBindingList`]: listKind(gvk('ValidatingAdmissionPolicyBindingList'), `${A}ValidatingAdmissionPolicyBinding`),
    [`${A}ValidatingAdmissionPolicyBindingSpec`]: obj({
      matchResources: ref(`${A}MatchResources`, 'Further limits the resources the policy applies to.'),
      paramRef: ref(`${A}ParamRef`, 'The parameter resource(s) used to configure the policy.'),
      policyName: str('The name of the ValidatingAdmissionPolicy bound.'),
      validationActions: setOf(enumStr(['Audit', 'Deny', 'Warn']), 'How failed validations are enforced (Deny, Warn, Audit).'),
    }, 'The specification of a ValidatingAdmissionPolicyBinding.'),
    [`${A}ParamRef`]: obj({
      name: str('The name of the parameter resource.'),
      namespace: str('The namespace of the parameter resource (namespaced parameter kinds).'),
      parameterNotFoundAction: enumStr(['Allow', 'Deny'], 'What happens when no parameter matches; default Deny.'),
      selector: ref(`${M}LabelSelector`, 'Selects the parameter resources by label.'),
    }, 'How to find the parameter resources of a binding.', { 'x-kubernetes-map-type': 'atomic' }),
  },
  defaulters: {
    [`${A}MutatingWebhook`]: (o) => {
      defaultWebhook(o);
      o.reinvocationPolicy ??= 'Never';
    },
    [`${A}ValidatingWebhook`]: defaultWebhook,
    [`${A}RuleWithOperations`]: (o) => {
      o.scope ??= '*';
    },
    [`${A}NamedRuleWithOperations`]: (o) => {
      o.scope ??= '*';
    },
    [`${A}ServiceReference`]: (o) => {
      o.port ??= 443;
    },
    [`${A}ValidatingAdmissionPolicySpec`]: (o) => {
      o.failurePolicy ??= 'Fail';
    },
    [`${A}MatchResources`]: (o) => {
      o.matchPolicy ??= 'Equivalent';
      o.namespaceSelector ??= {};
      o.objectSelector ??= {};
    },
    [`${A}ParamRef`]: (o) => {
      o.parameterNotFoundAction ??= 'Deny';
    },
  },
};

/** Upstream's SetDefaults_{Validating,Mutating}Webhook (1.32: sideEffects and admissionReviewVersions are required, not defaulted). */
function defaultWebhook(o: Record<string, any>): void {
  o.failurePolicy ??= 'Fail';
  o.matchPolicy ??= 'Equivalent';
  o.namespaceSelector ??= {};
  o.objectSelector ??= {};
  o.timeoutSeconds ??= 10;
}
