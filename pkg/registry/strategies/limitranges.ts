// LimitRanges (upstream: ValidateLimitRange in pkg/apis/core/validation): each item's type is Pod, Container,
// PersistentVolumeClaim or a qualified name, once per range; its resource names are container resources (Pod,
// Container) or resource names; a Pod item has no defaults, a PersistentVolumeClaim item bounds storage; and per
// resource min <= defaultRequest <= default <= max, 1 <= maxLimitRequestRatio <= max/min, and default equal to
// defaultRequest for resources that cannot be overcommitted. Quantities are quoted as Go's %#v prints them.
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue, required } from '../../apimachinery/field.js';
import { isQualifiedName } from '../../apimachinery/names.js';
import { compareQuantity, formatQuantity, quantityMilliValue, quantityValue, type Quantity } from '../../apimachinery/quantity.js';
import type { Strategy } from '../strategy.js';
import { invalidRaw, isObj, list, str } from '../validation/field-checks.js';
import { goQuantity } from '../validation/go-values.js';
import { isOvercommitAllowed, quantityOf, validateContainerResourceName, validateResourceName } from '../validation/resources.js';

const LIMIT_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);
/** resource.MaxMilliValue: math.MaxInt64 / 1000. */
const MAX_MILLI_VALUE = 9223372036854775;
const ONE: Quantity = { nanos: 1_000_000_000n, format: 'DecimalSI' };

interface Entry { raw: unknown; q: Quantity }
type Bound = Map<string, Entry>;

/** Go's %f of a float64. */
const goFloat = (v: number): string => (Number.isNaN(v) ? 'NaN' : v === Infinity ? '+Inf' : v === -Infinity ? '-Inf' : v.toFixed(6));

function validateTypeName(type: string, path: string, causes: StatusCause[]): void {
  const msgs = isQualifiedName(type);
  for (const m of msgs) causes.push(invalidValue(path, type, m));
  if (msgs.length === 0 && !type.includes('/') && !LIMIT_TYPES.has(type)) {
    causes.push(invalidValue(path, type, 'must be a standard limit type or fully qualified'));
  }
}

function collect(resources: unknown, type: string, path: string, keys: Set<string>, causes: StatusCause[]): Bound {
  const out: Bound = new Map();
  if (!isObj(resources)) return out;
  for (const name of Object.keys(resources)) {
    const at = `${path}[${name}]`;
    if (type === 'Pod' || type === 'Container') validateContainerResourceName(name, at, causes);
    else validateResourceName(name, at, causes);
    keys.add(name);
    const q = quantityOf(resources[name]);
    if (q) out.set(name, { raw: resources[name], q });
  }
  return out;
}

const nonEmpty = (v: unknown): boolean => isObj(v) && Object.keys(v).length > 0;

export function validateLimitRangeSpec(specValue: unknown): StatusCause[] {
  const spec = isObj(specValue) ? specValue : {};
  const causes: StatusCause[] = [];
  const types = new Set<string>();
  list(spec.limits).forEach((item, i) => {
    const limit = isObj(item) ? item : {};
    const idx = `spec.limits[${i}]`;
    const type = str(limit.type);
    validateTypeName(type, `${idx}.type`, causes);
    if (types.has(type)) causes.push(duplicate(`${idx}.type`, type));
    types.add(type);

    const keys = new Set<string>();
    const max = collect(limit.max, type, `${idx}.max`, keys, causes);
    const min = collect(limit.min, type, `${idx}.min`, keys, causes);
    let defaults: Bound = new Map();
    let defaultRequests: Bound = new Map();
    if (type === 'Pod') {
      if (nonEmpty(limit.default)) causes.push(forbidden(`${idx}.default`, "may not be specified when `type` is 'Pod'"));
      if (nonEmpty(limit.defaultRequest)) causes.push(forbidden(`${idx}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    } else {
      defaults = collect(limit.default, type, `${idx}.default`, keys, causes);
      defaultRequests = collect(limit.defaultRequest, type, `${idx}.defaultRequest`, keys, causes);
    }
    if (type === 'PersistentVolumeClaim') {
      const hasMin = isObj(limit.min) && Object.hasOwn(limit.min, 'storage');
      const hasMax = isObj(limit.max) && Object.hasOwn(limit.max, 'storage');
      if (!hasMin && !hasMax) causes.push(required(`${idx}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
    }
    const ratios = collect(limit.maxLimitRequestRatio, type, `${idx}.maxLimitRequestRatio`, keys, causes);

    for (const k of keys) {
      const mn = min.get(k);
      const mx = max.get(k);
      const df = defaults.get(k);
      const dr = defaultRequests.get(k);
      const ratio = ratios.get(k);
      const s = (e: Entry): string => formatQuantity(e.q);
      if (mn && mx && compareQuantity(mn.q, mx.q) > 0) {
        causes.push(invalidRaw(`${idx}.min[${k}]`, goQuantity(mn.raw), `min value ${s(mn)} is greater than max value ${s(mx)}`));
      }
      if (dr && mn && compareQuantity(mn.q, dr.q) > 0) {
        causes.push(invalidRaw(`${idx}.defaultRequest[${k}]`, goQuantity(dr.raw), `min value ${s(mn)} is greater than default request value ${s(dr)}`));
      }
      if (dr && mx && compareQuantity(dr.q, mx.q) > 0) {
        causes.push(invalidRaw(`${idx}.defaultRequest[${k}]`, goQuantity(dr.raw), `default request value ${s(dr)} is greater than max value ${s(mx)}`));
      }
      if (dr && df && compareQuantity(dr.q, df.q) > 0) {
        causes.push(invalidRaw(`${idx}.defaultRequest[${k}]`, goQuantity(dr.raw), `default request value ${s(dr)} is greater than default limit value ${s(df)}`));
      }
      if (df && mn && compareQuantity(mn.q, df.q) > 0) {
        causes.push(invalidRaw(`${idx}.default[${k}]`, goQuantity(mn.raw), `min value ${s(mn)} is greater than default value ${s(df)}`));
      }
      if (df && mx && compareQuantity(df.q, mx.q) > 0) {
        causes.push(invalidRaw(`${idx}.default[${k}]`, goQuantity(mx.raw), `default value ${s(df)} is greater than max value ${s(mx)}`));
      }
      if (ratio && compareQuantity(ratio.q, ONE) < 0) {
        causes.push(invalidRaw(`${idx}.maxLimitRequestRatio[${k}]`, goQuantity(ratio.raw), `ratio ${s(ratio)} is less than 1`));
      }
      if (ratio && mn && mx) {
        let ratioValue = quantityValue(ratio.q);
        let minValue = quantityValue(mn.q);
        let maxValue = quantityValue(mx.q);
        if (ratioValue < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
          ratioValue = quantityMilliValue(ratio.q) / 1000;
          minValue = quantityMilliValue(mn.q);
          maxValue = quantityMilliValue(mx.q);
        }
        const limitRatio = maxValue / minValue;
        if (ratioValue > limitRatio) {
          causes.push(invalidRaw(`${idx}.maxLimitRequestRatio[${k}]`, goQuantity(ratio.raw), `ratio ${s(ratio)} is greater than max/min = ${goFloat(limitRatio)}`));
        }
      }
      if (!isOvercommitAllowed(k) && df && dr && compareQuantity(df.q, dr.q) !== 0) {
        causes.push(invalidRaw(`${idx}.defaultRequest[${k}]`, goQuantity(dr.raw), `default value ${s(df)} must equal to defaultRequest value ${s(dr)} in ${k}`));
      }
    }
  });
  return causes;
}

export const limitRangeStrategy: Strategy = {
  validate: (lr) => validateLimitRangeSpec(lr.spec),
};
