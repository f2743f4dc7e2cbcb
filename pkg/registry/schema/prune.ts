// Unknown fields: upstream drops them while decoding into Go structs and, with fieldValidation
// Strict or Warn, reports them by path ("spec.containers[0].foo"). We do both in one walk.
// A JSON null decodes to Go's zero value, which is then omitted (a metav1.Time's is written as null): a field's null
// is dropped here too (a map's value or a list's item becomes its type's zero), and so are empty maps and lists of
// optional fields (Go's omitempty: `labels: {}` is not kept). Decoding a built-in object also drops its omitempty
// scalar fields at their zero value (omitempty.ts), and the empty lists of fields Go writes as null while nil
// (zero-values.ts writes the null again).
import { propertyOf, type Schema } from '../../../api/schema.js';
import { isPlainObject, MICRO_TIME, TIME, type SchemaIndex } from './index.js';
import { scalarZero } from '../../../api/go-zero-objects.js';
import { goZeroValues } from '../../../api/go-zero-values.js';
import { isZeroScalar, omitemptyFields } from './omitempty.js';

/**
 * How paths are written: as the decoder reports unknown fields ("spec.containers[0].foo"), or as structured-merge-diff
 * writes a field path (".spec.containers[name=\"c\"].foo": elements of map lists by their keys, of sets by value).
 */
export type PathStyle = 'json' | 'fieldpath';

/**
 * Removes fields the schema does not know; returns their paths, in document order. `omitEmpty`: also the omitempty
 * scalars at their zero value, as decoding into Go's types and encoding again does (not for an apply configuration,
 * whose zero values are fields its manager sets). `duplicates` collects the items a map list or set repeats, as
 * structured-merge-diff refuses them in an applied configuration.
 */
export function pruneUnknown(index: SchemaIndex, value: unknown, schema: Schema, path = '', style: PathStyle = 'json', omitEmpty = false, duplicates?: string[]): string[] {
  const unknown: string[] = [];
  prune(index, value, schema, path, unknown, style, omitEmpty, duplicates);
  return unknown;
}

/**
 * structured-merge-diff's PathElement of a list item: [k="v",n=1] in a map list (its keys sorted, a missing one at its
 * schema default), [=v] in a set, [i] otherwise.
 */
export function elementPath(index: SchemaIndex, s: Schema, item: unknown, i: number): string {
  const keys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-list-type'] === 'map' && Array.isArray(keys) && isPlainObject(item)) {
    const props = s.items ? index.resolve(s.items).schema.properties : undefined;
    const parts = (keys as string[]).map((k) => [k, item[k] ?? props?.[k]?.default] as const).filter(([, v]) => v !== undefined);
    return `[${parts.sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
  }
  if (s['x-kubernetes-list-type'] === 'set') return `[=${JSON.stringify(item)}]`;
  return `[${i}]`;
}

function prune(index: SchemaIndex, value: unknown, schema: Schema, path: string, unknown: string[], style: PathStyle, omitEmpty: boolean, duplicates?: string[]): void {
  const { schema: s, name } = index.resolve(schema);
  if (s['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    if (!s.items) return;
    const seen = duplicates && s['x-kubernetes-list-type'] ? new Set<string>() : undefined;
    for (let i = 0; i < value.length; i++) {
      const element = style === 'fieldpath' ? elementPath(index, s, value[i], i) : `[${i}]`;
      if (seen?.has(element)) duplicates!.push(`${path}: duplicate entries for key ${element}`);
      seen?.add(element);
      if (value[i] === null) value[i] = nullElement(index, s.items) ?? null;
      prune(index, value[i], s.items, `${path}${element}`, unknown, style, omitEmpty, duplicates);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  const props = s.properties;
  const extra = s.additionalProperties;
  // An object schema with neither: only a typed-but-unspecified object (e.g. FieldsV1) keeps all.
  if (!props && extra === undefined) return;
  const omitempty = omitEmpty && name ? omitemptyFields(name) : undefined;
  const zeros = omitEmpty && name ? goZeroValues[name] : undefined;
  // a field's path is made only where it is needed: below it (an object or a list) or for an unknown field
  const childPath = (key: string): string => (path || style === 'fieldpath' ? `${path}.${key}` : key);
  for (const key of Object.keys(value)) {
    const v = value[key];
    const child = propertyOf(s, key);
    if (v === null) {
      // a map's value is its type's zero; a field's null is the field left out, but a metav1.Time that Go writes as
      // null at zero (lastProbeTime: null) is stored that way (zero-values.ts)
      const zero = !child && isPlainObject(extra) ? nullElement(index, extra) : undefined;
      if (zero !== undefined) value[key] = zero;
      else if (zeros?.[key] !== 'null') delete value[key];
      continue;
    }
    if (child && omitempty?.has(key) && isZeroScalar(v, child)) {
      delete value[key];
    } else if (child) {
      if (typeof v !== 'object') continue; // nothing below a scalar
      prune(index, v, child, childPath(key), unknown, style, omitEmpty, duplicates);
      // a required one stays (an empty list of a pod's containers is refused as such), but for one Go writes as null
      // while nil, as upstream's protobuf storage reads an empty one back (zero-values.ts writes the null)
      if (isEmptyCollection(index, v, child) && (!s.required?.includes(key) || zeros?.[key] === 'nil')) delete value[key];
    } else if (isPlainObject(extra)) {
      if (typeof v === 'object') prune(index, v, extra, childPath(key), unknown, style, omitEmpty, duplicates);
    } else if (extra !== true) {
      unknown.push(childPath(key));
      delete value[key];
    }
  }
}

/**
 * What Go's decoder makes of a null map value or list item: its type's zero value (`labels: {app: null}` is the
 * label app=""), a struct's an empty one (which zero-values.ts fills); undefined for a list, map or time, nil in Go.
 */
function nullElement(index: SchemaIndex, schema: Schema): unknown {
  const { schema: s, name } = index.resolve(schema);
  if (name === TIME || name === MICRO_TIME) return undefined;
  return s.type === 'object' && s.properties ? {} : scalarZero(s.type, name);
}

/** An empty list, or an empty map (an object schema of additionalProperties only). */
function isEmptyCollection(index: SchemaIndex, value: unknown, schema: Schema): boolean {
  // an empty list where the field is no list (an object, say) stays for the type check to refuse, as Go's decoder does
  if (Array.isArray(value)) return value.length === 0 && index.resolve(schema).schema.type === 'array';
  if (!isPlainObject(value)) return false;
  for (const _ in value) return false;
  const { schema: s } = index.resolve(schema);
  return !s.properties && isPlainObject(s.additionalProperties) && !s['x-kubernetes-preserve-unknown-fields'];
}
