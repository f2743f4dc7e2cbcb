// Defaulting as upstream does it for a decoded object: at each node, constant schema defaults for
// absent properties, then the computed defaulter of that definition, then the children. Subtrees
// whose schema holds no default and no defaulter anywhere are not walked.
import { propertyOf, type Schema } from '../../../api/schema.js';
import type { Defaulter } from '../../../api/types.js';
import { isPlainObject, type Resolved, type SchemaIndex } from './index.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

interface Plan {
  /** Properties with a constant default. */
  defaults: [string, unknown][];
  defaulter?: Defaulter;
  items?: Schema;
  additional?: Schema;
}

const plans = new WeakMap<SchemaIndex, WeakMap<Schema, Plan>>();

const mayDefault = (index: SchemaIndex, s: Schema): boolean =>
  index.anyBelow(s, 'defaults', (r: Resolved) =>
    (r.name !== undefined && index.defaulters[r.name] !== undefined) || Object.values(r.schema.properties ?? {}).some((p) => p.default !== undefined));

function planOf(index: SchemaIndex, { schema: s, name }: Resolved): Plan {
  let byIndex = plans.get(index);
  if (!byIndex) plans.set(index, (byIndex = new WeakMap()));
  let plan = byIndex.get(s);
  if (!plan) {
    plan = {
      defaults: Object.entries(s.properties ?? {}).filter(([, p]) => p.default !== undefined).map(([k, p]) => [k, p.default]),
      defaulter: name ? index.defaulters[name] : undefined,
      items: s.items && mayDefault(index, s.items) ? s.items : undefined,
      additional: isPlainObject(s.additionalProperties) && mayDefault(index, s.additionalProperties as Schema) ? s.additionalProperties as Schema : undefined,
    };
    byIndex.set(s, plan);
  }
  return plan;
}

export function applyDefaults(index: SchemaIndex, value: unknown, schema: Schema): void {
  const resolved = index.resolve(schema);
  const s = resolved.schema;
  const plan = planOf(index, resolved);
  if (Array.isArray(value)) {
    if (plan.items) for (const item of value) applyDefaults(index, item, plan.items);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, d] of plan.defaults) if (value[key] === undefined) value[key] = typeof d === 'object' ? cloneJson(d) : d;
  plan.defaulter?.(value);
  for (const key of Object.keys(value)) {
    const v = value[key];
    const prop = propertyOf(s, key);
    if (prop) {
      if (v !== undefined && v !== null && mayDefault(index, prop)) applyDefaults(index, v, prop);
    } else if (plan.additional) {
      applyDefaults(index, v, plan.additional);
    }
  }
}
