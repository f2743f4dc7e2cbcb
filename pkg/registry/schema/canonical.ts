// Values as upstream's Go types write them back after decoding: a resource.Quantity in its canonical form ("1000m"
// is "1", "1024Mi" "1Gi", a number 2 the string "2"), a metav1.Time in UTC to the second, a metav1.MicroTime in UTC
// with six decimals, either as null at Go's zero time, a []byte's base64 without line breaks or leftover bits. A
// client that compares what it wrote with what it reads back sees what a cluster shows it. The metadata is the
// server's to write and is not walked; subtrees without such a field are not walked either.
import type { Schema } from '../../../api/schema.js';
import { canonicalBase64 } from '../../apimachinery/go-base64.js';
import { canonicalQuantity } from '../../apimachinery/quantity.js';
import { formatMetaTime, parseMetaTime } from '../../apimachinery/time-parse.js';
import { isPlainObject, MICRO_TIME, QUANTITY, TIME, type Resolved, type SchemaIndex } from './index.js';

const QUESTION = 'canonical';

const own = (r: Resolved): boolean => r.name === QUANTITY || r.name === TIME || r.name === MICRO_TIME || r.schema.format === 'byte';

function canonicalScalar({ name, schema }: Resolved, v: unknown): unknown {
  // bad base64 never gets here: the decoder has refused it
  if (schema.format === 'byte') return typeof v === 'string' ? canonicalBase64(v) : v;
  if (name === QUANTITY) {
    if (typeof v !== 'string' && typeof v !== 'number') return v;
    try { return canonicalQuantity(String(v)); } catch { return v; } // not a quantity: its validation says so
  }
  if (typeof v !== 'string') return v;
  const micro = name === MICRO_TIME;
  const t = parseMetaTime(v, micro);
  return typeof t === 'string' ? v : formatMetaTime(t, micro); // not a time: the decoder has refused it
}

/** `value` with its quantities and times canonical: the same reference when they all are, else a copy. */
function canonical(index: SchemaIndex, value: unknown, schema: Schema): unknown {
  const r = index.resolve(schema);
  if (own(r)) return canonicalScalar(r, value);
  if (value === null || typeof value !== 'object' || !index.anyBelow(schema, QUESTION, own)) return value;
  const s = r.schema;
  if (Array.isArray(value)) {
    if (!s.items) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = canonical(index, value[i], s.items);
      if (v !== value[i]) (out ??= [...value])[i] = v;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const [key, prop] of index.propertiesBelow(s, QUESTION, own)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    const c = canonical(index, v, prop);
    if (c !== v) (out ??= { ...value })[key] = c;
  }
  const additional = isPlainObject(s.additionalProperties) ? s.additionalProperties as Schema : undefined;
  if (additional && index.anyBelow(additional, QUESTION, own)) {
    for (const [key, v] of Object.entries(value)) {
      const c = canonical(index, v, additional);
      if (c !== v) (out ??= { ...value })[key] = c;
    }
  }
  return out ?? value;
}

/**
 * Puts the quantities and times of `obj` (an object of the definition `schema` names, its root) in canonical form.
 * Only the root is written into: what lies below may be shared with the stored object (a patch's result), and is
 * copied where it changes.
 */
export function canonicalizeValues(index: SchemaIndex, obj: Record<string, unknown>, schema: Schema): void {
  if (!index.anyBelow(schema, QUESTION, own)) return;
  for (const [key, prop] of index.propertiesBelow(schema, QUESTION, own)) {
    if (key === 'metadata' || obj[key] === undefined) continue;
    const c = canonical(index, obj[key], prop);
    if (c !== obj[key]) obj[key] = c;
  }
}
