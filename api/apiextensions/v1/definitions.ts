// The OpenAPI definitions of apiextensions.k8s.io/v1, named as upstream publishes them
// (io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.*).
import { arr, bool, enumStr, int32, int64, kind, listKind, mapList, mapOf, num, obj, ref, str, type Definitions, type Schema } from '../../schema.js';

export const X = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const gvk = (k: string) => ({ group: 'apiextensions.k8s.io', version: 'v1', kind: k });
const props = (description: string): Schema => ref(`${X}JSONSchemaProps`, description);
const strList = (description: string): Schema => arr(str(), description);

const jsonSchemaProps: Schema = obj({
  $ref: str(),
  $schema: str(),
  additionalItems: ref(`${X}JSONSchemaPropsOrBool`),
  additionalProperties: ref(`${X}JSONSchemaPropsOrBool`),
  allOf: arr(props('')),
  anyOf: arr(props('')),
  default: ref(`${X}JSON`, 'default is a default value for undefined object fields. Defaulting is a beta feature under the CustomResourceDefaulting feature gate. Defaulting requires spec.preserveUnknownFields to be false.'),
  definitions: mapOf(props('')),
  dependencies: mapOf(ref(`${X}JSONSchemaPropsOrStringArray`)),
  description: str(),
  enum: arr(ref(`${X}JSON`)),
  example: ref(`${X}JSON`),
  exclusiveMaximum: bool(),
  exclusiveMinimum: bool(),
  externalDocs: ref(`${X}ExternalDocumentation`),
  format: str('format is an OpenAPI v3 format string. Unknown formats are ignored. The following formats are validated: bsonobjectid, uri, email, hostname, ipv4, ipv6, cidr, mac, uuid, uuid3, uuid4, uuid5, isbn, isbn10, isbn13, creditcard, ssn, hexcolor, rgbcolor, byte, password, date, duration, datetime.'),
  id: str(),
  items: ref(`${X}JSONSchemaPropsOrArray`),
  maxItems: int64(),
  maxLength: int64(),
  maxProperties: int64(),
  maximum: num(),
  minItems: int64(),
  minLength: int64(),
  minProperties: int64(),
  minimum: num(),
  multipleOf: num(),
  not: props(''),
  nullable: bool(),
  oneOf: arr(props('')),
  pattern: str(),
  patternProperties: mapOf(props('')),
  properties: mapOf(props('')),
  required: arr(str()),
  title: str(),
  type: str(),
  uniqueItems: bool(),
  'x-kubernetes-embedded-resource': bool('x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object, with TypeMeta and ObjectMeta. The type must be object. It is allowed to further restrict the embedded object. kind, apiVersion and metadata are validated automatically. x-kubernetes-preserve-unknown-fields is allowed to be true, but does not have to be if the object is fully specified (up to kind, apiVersion, metadata).'),
  'x-kubernetes-int-or-string': bool('x-kubernetes-int-or-string specifies that this value is either an integer or a string. If this is true, an empty type is allowed and type as child of anyOf is permitted if following one of the following patterns: 1) anyOf: - type: integer - type: string 2) allOf: - anyOf: - type: integer - type: string - ... zero or more'),
  'x-kubernetes-list-map-keys': arr(str(), 'x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map.'),
  'x-kubernetes-list-type': str('x-kubernetes-list-type annotates an array to further describe its topology: atomic, set or map.'),
  'x-kubernetes-map-type': str('x-kubernetes-map-type annotates an object to further describe its topology: granular or atomic.'),
  'x-kubernetes-preserve-unknown-fields': bool('x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema.'),
  'x-kubernetes-validations': mapList(ref(`${X}ValidationRule`), 'rule', 'x-kubernetes-validations describes a list of validation rules written in the CEL expression language.', { strategy: 'merge' }),
}, 'JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).');

export const definitions: Definitions = {
  [`${X}CustomResourceDefinition`]: kind(gvk('CustomResourceDefinition'), {
    spec: ref(`${X}CustomResourceDefinitionSpec`, 'spec describes how the user wants the resources to appear'),
    status: ref(`${X}CustomResourceDefinitionStatus`, 'status indicates the actual state of the CustomResourceDefinition'),
  }, 'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.', { required: ['spec'] }),
  [`${X}CustomResourceDefinitionList`]: listKind(gvk('CustomResourceDefinitionList'), `${X}CustomResourceDefinition`),
  [`${X}CustomResourceDefinitionSpec`]: obj({
    conversion: ref(`${X}CustomResourceConversion`, 'conversion defines conversion settings for the CRD.'),
    group: str('group is the API group of the defined custom resource. The custom resources are served under `/apis/<group>/...`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).'),
    names: ref(`${X}CustomResourceDefinitionNames`, 'names specify the resource and kind names for the custom resource.'),
    preserveUnknownFields: bool('preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage.'),
    scope: str('scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.'),
    versions: arr(ref(`${X}CustomResourceDefinitionVersion`), 'versions is the list of all API versions of the defined custom resource.'),
  }, 'CustomResourceDefinitionSpec describes how a user wants their resource to appear', { required: ['group', 'names', 'scope', 'versions'] }),
  [`${X}CustomResourceDefinitionNames`]: obj({
    categories: strList('categories is a list of grouped resources this custom resource belongs to (e.g. \'all\'). This is published in API discovery documents, and used by clients to support invocations like `kubectl get all`.'),
    kind: str('kind is the serialized kind of the resource. It is normally CamelCase and singular. Custom resource instances will use this value as the `kind` attribute in API calls.'),
    listKind: str('listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".'),
    plural: str('plural is the plural name of the resource to serve. The custom resources are served under `/apis/<group>/<version>/.../<plural>`. Must all be lowercase.'),
    shortNames: strList('shortNames are short names for the resource, exposed in API discovery documents, and used by clients to support invocations like `kubectl get <shortname>`. It must be all lowercase.'),
    singular: str('singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.'),
  }, 'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition', { required: ['plural', 'kind'] }),
  [`${X}CustomResourceDefinitionVersion`]: obj({
    additionalPrinterColumns: arr(ref(`${X}CustomResourceColumnDefinition`), 'additionalPrinterColumns specifies additional columns returned in Table output. If no columns are specified, a single column displaying the age of the custom resource is used.'),
    deprecated: bool('deprecated indicates this version of the custom resource API is deprecated.'),
    deprecationWarning: str('deprecationWarning overrides the default warning returned to API clients.'),
    name: str('name is the version name, e.g. “v1”, “v2beta1”, etc. The custom resources are served under this version at `/apis/<group>/<version>/...` if `served` is true.'),
    schema: ref(`${X}CustomResourceValidation`, 'schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.'),
    selectableFields: arr(ref(`${X}SelectableField`), 'selectableFields specifies paths to fields that may be used as field selectors. A maximum of 8 selectable fields are allowed.'),
    served: bool('served is a flag enabling/disabling this version from being served via REST APIs'),
    storage: bool('storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.'),
    subresources: ref(`${X}CustomResourceSubresources`, 'subresources specify what subresources this version of the defined custom resource have.'),
  }, 'CustomResourceDefinitionVersion describes a version for CRD.', { required: ['name', 'served', 'storage'] }),
  [`${X}CustomResourceColumnDefinition`]: obj({
    description: str('description is a human readable description of this column.'),
    format: str('format is an optional OpenAPI type definition for this column. The \'name\' format is applied to the primary identifier column to assist in clients identifying column is the resource name.'),
    jsonPath: str('jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.'),
    name: str('name is a human readable name for the column.'),
    priority: int32('priority is an integer defining the relative importance of this column compared to others. Lower numbers are considered higher priority.'),
    type: str('type is an OpenAPI type definition for this column.'),
  }, 'CustomResourceColumnDefinition specifies a column for server side printing.', { required: ['name', 'type', 'jsonPath'] }),
  [`${X}SelectableField`]: obj({
    jsonPath: str('jsonPath is a simple JSON path which is evaluated against each custom resource to produce a field selector value.'),
  }, 'SelectableField specifies the JSON path of a field that may be used with field selectors.', { required: ['jsonPath'] }),
  [`${X}CustomResourceValidation`]: obj({
    openAPIV3Schema: props('openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.'),
  }, 'CustomResourceValidation is a list of validation methods for CustomResources.'),
  [`${X}CustomResourceSubresources`]: obj({
    scale: ref(`${X}CustomResourceSubresourceScale`, 'scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.'),
    status: ref(`${X}CustomResourceSubresourceStatus`, 'status indicates the custom resource should serve a `/status` subresource.'),
  }, 'CustomResourceSubresources defines the status and scale subresources for CustomResources.'),
  [`${X}CustomResourceSubresourceStatus`]: {
    type: 'object',
    description: 'CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources. Status is represented by the `.status` JSON path inside of a CustomResource.',
  },
  [`${X}CustomResourceSubresourceScale`]: obj({
    labelSelectorPath: str('labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`.'),
    specReplicasPath: str('specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`.'),
    statusReplicasPath: str('statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`.'),
  }, 'CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.', { required: ['specReplicasPath', 'statusReplicasPath'] }),
  [`${X}CustomResourceConversion`]: obj({
    strategy: str('strategy specifies how custom resources are converted between versions. Allowed values are: - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `"Webhook"`: API Server will call to an external webhook to do the conversion.'),
    webhook: ref(`${X}WebhookConversion`, 'webhook describes how to call the conversion webhook. Required when `strategy` is set to `"Webhook"`.'),
  }, 'CustomResourceConversion describes how to convert different versions of a CR.', { required: ['strategy'] }),
  [`${X}WebhookConversion`]: obj({
    clientConfig: ref(`${X}WebhookClientConfig`, 'clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.'),
    conversionReviewVersions: arr(str(), 'conversionReviewVersions is an ordered list of preferred `ConversionReview` versions the Webhook expects.'),
  }, 'WebhookConversion describes how to call a conversion webhook', { required: ['conversionReviewVersions'] }),
  [`${X}WebhookClientConfig`]: obj({
    caBundle: { type: 'string', format: 'byte', description: 'caBundle is a PEM encoded CA bundle which will be used to validate the webhook\'s server certificate. If unspecified, system trust roots on the apiserver are used.' },
    service: ref(`${X}ServiceReference`, 'service is a reference to the service for this webhook. Either service or url must be specified.'),
    url: str('url gives the location of the webhook, in standard URL form (`scheme://host:port/path`). Exactly one of `url` or `service` must be specified.'),
  }, 'WebhookClientConfig contains the information to make a TLS connection with the webhook.'),
  [`${X}ServiceReference`]: obj({
    name: str('name is the name of the service. Required'),
    namespace: str('namespace is the namespace of the service. Required'),
    path: str('path is an optional URL path at which the webhook will be contacted.'),
    port: int32('port is an optional service port at which the webhook will be contacted. `port` should be a valid port number (1-65535, inclusive). Defaults to 443 for backward compatibility.'),
  }, 'ServiceReference holds a reference to Service.legacy.k8s.io', { required: ['namespace', 'name'] }),
  [`${X}CustomResourceDefinitionStatus`]: obj({
    acceptedNames: ref(`${X}CustomResourceDefinitionNames`, 'acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.'),
    conditions: mapList(ref(`${X}CustomResourceDefinitionCondition`), 'type', 'conditions indicate state for particular aspects of a CustomResourceDefinition'),
    storedVersions: arr(str(), 'storedVersions lists all versions of CustomResources that were ever persisted. Tracking these versions allows a migration path for stored versions in etcd.'),
  }, 'CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition'),
  [`${X}CustomResourceDefinitionCondition`]: obj({
    lastTransitionTime: ref(`${M}Time`, 'lastTransitionTime last time the condition transitioned from one status to another.'),
    message: str('message is a human-readable message indicating details about last transition.'),
    reason: str('reason is a unique, one-word, CamelCase reason for the condition\'s last transition.'),
    status: enumStr(['True', 'False', 'Unknown'], 'status is the status of the condition. Can be True, False, Unknown.'),
    type: str('type is the type of the condition. Types include Established, NamesAccepted and Terminating.'),
  }, 'CustomResourceDefinitionCondition contains details for the current condition of this pod.', { required: ['type', 'status'] }),
  [`${X}ExternalDocumentation`]: obj({ description: str(), url: str() }, 'ExternalDocumentation allows referencing an external resource for extended documentation.'),
  [`${X}JSON`]: { description: 'JSON represents any valid JSON value. These types are supported: bool, int64, float64, string, []interface{}, map[string]interface{} and nil.' },
  [`${X}JSONSchemaPropsOrArray`]: { description: 'JSONSchemaPropsOrArray represents a value that can either be a JSONSchemaProps or an array of JSONSchemaProps. Mainly here for serialization purposes.' },
  [`${X}JSONSchemaPropsOrBool`]: { description: 'JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value. Defaults to true for the boolean property.' },
  [`${X}JSONSchemaPropsOrStringArray`]: { description: 'JSONSchemaPropsOrStringArray represents a JSONSchemaProps or a string array.' },
  [`${X}JSONSchemaProps`]: jsonSchemaProps,
  [`${X}ValidationRule`]: obj({
    fieldPath: str('fieldPath represents the field path returned when the validation fails. It must be a relative JSON path (i.e. with array notation) scoped to the location of this x-kubernetes-validations extension in the schema and refer to an existing field.'),
    message: str('Message represents the message displayed when validation fails.'),
    messageExpression: str('MessageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails.'),
    optionalOldSelf: bool('optionalOldSelf is used to opt a transition rule into evaluation even when the object is first created, or if the old object is missing the value.'),
    reason: enumStr(['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'], 'reason provides a machine-readable validation failure reason that is returned to the caller when a request fails this validation rule.'),
    rule: str('Rule represents the expression which will be evaluated by CEL.'),
  }, 'ValidationRule describes a validation rule written in the CEL expression language.', { required: ['rule'] }),
  // The ConversionReview webhooks speak; not served, published for clients.
  [`${X}ConversionReview`]: kind(gvk('ConversionReview'), {
    request: ref(`${X}ConversionRequest`, 'request describes the attributes for the conversion request.'),
    response: ref(`${X}ConversionResponse`, 'response describes the attributes for the conversion response.'),
  }, 'ConversionReview describes a conversion request/response.'),
  [`${X}ConversionRequest`]: obj({
    desiredAPIVersion: str('desiredAPIVersion is the version to convert given objects to. e.g. "myapi.example.com/v1"'),
    objects: arr(ref(`${X}JSON`), 'objects is the list of custom resource objects to be converted.'),
    uid: str('uid is an identifier for the individual request/response.'),
  }, 'ConversionRequest describes the conversion request parameters.', { required: ['uid', 'desiredAPIVersion', 'objects'] }),
  [`${X}ConversionResponse`]: obj({
    convertedObjects: arr(ref(`${X}JSON`), 'convertedObjects is the list of converted version of `request.objects` if the `result` is successful, otherwise empty.'),
    result: ref(`${M}Status`, 'result contains the result of conversion with extra details if the conversion failed.'),
    uid: str('uid is an identifier for the individual request/response.'),
  }, 'ConversionResponse describes a conversion response.', { required: ['uid', 'convertedObjects', 'result'] }),
};
