// The types upstream declares for two variables of admission expressions (apiserver/pkg/admission/plugin/cel/
// compile.go: BuildRequestType, BuildNamespaceType), as schemas the checker reads: `request` is a
// kubernetes.AdmissionRequest and `namespaceObject` a kubernetes.Namespace, objects with exactly these fields, so
// `request.foo` is an undefined field and `request.operation > 1` has no overload. object, oldObject and params
// stay dyn when a policy is written.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';

const STRING: JSONSchemaProps = { type: 'string' };
const INT: JSONSchemaProps = { type: 'integer' };
/** A timestamp: a type the checker leaves dynamic. */
const TIMESTAMP: JSONSchemaProps = { type: 'string', format: 'date-time' };
const STRINGS: JSONSchemaProps = { type: 'array', items: STRING };
const STRING_MAP: JSONSchemaProps = { type: 'object', additionalProperties: STRING };
const object = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties });

const GVK = object({ group: STRING, version: STRING, kind: STRING });
const GVR = object({ group: STRING, version: STRING, resource: STRING });

export const ADMISSION_REQUEST_TYPE: JSONSchemaProps = object({
  kind: GVK, resource: GVR, subResource: STRING, requestKind: GVK, requestResource: GVR, requestSubResource: STRING,
  name: STRING, namespace: STRING, operation: STRING,
  userInfo: object({ username: STRING, uid: STRING, groups: STRINGS, extra: { type: 'object', additionalProperties: STRINGS } }),
  dryRun: { type: 'boolean' },
  options: { 'x-kubernetes-preserve-unknown-fields': true },
});

export const NAMESPACE_TYPE: JSONSchemaProps = object({
  metadata: object({
    name: STRING, generateName: STRING, namespace: STRING, labels: STRING_MAP, annotations: STRING_MAP,
    // upstream spells the uid field this way in the declared type
    UID: STRING, creationTimestamp: TIMESTAMP, deletionGracePeriodSeconds: INT, deletionTimestamp: TIMESTAMP,
    generation: INT, resourceVersion: STRING, finalizers: STRINGS,
  }),
  spec: object({ finalizers: STRINGS }),
  status: object({
    conditions: { type: 'array', items: object({ status: STRING, type: STRING, lastTransitionTime: TIMESTAMP, message: STRING, reason: STRING }) },
    phase: STRING,
  }),
});
