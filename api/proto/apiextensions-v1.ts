// Protobuf field numbers of apiextensions.k8s.io/v1 messages, by definition name; see ./index.ts. JSON,
// JSONSchemaPropsOrBool, JSONSchemaPropsOrArray and JSONSchemaPropsOrStringArray have their own
// encoding (pkg/apimachinery/protobuf knows them by name).
import type { ProtoFields } from './types.js';

const X = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';

export const apiextensionsV1: ProtoFields = {
  [`${X}CustomResourceDefinition`]: { 1: 'metadata', 2: 'spec', 3: 'status' },
  [`${X}CustomResourceDefinitionList`]: { 1: 'metadata', 2: 'items' },
  [`${X}CustomResourceDefinitionSpec`]: { 1: 'group*', 3: 'names', 4: 'scope*', 7: 'versions', 9: 'conversion', 10: 'preserveUnknownFields' },
  [`${X}CustomResourceDefinitionNames`]: { 1: 'plural*', 2: 'singular', 3: 'shortNames', 4: 'kind*', 5: 'listKind', 6: 'categories' },
  [`${X}CustomResourceDefinitionVersion`]: {
    1: 'name*', 2: 'served*', 3: 'storage*', 4: 'schema', 5: 'subresources', 6: 'additionalPrinterColumns', 7: 'deprecated',
    8: 'deprecationWarning*', 9: 'selectableFields',
  },
  [`${X}CustomResourceColumnDefinition`]: { 1: 'name*', 2: 'type*', 3: 'format', 4: 'description', 5: 'priority', 6: 'jsonPath*' },
  [`${X}SelectableField`]: { 1: 'jsonPath*' },
  [`${X}CustomResourceValidation`]: { 1: 'openAPIV3Schema' },
  [`${X}CustomResourceSubresources`]: { 1: 'status', 2: 'scale' },
  [`${X}CustomResourceSubresourceStatus`]: {},
  [`${X}CustomResourceSubresourceScale`]: { 1: 'specReplicasPath*', 2: 'statusReplicasPath*', 3: 'labelSelectorPath*' },
  [`${X}CustomResourceConversion`]: { 1: 'strategy*', 2: 'webhook' },
  [`${X}WebhookConversion`]: { 2: 'clientConfig', 3: 'conversionReviewVersions' },
  [`${X}WebhookClientConfig`]: { 1: 'service', 2: 'caBundle', 3: 'url*' },
  [`${X}ServiceReference`]: { 1: 'namespace*', 2: 'name*', 3: 'path*', 4: 'port*' },
  [`${X}CustomResourceDefinitionStatus`]: { 1: 'conditions', 2: 'acceptedNames', 3: 'storedVersions' },
  [`${X}CustomResourceDefinitionCondition`]: { 1: 'type*', 2: 'status*', 3: 'lastTransitionTime', 4: 'reason', 5: 'message' },
  [`${X}ExternalDocumentation`]: { 1: 'description', 2: 'url' },
  [`${X}ValidationRule`]: { 1: 'rule*', 2: 'message', 3: 'messageExpression', 4: 'reason*', 5: 'fieldPath', 6: 'optionalOldSelf*' },
  [`${X}JSONSchemaProps`]: {
    1: 'id', 2: '$schema', 3: '$ref', 4: 'description', 5: 'type', 6: 'format', 7: 'title', 8: 'default', 9: 'maximum*',
    10: 'exclusiveMaximum', 11: 'minimum*', 12: 'exclusiveMinimum', 13: 'maxLength*', 14: 'minLength*', 15: 'pattern',
    16: 'maxItems*', 17: 'minItems*', 18: 'uniqueItems', 19: 'multipleOf*', 20: 'enum', 21: 'maxProperties*',
    22: 'minProperties*', 23: 'required', 24: 'items', 25: 'allOf', 26: 'oneOf', 27: 'anyOf', 28: 'not', 29: 'properties',
    30: 'additionalProperties*', 31: 'patternProperties', 32: 'dependencies', 33: 'additionalItems*', 34: 'definitions',
    35: 'externalDocs', 36: 'example', 37: 'nullable', 38: 'x-kubernetes-preserve-unknown-fields*',
    39: 'x-kubernetes-embedded-resource', 40: 'x-kubernetes-int-or-string', 41: 'x-kubernetes-list-map-keys',
    42: 'x-kubernetes-list-type*', 43: 'x-kubernetes-map-type*', 44: 'x-kubernetes-validations',
  },
};
