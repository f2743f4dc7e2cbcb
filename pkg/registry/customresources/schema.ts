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
    apiVersion: str('APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.'),
    kind: str('Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.'),
    metadata: ref(`${META}ObjectMeta`, "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"),
    ...Object.fromEntries(Object.entries(root.properties ?? {}).filter(([k]) => k !== 'metadata' && k !== 'apiVersion' && k !== 'kind')),
  };
  root['x-kubernetes-group-version-kind'] = [{ group, version, kind }];
  return root;
}

/** The kind's and list's definitions for one version. */
export function versionDefinitions(props: JSONSchemaProps | undefined, group: string, version: string, kind: string, listKindName: string): Definitions {
  const def = definitionName(group, version, kind);
  return {
    [def]: kindSchema(props, group, version, kind),
    [definitionName(group, version, listKindName)]: listKind({ group, version, kind: listKindName }, def),
  };
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
