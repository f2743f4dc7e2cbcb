// Validation ratcheting (CRDValidationRatcheting, on by default in 1.32): an update is not refused for what it left
// as it was. The new and old objects are correlated node by node (upstream: apiserver's cel/common CorrelatedObject):
// object fields by name, items of `x-kubernetes-list-type: map` lists by their keys, other lists not at all (they
// count as one value). An error raised at a node is dropped when the nearest correlated node holding it is equal to
// its old value. Schema errors are dropped silently; CEL rules (not transition rules) warn instead.
import type { ErrorObject } from 'ajv';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { propertyOf } from '../../../api/schema.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { isPlainObject } from '../schema/index.js';
import { itemSchema } from './schema.js';

/** One node of the new object with the old value it correlates to; equality is computed once, from the children. */
export class Correlation {
  private children?: Map<string | number, Correlation>;
  private equal?: boolean;
  /** The old list's items by key, once a map list's item was looked up (upstream's mapList). */
  private oldItems?: MapList;

  constructor(readonly value: unknown, readonly old: unknown, readonly schema: JSONSchemaProps | undefined) {}

  /** The field's node; none when either side lacks it, or when the schema has no subschema for it. */
  key(field: string): Correlation | undefined {
    const known = this.children?.get(field);
    if (known) return known;
    const { value, old, schema } = this;
    if (!schema || !isPlainObject(value) || !isPlainObject(old) || !present(value, field) || !present(old, field)) return undefined;
    const s = propertyOf(schema, field) ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (!s) return undefined;
    const child = new Correlation(value[field], old[field], s);
    (this.children ??= new Map()).set(field, child);
    return child;
  }

  /** The item's node: map lists only, by the item's keys. */
  index(i: number): Correlation | undefined {
    const known = this.children?.get(i);
    if (known) return known;
    const { value, old, schema } = this;
    if (!schema || !Array.isArray(value) || i >= value.length || !Array.isArray(old) || schema['x-kubernetes-list-type'] !== 'map') return undefined;
    this.oldItems ??= mapList(schema, old);
    const prev = this.oldItems.get(value[i]);
    const items = itemSchema(schema);
    if (prev === undefined || !items) return undefined;
    const child = new Correlation(value[i], prev, items);
    (this.children ??= new Map()).set(i, child);
    return child;
  }

  /**
   * Whether the value is unchanged. A field the schema does not describe makes its object unequal, a map list's item
   * without its old one makes the list unequal, and a list that correlates no items is compared whole.
   */
  unchanged(): boolean {
    if (this.equal === undefined) this.equal = this.compare();
    return this.equal;
  }

  private compare(): boolean {
    const { value, old } = this;
    if (value === null || value === undefined || old === null || old === undefined) return (value ?? null) === (old ?? null);
    if (Array.isArray(value) || Array.isArray(old)) {
      if (!Array.isArray(value) || !Array.isArray(old) || value.length !== old.length) return false;
      if (this.schema?.['x-kubernetes-list-type'] !== 'map') return jsonEqual(value, old);
      for (let i = 0; i < value.length; i++) if (!this.index(i)?.unchanged()) return false;
      return true;
    }
    if (isPlainObject(value) || isPlainObject(old)) {
      if (!isPlainObject(value) || !isPlainObject(old) || size(value) !== size(old)) return false;
      for (const k in value) if (value[k] !== undefined && !this.key(k)?.unchanged()) return false;
      return true;
    }
    return value === old;
  }
}

const present = (o: Record<string, unknown>, k: string): boolean => Object.hasOwn(o, k) && o[k] !== undefined;

function size(o: Record<string, unknown>): number {
  let n = 0;
  for (const k in o) if (o[k] !== undefined) n++;
  return n;
}

/** A map list's items by their keys: the first item with a key wins; an item lacking a key, or with a non-scalar one, has none. */
export interface MapList {
  get(item: unknown): Record<string, unknown> | undefined;
}

const NO_ITEMS: MapList = { get: () => undefined };

export function mapList(s: JSONSchemaProps, items: unknown[]): MapList {
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  if (s.type !== 'array' || s['x-kubernetes-list-type'] !== 'map' || !keys.length || !items.length) return NO_ITEMS;
  let byKey: Map<unknown, Record<string, unknown>> | undefined;
  return {
    get(item) {
      if (!isPlainObject(item)) return undefined;
      const k = keyOf(keys, item);
      if (k === undefined) return undefined;
      if (!byKey) {
        byKey = new Map();
        for (const x of items) {
          if (!isPlainObject(x)) continue;
          const xk = keyOf(keys, x);
          if (xk !== undefined && !byKey.has(xk)) byKey.set(xk, x);
        }
      }
      return byKey.get(k);
    },
  };
}

const isScalar = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The item's key: its one key's value, or the values of all keys as one string (typed, so 1 and "1" differ). */
function keyOf(keys: string[], item: Record<string, unknown>): unknown {
  if (keys.length === 1) {
    const v = item[keys[0]!];
    return isScalar(v) ? v : undefined;
  }
  const values: unknown[] = [];
  for (const k of keys) {
    const v = item[k];
    if (!isScalar(v)) return undefined;
    values.push(v);
  }
  return JSON.stringify(values);
}

/**
 * The path (as instance tokens) below which a schema error was raised by a validator that follows the
 * correlation: the error's schema path through properties, additionalProperties and items. A combinator
 * (allOf, anyOf, oneOf, not) validates its value with plain validators, so its errors belong to the node holding it.
 */
function correlatedSteps(e: ErrorObject): string[] {
  const schemaTokens = e.schemaPath.replace(/^#\/?/, '').split('/');
  let steps = 0;
  for (let i = 0; i < schemaTokens.length - 1;) {
    const t = schemaTokens[i];
    if (t === 'properties' || t === 'patternProperties') {
      steps++;
      i += 2;
    } else if (t === 'additionalProperties' || t === 'additionalItems') {
      steps++;
      i += 1;
    } else if (t === 'items') {
      steps++;
      i += i + 1 < schemaTokens.length - 1 && /^\d+$/.test(schemaTokens[i + 1]!) ? 2 : 1;
    } else break;
  }
  if (!steps) return [];
  return e.instancePath.split('/').slice(1, steps + 1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Whether a schema error of an update is ratcheted: the nearest correlated node holding where it was raised is unchanged. */
export function ratchetsSchemaError(e: ErrorObject, root: Correlation): boolean {
  let node = root;
  for (const t of correlatedSteps(e)) {
    // the root's apiVersion and kind are validated plainly: both objects are in the version served
    if (node === root && (t === 'apiVersion' || t === 'kind')) break;
    const next = Array.isArray(node.value) ? node.index(Number(t)) : node.key(t);
    if (!next) break;
    node = next;
  }
  return node.unchanged();
}

/**
 * Where a CEL walk stands in the correlation (upstream's ratchetingOptions): the node of the current value, or
 * none below an uncorrelated one, then the nearest correlated ancestor, whose equality decides.
 */
export interface RatchetPosition {
  current?: Correlation;
  parent?: Correlation;
}

export function ratchetKey(r: RatchetPosition | undefined, field: string): RatchetPosition | undefined {
  if (!r?.current) return r;
  // the root's apiVersion and kind do not ratchet at all
  if (!r.parent && (field === 'apiVersion' || field === 'kind')) return {};
  return { current: r.current.key(field), parent: r.current };
}

export function ratchetIndex(r: RatchetPosition | undefined, i: number): RatchetPosition | undefined {
  if (!r?.current) return r;
  return { current: r.current.index(i), parent: r.current };
}

export const ratchets = (r: RatchetPosition | undefined): boolean =>
  !!r && (r.current ? r.current.unchanged() : r.parent?.unchanged() ?? false);
