// Extension apiservers' OpenAPI v2 merged into ours, as kube-aggregator does (kube-openapi's
// MergeSpecsIgnorePathConflictRenamingDefinitionsConflict): a path already served keeps its first description; a
// definition already present with other content is renamed "<name>_v2" (then _v3, ...) in the document it came from,
// its references included.
import type { SwaggerDocument, V2PathItem, V2Schema } from './v2.js';

/** What is merged of a remote document: its paths and definitions. */
export interface RemoteSwagger {
  paths?: Record<string, unknown>;
  definitions?: Record<string, unknown>;
}

const REF = '#/definitions/';

/** `doc` with every `$ref` to a renamed definition pointed at its new name. */
function renameRefs<T>(doc: T, renames: Map<string, string>): T {
  if (renames.size === 0) return doc;
  return JSON.parse(JSON.stringify(doc), (key, value: unknown) =>
    (key === '$ref' && typeof value === 'string' && value.startsWith(REF) && renames.has(value.slice(REF.length))
      ? REF + renames.get(value.slice(REF.length))!
      : value)) as T;
}

export function mergeSwagger(local: SwaggerDocument, remotes: readonly RemoteSwagger[]): SwaggerDocument {
  const paths: Record<string, V2PathItem> = { ...local.paths };
  const definitions: Record<string, V2Schema> = { ...local.definitions };
  for (const remote of remotes) {
    const renames = new Map<string, string>();
    for (const [name, schema] of Object.entries(remote.definitions ?? {})) {
      const have = definitions[name];
      if (have === undefined || JSON.stringify(have) === JSON.stringify(schema)) continue;
      let n = 2;
      while (definitions[`${name}_v${n}`] !== undefined) n++;
      renames.set(name, `${name}_v${n}`);
    }
    const renamed = renameRefs(remote, renames);
    for (const [name, schema] of Object.entries(renamed.definitions ?? {})) {
      const target = renames.get(name) ?? name;
      definitions[target] ??= schema as V2Schema;
    }
    for (const [path, item] of Object.entries(renamed.paths ?? {})) paths[path] ??= item as V2PathItem;
  }
  return { ...local, paths, definitions };
}
