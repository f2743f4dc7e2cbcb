// CEL's optional values as functions (cel-go's OptionalTypes: optional.of, optional.none, optional.ofNonZeroValue,
// hasValue, value, orValue, or); the `.?`, `[?`, `[?x]` and `{?k: v}` syntax is ../optional-syntax.ts.
import { celFunc, celMethod, isCelList, isCelMap, type CelFunc, type CelInput } from '@bufbuild/cel';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { BOOL, DYN, OPTIONAL_TYPE, optionalNone, optionalOf, optionalPresent, optionalValue } from './types.js';

const isZero = (v: unknown): boolean =>
  v === null || v === false || v === '' || v === 0n || v === 0 || (v instanceof Uint8Array && v.length === 0)
  || ((isCelList(v) || isCelMap(v)) && v.size === 0) || (isReflectMessage(v) && Object.keys(v.message).length <= 1);

export const optionalFuncs: CelFunc[] = [
  celFunc('optional.of', [DYN], OPTIONAL_TYPE, (v) => optionalOf(v)),
  celFunc('optional.none', [], OPTIONAL_TYPE, () => optionalNone()),
  celFunc('optional.ofNonZeroValue', [DYN], OPTIONAL_TYPE, (v) => (isZero(v) ? optionalNone() : optionalOf(v))),
  celMethod('hasValue', OPTIONAL_TYPE, [], BOOL, function () { return optionalPresent(this); }),
  celMethod('value', OPTIONAL_TYPE, [], DYN, function () {
    if (!optionalPresent(this)) throw new Error('optional.none() dereference');
    return optionalValue(this) as CelInput;
  }),
  celMethod('orValue', OPTIONAL_TYPE, [DYN], DYN, function (v) { return (optionalPresent(this) ? optionalValue(this) : v) as CelInput; }),
  celMethod('or', OPTIONAL_TYPE, [OPTIONAL_TYPE], OPTIONAL_TYPE, function (o) { return optionalPresent(this) ? this.message : o.message; }),
];
