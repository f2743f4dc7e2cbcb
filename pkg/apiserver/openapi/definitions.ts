// The pool of definitions a document may draw on, and the walk that picks the ones it reaches.
import { definitions as metaDefinitions } from '../../../api/meta/v1/index.js';
import { REF_PREFIX, type Definitions, type GroupVersionKind, type Schema } from '../../../api/schema.js';
import type { GroupVersion } from '../../../api/types.js';

export interface DefinitionPool {
  definitions: Definitions;
  /** The definition carrying a GVK (a subresource's Scale, Eviction, TokenRequest). */
  definitionOf: (gvk: GroupVersionKind) => string | undefined;
}

const gvkKey = (g: GroupVersionKind): string => `${g.group}/${g.version}/${g.kind}`;

/** meta/v1 plus every served group-version's definitions (a group-version may lend kinds it does not serve). */
export const definitionPool = (gvs: GroupVersion[]): DefinitionPool => {
  const definitions: Definitions = Object.assign({}, metaDefinitions, ...gvs.map((gv) => gv.definitions));
  const byGvk = new Map<string, string>();
  for (const [name, schema] of Object.entries(definitions)) {
    const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
    // meta kinds (DeleteOptions, WatchEvent) list many GVKs; a group's own kind is listed by one definition.
    for (const g of gvks) if (!byGvk.has(gvkKey(g)) || gvks.length === 1) byGvk.set(gvkKey(g), name);
  }
  return { definitions, definitionOf: (g) => byGvk.get(gvkKey(g)) };
};

/** Every "#/components/schemas/<name>" under a value (operations or schemas alike). */
export const collectRefs = (value: unknown, into: Set<string>): Set<string> => {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(REF_PREFIX)) into.add(v.slice(REF_PREFIX.length));
      else collectRefs(v, into);
    }
  }
  return into;
};

/** The definitions reachable from `roots`, sorted by name; names the pool lacks are returned in `missing`. */
export const reachableDefinitions = (roots: Set<string>, pool: Definitions) => {
  const seen = new Set<string>();
  const missing: string[] = [];
  const queue = [...roots];
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const schema: Schema | undefined = pool[name];
    if (!schema) {
      missing.push(name);
      continue;
    }
    for (const next of collectRefs(schema, new Set())) if (!seen.has(next)) queue.push(next);
  }
  const schemas: Definitions = {};
  for (const name of [...seen].sort()) if (pool[name]) schemas[name] = pool[name];
  return { schemas, missing: missing.sort() };
};
