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
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import type { LabelSelector } from '../../apimachinery/labels.js';

/** %#v of a Go string: double-quoted with Go's escapes (JSON's are the same for what a client can send but \u2028). */
export const goQuote = (s: string): string => JSON.stringify(s);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const goStringMap = (m: unknown): string => {
  if (!isRecord(m)) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(String(m[k] ?? ''))}`).join(', ')}}`;
};

export const goStringSlice = (v: unknown): string =>
  (Array.isArray(v) ? `[]string{${v.map((s) => goQuote(String(s ?? ''))).join(', ')}}` : '[]string(nil)');

export const goInt32Slice = (v: unknown): string =>
  (Array.isArray(v) ? `[]int32{${v.map((n) => String(typeof n === 'number' ? n : 0)).join(', ')}}` : '[]int32(nil)');

const goRequirement = (r: unknown): string => {
  const o = isRecord(r) ? r : {};
  return `v1.LabelSelectorRequirement{Key:${goQuote(String(o.key ?? ''))}, Operator:${goQuote(String(o.operator ?? ''))}, Values:${goStringSlice(o.values)}}`;
};

/** A *metav1.LabelSelector as field.Invalid prints it (the pointer dereferenced; nil prints as null). */
export const goLabelSelector = (s: LabelSelector | null | undefined): string => {
  if (!isRecord(s)) return 'null';
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
