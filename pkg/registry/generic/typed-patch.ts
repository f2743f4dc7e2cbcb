// An applied configuration as structured-merge-diff types it (upstream: the field manager's ObjectToTyped of the
// patch object): a value of the wrong JSON type for its schema, or a custom resource's map-list item without a key
// field, fails the apply, worded as that library words it.
import type { KubeObject } from '../../../api/types.js';
import { propertyOf, refTo, type Schema } from '../../../api/schema.js';
import { badRequest, StatusError } from '../../apimachinery/errors.js';
import { goFloat, goValue } from '../../apimachinery/go-format.js';
import { isPlainObject, type SchemaIndex } from '../schema/index.js';
import { elementPath, pruneUnknown } from '../schema/prune.js';
import type { Registry } from './registry.js';

/**
 * Throws when the applied configuration does not type: undeclared fields, items a map list or set repeats, values
 * of the wrong type. `config` (a copy) loses its undeclared fields and nulls.
 */
export function checkTypedPatch(reg: Registry, applied: KubeObject, config: KubeObject): void {
  const { index } = reg.deps.decoder;
  const duplicates: string[] = [];
  const unknown = pruneUnknown(index, config, refTo(reg.rt.definition), '', 'fieldpath', false, duplicates);
  // a CRD's schema has every default upstream's type converter knows; the built-in schemas here leave out the zero
  // values upstream's generated OpenAPI gives key fields as defaults (a container's name: ""), so their keys stay unchecked
  const walk: TypeWalk = { index, out: [], keyed: reg.deps.decoder.decode !== undefined, unkeyed: new Set() };
  typeErrors(walk, applied, refTo(reg.rt.definition), '');
  // the library checks no further items of a list it could not key, so finds no repeated ones there either
  const repeated = walk.unkeyed.size ? duplicates.filter((d) => ![...walk.unkeyed].some((p) => d.startsWith(`${p}: duplicate entries`))) : duplicates;
  if (unknown.length || repeated.length || walk.out.length) {
    throw typedPatchError(applied, reg.rt.group, reg.rt.kind, [...unknown.map((p) => `${p}: field not declared in schema`), ...repeated, ...walk.out]);
  }
}

/**
 * A 400 with the library's words. Upstream's field manager returns these as a plain error, which its handler writes as
 * a 500 (kubernetes#122480); the fix under way upstream (kubernetes#139253) answers 400 BadRequest with the same
 * message, the client having sent a configuration that does not type, as it is here.
 */
function typedPatchError(applied: KubeObject, group: string, kind: string, errors: string[]): StatusError {
  return badRequest(`failed to create typed patch object (${appliedObjectName(applied, group, kind)}): ${errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => `  ${e}`)].join('\n')}`);
}

/**
 * An applied configuration as the field manager's errors name it (objectGVKNN): "ns/name; group/version, Kind=Kind";
 * a namespace, name or apiVersion that is not a string reads as empty, as an unstructured object's accessors give it.
 */
export function appliedObjectName(applied: KubeObject, group: string, kind: string): string {
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const meta = (typeof applied.metadata === 'object' && applied.metadata !== null ? applied.metadata : {}) as Record<string, unknown>;
  const [, version] = /^(?:.*\/)?([^/]+)$/.exec(text(applied.apiVersion)) ?? [];
  return `${text(meta.namespace)}/${text(meta.name)}; ${group}/${version ?? ''}, Kind=${kind}`;
}

interface TypeWalk {
  index: SchemaIndex;
  /** The errors, in document order. */
  out: string[];
  /** A map list's item must give its key fields or have their defaults. */
  keyed: boolean;
  /** The paths of the lists with an item that could not be keyed. */
  unkeyed: Set<string>;
}

/**
 * structured-merge-diff's check of scalars, maps and lists, in document order. Schemas without a single type
 * (quantities, int-or-string) take any value there, as the library's untyped atoms do; nulls are always right. An item
 * that cannot be keyed ends its list's check: the library has no path element to go below.
 */
function typeErrors(walk: TypeWalk, value: unknown, schema: Schema, path: string): void {
  const { index, out } = walk;
  const { schema: s } = index.resolve(schema);
  if (value === null || value === undefined || s['x-kubernetes-int-or-string']) return;
  const at = (message: string): void => void out.push(path ? `${path}: ${message}` : message);
  switch (s.type) {
    case 'string':
      if (typeof value !== 'string') at(`expected string, got ${sharpV(value)}`);
      return;
    case 'integer':
    case 'number':
      if (typeof value !== 'number') at(`expected numeric (int or float), got ${goType(value)}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') at(`expected boolean, got &{${goValue(value)}}`);
      return;
    case 'array':
      if (!Array.isArray(value)) return at(`expected list, got &{${goValue(value)}}`);
      if (!s.items) return;
      for (let i = 0; i < value.length; i++) {
        const omitted = walk.keyed ? omittedKey(index, s, value[i]) : undefined;
        if (omitted) {
          walk.unkeyed.add(path);
          return at(`element ${i}: associative list with keys has an element that omits key field ${JSON.stringify(omitted)} (and doesn't have default value)`);
        }
        typeErrors(walk, value[i], s.items, `${path}${elementPath(index, s, value[i], i)}`);
      }
      return;
    case 'object':
      if (!isPlainObject(value)) return at(`expected map, got &{${goValue(value)}}`);
      for (const [key, v] of Object.entries(value)) {
        const child = propertyOf(s, key) ?? (isPlainObject(s.additionalProperties) ? s.additionalProperties : undefined);
        if (child) typeErrors(walk, v, child, `${path}.${key}`);
      }
  }
}

/** The first key field a map list's item leaves out without a default: the library cannot make its path element. */
function omittedKey(index: SchemaIndex, s: Schema, item: unknown): string | undefined {
  const keys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-list-type'] !== 'map' || !Array.isArray(keys) || !isPlainObject(item)) return undefined;
  const props = s.items ? index.resolve(s.items).schema.properties : undefined;
  return (keys as string[]).find((k) => item[k] === undefined && props?.[k]?.default === undefined);
}

/** Go's %#v of the library's value holding `v` (decoded from JSON: float64s, strings, bools, maps, slices). */
const sharpV = (v: unknown): string => `&value.valueUnstructured{Value:${goSharp(v)}}`;

function goSharp(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharp).join(', ')}}`;
  if (isPlainObject(v)) return `map[string]interface {}{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${goSharp(v[k])}`).join(', ')}}`;
  return String(v);
}

/** Go's %T of a value decoded from JSON. */
const goType = (v: unknown): string =>
  typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
