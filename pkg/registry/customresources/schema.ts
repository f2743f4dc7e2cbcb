// A CustomResourceDefinition's version as the schema language of api/: the definitions a custom resource's
// kind and list publish (named by the reversed group, as upstream: com.example.stable.v1.CronTab), the
// structural schema per version, and the field paths of errors.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { listKind, propertyOf, ref, str, type Definitions, type Schema } from '../../../api/schema.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** Upstream's definition name of a custom kind: the group's labels reversed, then version and kind. */
export const definitionName = (group: string, version: string, kind: string): string =>
  `${group.split('.').reverse().join('.')}.${version}.${kind}`;

/**
 * The published schema of the kind: the CRD's openAPIV3Schema with apiVersion, kind and metadata (ObjectMeta)
 * set as upstream publishes them, and the kind's GVK. A missing schema is an object that keeps everything.
 */
export function kindSchema(props: JSONSchemaProps | undefined, group: string, version: string, kind: string): Schema {
  const root = (props ? structuredClone(props) : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as Schema & Record<string, unknown>;
  root.type ??= 'object';
  root.properties = {
    apiVersion: str('APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources'),
    kind: str('Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'),
    metadata: ref(`${META}ObjectMeta`, "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"),
    ...Object.fromEntries(Object.entries(root.properties ?? {}).filter(([k]) => k !== 'metadata' && k !== 'apiVersion' && k !== 'kind')),
  };
  root['x-kubernetes-group-version-kind'] = [{ group, version, kind }];
  return root;
}

/**
 * The kind's and list's definitions for one version; `published`: as OpenAPI serves them, unfolded as upstream's
 * builder does (an int-or-string is `anyOf` integer or string, an embedded resource has apiVersion, kind and metadata),
 * and with the selectable fields, so that `kubectl explain` and clients see them as on a cluster.
 */
export function versionDefinitions(props: JSONSchemaProps | undefined, group: string, version: string, kind: string, listKindName: string, published?: Published): Definitions {
  const def = definitionName(group, version, kind);
  const schema = kindSchema(props, group, version, kind);
  return {
    [def]: published ? publishedSchema(schema, published) : schema,
    [definitionName(group, version, listKindName)]: listKind({ group, version, kind: listKindName }, def),
  };
}

/** What only the published schema carries. */
export interface Published {
  /** The version's selectableFields, as `x-kubernetes-selectable-fields` (fieldPath without the leading dot). */
  selectableFields?: { jsonPath: string }[];
}

function publishedSchema(schema: Schema, { selectableFields }: Published): Schema {
  const out = unfolded(schema as Record<string, unknown>, true);
  if (selectableFields?.length) out['x-kubernetes-selectable-fields'] = selectableFields.map((f) => ({ fieldPath: f.jsonPath.replace(/^\./, '') }));
  return out as Schema;
}

const INT_OR_STRING = [{ type: 'integer' }, { type: 'string' }];

/** `s` and its subschemas unfolded for publishing (upstream's Structural.Unfold and addEmbeddedProperties). */
function unfolded(s: Record<string, unknown>, root = false): Record<string, unknown> {
  const out: Record<string, unknown> = { ...s };
  const props = s.properties as Record<string, Record<string, unknown>> | undefined;
  if (props) out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, root && k === 'metadata' ? v : unfolded(v)]));
  if (isObject(s.items)) out.items = unfolded(s.items);
  if (isObject(s.additionalProperties)) out.additionalProperties = unfolded(s.additionalProperties);
  if (s['x-kubernetes-int-or-string'] === true && !intOrStringPattern(s)) {
    if (!s.anyOf) out.anyOf = INT_OR_STRING;
    else out.allOf = [{ anyOf: INT_OR_STRING }, ...((s.allOf as unknown[] | undefined) ?? [])];
  }
  if (s['x-kubernetes-embedded-resource'] === true) {
    out.properties = {
      ...(out.properties as object | undefined),
      apiVersion: str('apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources'),
      kind: str('kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'),
      metadata: ref(`${META}ObjectMeta`, "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"),
    };
    const required = (s.required as string[] | undefined) ?? [];
    out.required = [...required, ...['kind', 'apiVersion'].filter((k) => !required.includes(k))];
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The int-or-string's own anyOf (exactly integer, string), directly or as the first allOf: left as written. */
function intOrStringPattern(s: Record<string, unknown>): boolean {
  const only = (x: unknown, type: string): boolean => isObject(x) && x.type === type && Object.keys(x).length === 1;
  const isPair = (a: unknown): boolean => Array.isArray(a) && a.length === 2 && only(a[0], 'integer') && only(a[1], 'string');
  const allOf = s.allOf as Record<string, unknown>[] | undefined;
  return isPair(s.anyOf) || (Array.isArray(allOf) && allOf.length > 0 && isPair(allOf[0]!.anyOf));
}

/** Removes `required` everywhere: the custom resource validator reports missing fields itself. */
export function withoutRequired(s: Schema): Schema {
  return JSON.parse(JSON.stringify(s), (k, v: unknown) => (k === 'required' && Array.isArray(v) ? undefined : v)) as Schema;
}

/** "/spec/list/0/name" (a JSON pointer) as upstream prints a field path: "spec.list[0].name". */
export function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, t) => (/^\d+$/.test(t) ? `${acc}[${t}]` : acc ? `${acc}.${t}` : t), '');
}

export const childPath = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** The schema of a property, following structural rules (properties, then additionalProperties). */
export function propertySchema(s: JSONSchemaProps | undefined, key: string): JSONSchemaProps | undefined {
  if (!s) return undefined;
  const own = propertyOf(s, key);
  if (own) return own;
  if (typeof s.additionalProperties === 'object') return s.additionalProperties;
  return undefined;
}

export function itemSchema(s: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  if (!s?.items) return undefined;
  return Array.isArray(s.items) ? s.items[0] : s.items;
}
