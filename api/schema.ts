// The schema language of api/: OpenAPI v3 schema objects, as Kubernetes publishes them.
// One definition per upstream type, keyed by its upstream name ("io.k8s.api.core.v1.PodSpec").
// The same objects drive ajv validation, defaulting, unknown-field detection, strategic merge
// (x-kubernetes-patch-*), server-side apply (x-kubernetes-list-*) and /openapi/v3.

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  'x-kubernetes-group-version-kind'?: GroupVersionKind[];
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

/** Definitions of one group-version (or of meta/v1), keyed by upstream name. */
export type Definitions = Record<string, Schema>;

export const REF_PREFIX = '#/components/schemas/';

/** The property `key` of `s`, own only: a key from a client ("__proto__", "constructor") never finds an inherited one. */
export const propertyOf = <S extends { properties?: Record<string, S> }>(s: S | undefined, key: string): S | undefined =>
  (s?.properties && Object.hasOwn(s.properties, key) ? s.properties[key] : undefined);

/** The name a $ref points at. */
export const refName = (s: Schema): string | undefined =>
  s.$ref?.startsWith(REF_PREFIX) ? s.$ref.slice(REF_PREFIX.length) : undefined;

// ---- builders: keep definition files short and readable ----

type Extra = Omit<Schema, 'type'>;

export const ref = (name: string, description?: string): Schema =>
  description ? { allOf: [{ $ref: REF_PREFIX + name }], description } : { $ref: REF_PREFIX + name };
/**
 * The one reference to each definition, for the runtime's walks: their memos are keyed by schema node, so a fresh
 * `ref()` per request missed them all and left a WeakMap entry behind for the collector. Frozen: it is shared.
 */
const definitionRefs = new Map<string, Schema>();
export const refTo = (name: string): Schema => {
  let r = definitionRefs.get(name);
  if (!r) definitionRefs.set(name, (r = Object.freeze(ref(name))));
  return r;
};
export const str = (description?: string, extra: Extra = {}): Schema => ({ type: 'string', description, ...extra });
export const enumStr = (values: string[], description?: string, extra: Extra = {}): Schema =>
  ({ type: 'string', enum: values, description, ...extra });
export const int32 = (description?: string, extra: Extra = {}): Schema =>
  ({ type: 'integer', format: 'int32', description, ...extra });
export const int64 = (description?: string, extra: Extra = {}): Schema =>
  ({ type: 'integer', format: 'int64', description, ...extra });
export const num = (description?: string, extra: Extra = {}): Schema =>
  ({ type: 'number', format: 'double', description, ...extra });
export const bool = (description?: string, extra: Extra = {}): Schema => ({ type: 'boolean', description, ...extra });
export const bytes = (description?: string): Schema => ({ type: 'string', format: 'byte', description });
export const strMap = (description?: string, extra: Extra = {}): Schema =>
  ({ type: 'object', additionalProperties: { type: 'string', default: '' }, description, ...extra });
export const mapOf = (value: Schema, description?: string, extra: Extra = {}): Schema =>
  ({ type: 'object', additionalProperties: value, description, ...extra });
export const obj = (properties: Record<string, Schema>, description?: string, extra: Extra = {}): Schema =>
  ({ type: 'object', properties, description, ...extra });
/** A free-form object (runtime.RawExtension, JSON): anything goes, nothing is pruned. */
export const anyObj = (description?: string): Schema =>
  ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description });

/** An atomic list: replaced whole by every patch. */
export const arr = (items: Schema, description?: string, extra: Extra = {}): Schema =>
  ({ type: 'array', items, description, 'x-kubernetes-list-type': 'atomic', ...extra });
/** A set of scalars: merged as a union by strategic merge and apply. */
export const setOf = (items: Schema, description?: string, extra: Extra = {}): Schema =>
  ({ type: 'array', items, description, 'x-kubernetes-list-type': 'set', ...extra });
/**
 * A list of objects merged by key (strategic merge key `mergeKey`; apply keys `mapKeys`,
 * which default to the merge key).
 */
export const mapList = (items: Schema, mergeKey: string, description?: string, extra: Extra & { mapKeys?: string[]; strategy?: string } = {}): Schema => {
  const { mapKeys, strategy, ...rest } = extra;
  return {
    type: 'array', items, description,
    'x-kubernetes-patch-merge-key': mergeKey,
    'x-kubernetes-patch-strategy': strategy ?? 'merge',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': mapKeys ?? [mergeKey],
    ...rest,
  };
};

/** A top-level kind: apiVersion, kind and metadata come first, as upstream prints them. */
export const kind = (gvk: GroupVersionKind, properties: Record<string, Schema>, description?: string, extra: Extra = {}): Schema => ({
  type: 'object',
  description,
  properties: {
    apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
    kind: str('Kind is a string value representing the REST resource this object represents.'),
    metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', "Standard object's metadata."),
    ...properties,
  },
  'x-kubernetes-group-version-kind': [gvk],
  ...extra,
});

/** The list kind of a resource (FooList with items of Foo). */
export const listKind = (gvk: GroupVersionKind, itemDefinition: string): Schema => ({
  type: 'object',
  description: `${gvk.kind} is a list of ${gvk.kind.replace(/List$/, '')} objects.`,
  required: ['items'],
  properties: {
    apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
    items: { type: 'array', items: ref(itemDefinition), description: 'List of objects.' },
    kind: str('Kind is a string value representing the REST resource this object represents.'),
    metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', "Standard list metadata."),
  },
  'x-kubernetes-group-version-kind': [gvk],
});
