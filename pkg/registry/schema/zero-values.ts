// Go's zero values, written as upstream's JSON encoding writes them (api/go-zero-values.ts): after decoding and
// defaulting, an absent struct field becomes `{}` (and gets its own zero values), an absent metav1.Time becomes
// `null`, an absent scalar without omitempty its zero. A Python or JavaScript client then reads `status: {}` and
// `lastState: {}` where a cluster has them instead of null, and `kubectl get -o yaml` shows what it shows there.
// A required number or boolean outside the status is left absent (0 and false would pass for a value): validation
// reports it (upstream's does the same for a zero value), unless the kind's own validation is all of upstream's (a CRD
// version without `served` is `served: false`) or upstream's accepts the zero (required.ts: an iSCSI lun); a status,
// the controllers' report, is not checked for them (required.ts) and gets its zeros (`status: {replicas: 0}`). A
// required struct is written like any other: Go's decoder always makes it, and upstream's validation looks inside it
// (a NetworkPolicy without podSelector selects every pod; a RoleBinding without roleRef is refused for roleRef.kind
// and roleRef.name, never for roleRef; a Deployment without template for its containers). A pointer, list or map that
// Go writes as null while nil ('nil') is null (a Role's `rules: null`, an autoscaling/v2 status's `currentMetrics:
// null`), required or not: null is absent to the required-field check, to pruning (which drops a null the client
// sent: this writes it again) and to the protobuf encoding. An IntOrString or a Quantity is written at its zero (`port: 0`, `divisor: "0"`),
// required or not: a zero port is no value and validation says so (upstream's "Invalid value: 0").
import { scalarZero } from '../../../api/go-zero-objects.js';
import { goZeroValues, type ZeroValue } from '../../../api/go-zero-values.js';
import type { Schema } from '../../../api/schema.js';
import { applyDefaults } from './defaults.js';
import { isPlainObject, type Resolved, type SchemaIndex } from './index.js';
import { checkedByOwnValidation, zeroAccepted } from './required.js';

/** The zero values written of a definition's absent fields. */
const writtenZeros = (name: string | undefined): [string, ZeroValue][] => Object.entries((name && goZeroValues[name]) || {});
const ownZeros = (r: Resolved): boolean => r.name !== undefined && goZeroValues[r.name] !== undefined;
/** Scalar types whose zero would pass for a value of a required field. */
const COUNTED = new Set(['integer', 'number', 'boolean']);
const QUESTION = 'zero-values';

/** What one schema node writes and where its walk goes on: computed once per node. */
interface Plan {
  /**
   * Zero values of absent fields: [field, kind, its zero (a struct's is made afresh each time), left to validation
   * outside a status, the property schema as written (its definition's defaulter found through it)].
   */
  zeros: [string, ZeroValue, unknown, boolean, Schema][];
  /** Properties below which something may be written. */
  children: [string, Schema][];
  items?: Schema;
  additional?: Schema;
}

/** Plans by schema node, per index (null: nothing to write below the node). */
type Plans = WeakMap<Schema, Plan | null>;
const plansByIndex = new WeakMap<SchemaIndex, Plans>();

function plansOf(index: SchemaIndex): Plans {
  let plans = plansByIndex.get(index);
  if (!plans) plansByIndex.set(index, (plans = new WeakMap()));
  return plans;
}

function planOf(index: SchemaIndex, plans: Plans, schema: Schema): Plan | null {
  // by the node a reference resolves to
  const { schema: s, name } = index.resolve(schema);
  const known = plans.get(s);
  if (known !== undefined) return known;
  let plan: Plan | null = null;
  if (index.anyBelow(s, QUESTION, ownZeros)) {
    const below = (c: Schema | undefined): Schema | undefined => (c && index.anyBelow(c, QUESTION, ownZeros) ? c : undefined);
    plan = {
      zeros: writtenZeros(name).flatMap(([key, kind]): Plan['zeros'] => {
        const property = s.properties?.[key];
        if (!property) return [];
        const { schema: p, name: def } = index.resolve(property);
        // null and "" are absent to the required-field check (required.ts), and validation looks inside a struct's {}:
        // only a number's or a boolean's zero would pass for a value, and waits
        const counts = kind === 'zero' && COUNTED.has(p.type ?? '');
        const zero = kind === 'null' || kind === 'nil' ? null : kind === 'struct' ? undefined : scalarZero(p.type, def);
        const validated = counts && !checkedByOwnValidation(name!) && !zeroAccepted(name, key) && (s.required?.includes(key) ?? false);
        return [[key, kind, zero, validated, property]];
      }),
      children: index.propertiesBelow(s, QUESTION, ownZeros),
      items: below(s.items),
      additional: below(isPlainObject(s.additionalProperties) ? s.additionalProperties as Schema : undefined),
    };
  }
  plans.set(s, plan);
  return plan;
}

/**
 * Writes the zero values into `obj`, an object of the definition `schema` names (its root: `status` is found
 * there). Below the root nothing is written into: a merge patch's result shares the stored object's parts, so a
 * part that lacks a zero value (stored before it was written) is copied.
 */
export function fillZeroValues(index: SchemaIndex, obj: Record<string, unknown>, schema: Schema): void {
  const plans = plansOf(index);
  const plan = planOf(index, plans, schema);
  if (!plan) return;
  const out = filledObject(index, plans, obj, plan, false, true);
  if (out !== obj) Object.assign(obj, out);
}

/** `value` with its zero values: the same reference when it has them all, else a copy. */
function filled(index: SchemaIndex, plans: Plans, value: unknown, schema: Schema, inStatus: boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  const plan = planOf(index, plans, schema);
  if (!plan) return value;
  if (Array.isArray(value)) {
    if (!plan.items) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = filled(index, plans, value[i], plan.items, inStatus);
      if (item !== value[i]) (out ??= [...value])[i] = item;
    }
    return out ?? value;
  }
  return isPlainObject(value) ? filledObject(index, plans, value, plan, inStatus, false) : value;
}

function filledObject(index: SchemaIndex, plans: Plans, value: Record<string, unknown>, plan: Plan, inStatus: boolean, root: boolean): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, kind, scalar, required, written] of plan.zeros) {
    if (value[key] !== undefined || (required && !inStatus)) continue;
    let zero = scalar;
    if (kind === 'struct') {
      zero = {};
      // Go's decoder made the struct, so upstream's defaulting filled it (a template without spec has restartPolicy
      // Always, and only its containers are missing)
      applyDefaults(index, zero, written);
    }
    if (zero !== undefined) (out ??= { ...value })[key] = zero;
  }
  const target = out ?? value;
  for (const [key, property] of plan.children) {
    const v = target[key];
    if (v === undefined) continue;
    const f = filled(index, plans, v, property, inStatus || (root && key === 'status'));
    if (f !== v) (out ??= { ...value })[key] = f;
  }
  if (plan.additional) {
    for (const key in target) {
      const v = target[key];
      const f = filled(index, plans, v, plan.additional, inStatus);
      if (f !== v) (out ??= { ...value })[key] = f;
    }
  }
  return out ?? value;
}
