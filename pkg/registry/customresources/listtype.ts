// The uniqueness of `x-kubernetes-list-type: set` items and of `map` items' keys in a custom resource (upstream:
// apiextensions-apiserver schema/listtype ValidateListSetsAndMaps), worded as upstream's field.Duplicate prints
// Go values: `spec.tags[1]: Duplicate value: map[string]interface {}{"name":"a"}`, `Duplicate value: "x"`.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { propertyOf } from '../../../api/schema.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { isPlainObject } from '../schema/index.js';
import { childPath, itemSchema } from './schema.js';

/** Whether `s` or a node below it is a set or map list (most schemas have none: their objects skip the walk). */
export function hasListSetsOrMaps(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  let known = withLists.get(s);
  if (known === undefined) {
    withLists.set(s, false);
    const t = s['x-kubernetes-list-type'];
    known = t === 'set' || t === 'map' || Object.values(s.properties ?? {}).some(hasListSetsOrMaps) ||
      (typeof s.additionalProperties === 'object' && hasListSetsOrMaps(s.additionalProperties)) || hasListSetsOrMaps(itemSchema(s));
    withLists.set(s, known);
  }
  return known;
}

/** Served schemas are not changed: each node is asked once. */
const withLists = new WeakMap<JSONSchemaProps, boolean>();

/** The errors of every set or map list in `obj` (the object at `path`; '' for the resource). */
export function validateListSetsAndMaps(obj: unknown, s: JSONSchemaProps | undefined, path = ''): StatusCause[] {
  const causes: StatusCause[] = [];
  objectLists(obj, s, path, causes);
  return causes;
}

function objectLists(obj: unknown, s: JSONSchemaProps | undefined, path: string, causes: StatusCause[]): void {
  if (!s || !isPlainObject(obj) || !hasListSetsOrMaps(s)) return;
  // upstream names a field of additionalProperties as a map key: `spec.byName[x].tags[1]`
  if (typeof s.additionalProperties === 'object') for (const [k, v] of Object.entries(obj)) valueLists(v, s.additionalProperties, `${path}[${k}]`, causes);
  if (s.properties) {
    for (const [k, v] of Object.entries(obj)) {
      const prop = propertyOf(s, k);
      if (prop) valueLists(v, prop, childPath(path, k), causes);
    }
  }
}

function valueLists(v: unknown, s: JSONSchemaProps, path: string, causes: StatusCause[]): void {
  if (Array.isArray(v)) arrayLists(v, s, path, causes);
  else objectLists(v, s, path, causes);
}

function arrayLists(list: unknown[], s: JSONSchemaProps, path: string, causes: StatusCause[]): void {
  if (!hasListSetsOrMaps(s)) return;
  const type = s['x-kubernetes-list-type'];
  if (type === 'set') {
    for (const i of repeated(list)) causes.push(duplicate(`${path}[${i}]`, goValue(list[i])));
  } else if (type === 'map') {
    causes.push(...mapListErrors(list, s['x-kubernetes-list-map-keys'] ?? [], path));
  }
  const items = itemSchema(s);
  if (items) list.forEach((x, i) => valueLists(x, items, `${path}[${i}]`, causes));
}

const duplicate = (field: string, rendered: string): StatusCause => fieldCause('FieldValueDuplicate', field, `Duplicate value: ${rendered}`);

/** A missing key (or a null item) is a value of its own, equal only to another missing one. */
const UNSPECIFIED = Symbol('unspecified');

function mapListErrors(list: unknown[], keys: string[], path: string): StatusCause[] {
  const bad = list.findIndex((x) => x !== null && x !== undefined && !isPlainObject(x));
  if (bad >= 0) return [fieldCause('FieldValueInvalid', `${path}[${bad}]`, `Invalid value: ${goValue(list[bad])}: must be an object for an array of list-type map`)];
  if (list.length <= 1) return [];
  if (keys.length === 1) {
    const key = keys[0]!;
    const values = list.map((x) => (isPlainObject(x) && Object.hasOwn(x, key) && x[key] !== undefined ? x[key] : UNSPECIFIED));
    return repeated(values).map((i) => duplicate(`${path}[${i}]`, goSharp(values[i] === UNSPECIFIED ? {} : { [key]: values[i] })));
  }
  const values = list.map((x) => {
    const k: Record<string, unknown> = {};
    if (isPlainObject(x)) for (const f of keys) if (x[f] !== undefined) k[f] = x[f];
    return k;
  });
  return repeated(values).map((i) => duplicate(`${path}[${i}]`, goSharp(values[i])));
}

/** The second appearance of each value that appears more than once, as Go compares them (compounds by their JSON). */
function repeated(values: unknown[]): number[] {
  if (values.length <= 1) return [];
  const seen = new Map<unknown, number>();
  const out: number[] = [];
  values.forEach((v, i) => {
    const k = v !== null && typeof v === 'object' ? `\u0000${canonicalJson(v)}` : v;
    const times = seen.get(k) ?? 0;
    if (times === 1) out.push(i);
    seen.set(k, times + 1);
  });
  return out;
}

/** JSON with object keys sorted, as Go marshals a map. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJson(x ?? null)).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v).filter((k) => v[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** A float as Go's %v prints it: the shortest digits, with an exponent below 1e-4 and from 1e6 on. */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

/** A JSON number as the decoder makes it: an int64 when integral, else a float64. */
const goNumber = (n: number): string => (Number.isSafeInteger(n) ? String(n) : goFloat(n));

/** %#v of a decoded JSON value (maps with their keys sorted, as fmt prints them). */
function goSharp(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharp).join(', ')}}`;
  const o = v as Record<string, unknown>;
  return `map[string]interface {}{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${goSharp(o[k])}`).join(', ')}}`;
}

/** A value as field.Error's ErrorBody prints it: %q for strings, %v for scalars, %#v for maps and slices, nil as "null". */
function goValue(v: unknown): string {
  if (v === null || v === undefined) return '"null"';
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'string' || typeof v === 'boolean') return typeof v === 'string' ? JSON.stringify(v) : String(v);
  return goSharp(v);
}
