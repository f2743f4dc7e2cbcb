// Structural pruning of a custom resource (upstream: apiextensions-apiserver pkg/apiserver/schema/pruning):
// fields the schema does not specify are dropped (and reported, for fieldValidation Strict/Warn) unless
// x-kubernetes-preserve-unknown-fields; apiVersion, kind and metadata are kept at the root and in embedded
// resources, metadata pruned to ObjectMeta. Nulls of non-nullable fields go too (upstream's
// PruneNonNullableNullsWithoutDefaults; a default then fills them).
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { propertyOf, refTo } from '../../../api/schema.js';
import { isPlainObject, type SchemaIndex } from '../schema/index.js';
import { pruneUnknown } from '../schema/prune.js';
import { inGoMapOrder } from '../generic/strict-errors.js';
import { childPath, itemSchema } from './schema.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * Prunes `value` in place (`resourceRoot`: apiVersion, kind and metadata are the object's own); returns the paths of
 * unknown fields in upstream's unstructuredSchemaCoercer's order: the root metadata's first (encoding/json marshals
 * it with sorted keys before decoding it into ObjectMeta), then the pruned fields sorted (PruneWithOptions), then the
 * embedded resources' metadata's sorted (CoerceWithOptions).
 */
export function pruneCustomResource(meta: SchemaIndex, value: unknown, schema: JSONSchemaProps | undefined, resourceRoot = true): string[] {
  const found: Unknown = { fields: [], embeddedMeta: [], rootMeta: [] };
  walk(meta, value, schema, '', resourceRoot, found);
  return [...inGoMapOrder(found.rootMeta), ...found.fields.sort(), ...found.embeddedMeta.sort()];
}

/** The unknown fields met, by where upstream finds them. */
interface Unknown {
  fields: string[];
  embeddedMeta: string[];
  rootMeta: string[];
}

function walk(meta: SchemaIndex, value: unknown, s: JSONSchemaProps | undefined, path: string, embedded: boolean, unknown: Unknown): void {
  if (Array.isArray(value)) {
    const items = itemSchema(s);
    value.forEach((v, i) => {
      if (v === null && items && !items.nullable) return;
      walk(meta, v, items, `${path}[${i}]`, Boolean(items?.['x-kubernetes-embedded-resource']), unknown);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  const preserve = !s || s['x-kubernetes-preserve-unknown-fields'] === true;
  // Preserved but unspecified fields are kept whole; paths are built only where they are used (scalars are most fields).
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (embedded && (key === 'apiVersion' || key === 'kind')) continue;
    if (embedded && key === 'metadata') {
      if (isPlainObject(v)) (path ? unknown.embeddedMeta : unknown.rootMeta).push(...pruneUnknown(meta, v, refTo(OBJECT_META), childPath(path, key)));
      continue;
    }
    const prop = propertyOf(s, key) ?? (typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined);
    if (prop) {
      if (v === null && !prop.nullable) {
        delete value[key];
        continue;
      }
      if (typeof v === 'object' && v !== null) walk(meta, v, prop, childPath(path, key), Boolean(prop['x-kubernetes-embedded-resource']), unknown);
    } else if (!preserve && s?.additionalProperties !== true) {
      unknown.fields.push(childPath(path, key));
      delete value[key];
    }
  }
}
