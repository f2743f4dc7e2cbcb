// Go's %#v of the values upstream's field errors quote when they are not plain scalars (field.Error.ErrorBody falls
// back to %#v for structs, maps and slices of the internal API types):
//
//   goStringMap({a: 'b'})          -> map[string]string{"a":"b"}          (nil: map[string]string(nil))
//   goLabelSelector(sel)           -> v1.LabelSelector{MatchLabels:..., MatchExpressions:...}
//   goIntOrString(5), ('25%')      -> intstr.IntOrString{Type:0, IntVal:5, StrVal:""}
//   goInt32Slice([1, 2])           -> []int32{1, 2}                       (nil: []int32(nil))
//   goStringSlice(['a'])           -> []string{"a"}                       (nil: []string(nil))
//   goStruct('apps.DeploymentStrategy', [['Type', '"x"'], ...]) -> apps.DeploymentStrategy{Type:"x", ...}
//   goPointer('apps.RollingUpdateDeployment', present) -> (*apps.RollingUpdateDeployment)(nil) or (0xc000010000)
//   goTime('2026-12-04T16:00:00Z') -> 2026-12-04 16:00:00 +0000 UTC        (a metav1.Time's String(), in UTC)
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import type { LabelSelector } from '../../apimachinery/labels.js';
import { isObj } from './field-checks.js';

/** %#v of a Go string: double-quoted with Go's escapes (JSON's are the same for what a client can send but \u2028). */
export const goQuote = (s: string): string => JSON.stringify(s);


export const goStringMap = (m: unknown): string => {
  if (!isObj(m)) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(String(m[k] ?? ''))}`).join(', ')}}`;
};

export const goStringSlice = (v: unknown): string =>
  (Array.isArray(v) ? `[]string{${v.map((s) => goQuote(String(s ?? ''))).join(', ')}}` : '[]string(nil)');

export const goInt32Slice = (v: unknown): string =>
  (Array.isArray(v) ? `[]int32{${v.map((n) => String(typeof n === 'number' ? n : 0)).join(', ')}}` : '[]int32(nil)');

const goRequirement = (r: unknown): string => {
  const o = isObj(r) ? r : {};
  return `v1.LabelSelectorRequirement{Key:${goQuote(String(o.key ?? ''))}, Operator:${goQuote(String(o.operator ?? ''))}, Values:${goStringSlice(o.values)}}`;
};

/** A *metav1.LabelSelector as field.Invalid prints it (the pointer dereferenced; nil prints as null). */
export const goLabelSelector = (s: LabelSelector | null | undefined): string => {
  if (!isObj(s)) return 'null';
  const exprs = s.matchExpressions;
  const renderedExprs = Array.isArray(exprs)
    ? `[]v1.LabelSelectorRequirement{${exprs.map(goRequirement).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${renderedExprs}}`;
};

/** An intstr.IntOrString (a JSON number is Type 0, a string Type 1). */
export const goIntOrString = (v: unknown): string => (typeof v === 'string'
  ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`
  : `intstr.IntOrString{Type:0, IntVal:${typeof v === 'number' ? v : 0}, StrVal:""}`);

/** A struct: `name{Field:value, ...}`, each value already rendered. */
export const goStruct = (name: string, fields: [string, string][]): string =>
  `${name}{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`;

/** A pointer field inside a struct: nil, or an address (whose digits upstream prints vary from run to run). */
export const goPointer = (type: string, present: boolean): string => `(*${type})(${present ? '0xc000010000' : 'nil'})`;

/** A metav1.Time as its String() prints it: decoded to the apiserver's local zone, which is UTC. */
export const goTime = (rfc3339: string): string => {
  const d = new Date(rfc3339);
  if (Number.isNaN(d.getTime())) return rfc3339;
  const fraction = /\.(\d+)/.exec(rfc3339)?.[1]?.replace(/0+$/, '');
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}${fraction ? `.${fraction}` : ''} +0000 UTC`;
};

/** field.Invalid with a value already rendered as Go would print it. */
export const invalidRendered = (field: string, rendered: string, detail: string): StatusCause =>
  fieldCause('FieldValueInvalid', field, detail ? `Invalid value: ${rendered}: ${detail}` : `Invalid value: ${rendered}`);

/** field.NotSupported with a value already rendered. */
export const notSupportedRendered = (field: string, rendered: string, valid: readonly string[]): StatusCause =>
  fieldCause('FieldValueNotSupported', field, `Unsupported value: ${rendered}: supported values: ${valid.map((v) => goQuote(v)).join(', ')}`);

/** field.Invalid with field.OmitValueType{}: the body names no value. */
export const invalidOmitted = (field: string, detail: string): StatusCause => fieldCause('FieldValueInvalid', field, `Invalid value: ${detail}`);

/** field.TooMany(field, actual, max): "Too many: 21: must have at most 20 items". */
export const tooMany = (field: string, actual: number, max: number): StatusCause =>
  ({ reason: 'FieldValueTooMany', field, message: `Too many: ${actual}: must have at most ${max} items` });

const BINARY_EXP: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_EXP: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const QUANTITY_TEXT = /^([+-]?)0*(\d*)(?:\.(\d*))?(.*)$/;
const MAX_INT64 = 9223372036854775807n;

/**
 * %#v of a resource.Quantity as resource.ParseQuantity left it (what a decoded object's quantities are when a field
 * error quotes one whole: Quantity's String() has a pointer receiver, so the struct is printed):
 *   "2"   -> resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2", Format:"DecimalSI"}
 * The int64 fast path keeps the text in `s` only when it is already canonical; values off the fast path are inf.Decs.
 */
export const goQuantity = (raw: unknown): string => {
  const text = String(raw ?? '').trim();
  const m = QUANTITY_TEXT.exec(text);
  const render = (value: bigint, scale: number, s: string, format: string): string =>
    `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:${goQuote(s)}, Format:${goQuote(format)}}`;
  const slow = (format: string): string =>
    `resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(0xc000010000)}, s:"", Format:${goQuote(format)}}`;
  if (!m) return slow('DecimalSI');
  const [, sign = '', numRaw = '', denom = '', suffix = ''] = m;
  const num = numRaw === '' ? '0' : numRaw;
  const negative = sign === '-';
  let format: string;
  let exponent: number;
  let mantissa = 1n;
  let precision: number;
  if (suffix in BINARY_EXP) {
    format = 'BinarySI';
    exponent = BINARY_EXP[suffix]!;
    if (denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    } else {
      precision = -1;
    }
  } else {
    if (suffix in DECIMAL_EXP) {
      format = 'DecimalSI';
      exponent = DECIMAL_EXP[suffix]!;
    } else {
      format = 'DecimalExponent';
      exponent = Number(suffix.slice(1));
    }
    precision = 18 - (num.length + denom.length);
  }
  if (precision < 0) return slow(format);
  const scale = (format === 'BinarySI' ? 0 : exponent) - denom.length;
  if (scale < -9) return slow(format);
  const shifted = num + denom;
  const value = BigInt(shifted) * mantissa;
  if (value > MAX_INT64) return slow(format);
  const canonical = format === 'BinarySI'
    ? exponent % 10 === 0 && (BigInt(shifted) & 7n) !== 0n
    : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  return render(negative ? -value : value, scale, canonical ? text : '', format);
};
