// Kinds and schemas from the apiserver, as upstream's type checker gets them (a RESTMapper over discovery, and
// resolver.ClientDiscoveryResolver over /openapi/v3): a group-version's resource list names the kinds, its OpenAPI
// v3 document holds the kind's schema (found by x-kubernetes-group-version-kind). One resolver serves one sync, so
// each document is fetched once per sync and a CRD changed since is seen on the next.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { isNotFound, type Client } from '../../client/index.js';
import type { GroupVersionKind, SchemaResolver } from './type-checker.js';

type OpenApiSchema = Record<string, any>;

const REF_PREFIX = '#/components/schemas/';
const gvPath = (group: string, version: string): string => (group ? `apis/${group}/${version}` : `api/${version}`);

/** The fields a resource root always has for CEL, even where its schema leaves them out (upstream: SchemaDeclType). */
const ROOT_FIELDS: Record<string, JSONSchemaProps> = {
  apiVersion: { type: 'string' }, kind: { type: 'string' },
  metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
};

/**
 * A document's schemas as the checker reads them (JSONSchemaProps), converted as they are read: references are
 * followed (also through an `allOf: [{$ref}]` wrapper) and recursive schemas (JSONSchemaProps itself) stay finite.
 */
function converter(schemas: Record<string, OpenApiSchema>): (s: OpenApiSchema) => JSONSchemaProps {
  const done = new Map<OpenApiSchema, JSONSchemaProps>();
  const target = (s: OpenApiSchema): OpenApiSchema => {
    for (let depth = 0; depth < 16; depth++) {
      const ref: unknown = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0].$ref : undefined);
      if (typeof ref !== 'string' || !ref.startsWith(REF_PREFIX)) return s;
      const next = schemas[ref.slice(REF_PREFIX.length)];
      if (!next) return {};
      s = next;
    }
    return s;
  };
  const convert = (raw: OpenApiSchema): JSONSchemaProps => {
    const s = target(raw);
    let out = done.get(s);
    if (out) return out;
    out = {};
    done.set(s, out);
    for (const k of ['type', 'format', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource'] as const) {
      if (s[k] !== undefined) (out as Record<string, unknown>)[k] = s[k];
    }
    const lazy = (holder: object, key: string, child: OpenApiSchema): void => {
      Object.defineProperty(holder, key, { enumerable: true, configurable: true, get: () => convert(child) });
    };
    if (s.properties) {
      const properties: Record<string, JSONSchemaProps> = {};
      for (const [name, child] of Object.entries(s.properties as Record<string, OpenApiSchema>)) lazy(properties, name, child);
      out.properties = properties;
    }
    if (s.items && typeof s.items === 'object') lazy(out, 'items', s.items);
    if (typeof s.additionalProperties === 'object') lazy(out, 'additionalProperties', s.additionalProperties);
    else if (s.additionalProperties !== undefined) out.additionalProperties = s.additionalProperties;
    return out;
  };
  return convert;
}

export function apiServerSchemaResolver(client: Client, signal?: AbortSignal): SchemaResolver {
  const get = <T>(path: string): Promise<T | undefined> =>
    client.rest.request<T>({ method: 'GET', path, signal, accept: 'application/json' }).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  const resourceLists = new Map<string, Promise<{ resources?: Array<{ name: string; kind: string }> } | undefined>>();
  const documents = new Map<string, Promise<OpenApiSchema | undefined>>();
  const memo = <T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> => {
    let p = cache.get(key);
    if (!p) cache.set(key, (p = load()));
    return p;
  };
  return {
    async kindsFor(group, version, resource) {
      const list = await memo(resourceLists, gvPath(group, version), () => get(`/${gvPath(group, version)}`));
      return (list?.resources ?? []).filter((r) => r.name === resource).map((r) => ({ group, version, kind: r.kind }));
    },
    async schemaFor(gvk: GroupVersionKind) {
      const doc = await memo(documents, gvPath(gvk.group, gvk.version), () => get(`/openapi/v3/${gvPath(gvk.group, gvk.version)}`));
      const schemas = (doc?.components?.schemas ?? {}) as Record<string, OpenApiSchema>;
      const root = Object.values(schemas).find((s) => (s['x-kubernetes-group-version-kind'] as GroupVersionKind[] | undefined)
        ?.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind));
      if (!root) return undefined;
      const schema = converter(schemas)(root);
      return { ...schema, properties: { ...ROOT_FIELDS, ...schema.properties } };
    },
  };
}
