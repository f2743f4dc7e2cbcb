// Protobuf field numbers of admissionregistration.k8s.io/v1 messages, by definition name. From
// upstream's generated.proto and types.go json tags (v0.32); see ./index.ts.
import type { ProtoFields } from './types.js';

const A = 'io.k8s.api.admissionregistration.v1.';

export const admissionregistrationV1: ProtoFields = {
  [`${A}AuditAnnotation`]: { 1: 'key*', 2: 'valueExpression*' },
  [`${A}ExpressionWarning`]: { 2: 'fieldRef*', 3: 'warning*' },
  [`${A}MatchCondition`]: { 1: 'name*', 2: 'expression*' },
  [`${A}MatchResources`]: { 1: 'namespaceSelector', 2: 'objectSelector', 3: 'resourceRules', 4: 'excludeResourceRules', 7: 'matchPolicy*' },
  [`${A}MutatingWebhook`]: {
    1: 'name*', 2: 'clientConfig', 3: 'rules', 4: 'failurePolicy*', 5: 'namespaceSelector*', 6: 'sideEffects*', 7: 'timeoutSeconds*',
    8: 'admissionReviewVersions', 9: 'matchPolicy*', 10: 'reinvocationPolicy*', 11: 'objectSelector*', 12: 'matchConditions',
  },
  [`${A}MutatingWebhookConfiguration`]: { 1: 'metadata', 2: 'webhooks' },
  [`${A}MutatingWebhookConfigurationList`]: { 1: 'metadata', 2: 'items' },
  [`${A}NamedRuleWithOperations`]: { 1: 'resourceNames', 2: { inline: `${A}RuleWithOperations` } },
  [`${A}ParamKind`]: { 1: 'apiVersion', 2: 'kind' },
  [`${A}ParamRef`]: { 1: 'name', 2: 'namespace', 3: 'selector', 4: 'parameterNotFoundAction*' },
  [`${A}Rule`]: { 1: 'apiGroups', 2: 'apiVersions', 3: 'resources', 4: 'scope*' },
  [`${A}RuleWithOperations`]: { 1: 'operations', 2: { inline: `${A}Rule` } },
  [`${A}ServiceReference`]: { 1: 'namespace*', 2: 'name*', 3: 'path*', 4: 'port*' },
  [`${A}TypeChecking`]: { 1: 'expressionWarnings' },
  [`${A}ValidatingAdmissionPolicy`]: { 1: 'metadata', 2: 'spec', 3: 'status' },
  [`${A}ValidatingAdmissionPolicyBinding`]: { 1: 'metadata', 2: 'spec' },
  [`${A}ValidatingAdmissionPolicyBindingList`]: { 1: 'metadata', 2: 'items' },
  [`${A}ValidatingAdmissionPolicyBindingSpec`]: { 1: 'policyName', 2: 'paramRef', 3: 'matchResources', 4: 'validationActions' },
  [`${A}ValidatingAdmissionPolicyList`]: { 1: 'metadata', 2: 'items' },
  [`${A}ValidatingAdmissionPolicySpec`]: {
    1: 'paramKind', 2: 'matchConstraints', 3: 'validations', 4: 'failurePolicy*', 5: 'auditAnnotations', 6: 'matchConditions', 7: 'variables',
  },
  [`${A}ValidatingAdmissionPolicyStatus`]: { 1: 'observedGeneration', 2: 'typeChecking', 3: 'conditions' },
  [`${A}ValidatingWebhook`]: {
    1: 'name*', 2: 'clientConfig', 3: 'rules', 4: 'failurePolicy*', 5: 'namespaceSelector*', 6: 'sideEffects*', 7: 'timeoutSeconds*',
    8: 'admissionReviewVersions', 9: 'matchPolicy*', 10: 'objectSelector*', 11: 'matchConditions',
  },
  [`${A}ValidatingWebhookConfiguration`]: { 1: 'metadata', 2: 'webhooks' },
  [`${A}ValidatingWebhookConfigurationList`]: { 1: 'metadata', 2: 'items' },
  [`${A}Validation`]: { 1: 'expression*', 2: 'message', 3: 'reason*', 4: 'messageExpression' },
  [`${A}Variable`]: { 1: 'name*', 2: 'expression*' },
  [`${A}WebhookClientConfig`]: { 1: 'service', 2: 'caBundle', 3: 'url*' },
};
