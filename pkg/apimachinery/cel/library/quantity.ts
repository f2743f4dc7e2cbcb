// Kubernetes' quantity library (upstream: apiserver/pkg/cel/library/quantity.go). A quantity is carried as its
// value in nano units, so quantity("1Ki") == quantity("1024") as upstream's Equal compares values.
import { celFunc, celMethod, type CelFunc } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { parseQuantity } from '../../quantity.js';
import { BOOL, DOUBLE, INT, QUANTITY_TYPE, STRING } from './types.js';

const NANO = 1_000_000_000n;
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

const nanos = (v: ReflectMessage): bigint => BigInt(QUANTITY_TYPE.text(v));
const of = (n: bigint) => QUANTITY_TYPE.of(n.toString());
const Q = QUANTITY_TYPE.type;

export const quantityFuncs: CelFunc[] = [
  celFunc('quantity', [STRING], Q, (s) => of(parseQuantity(s).nanos)),
  celFunc('isQuantity', [STRING], BOOL, (s) => {
    try {
      parseQuantity(s);
      return true;
    } catch {
      return false;
    }
  }),
  celMethod('sign', Q, [], INT, function () { const n = nanos(this); return n > 0n ? 1n : n < 0n ? -1n : 0n; }),
  celMethod('isInteger', Q, [], BOOL, function () {
    const n = nanos(this);
    return n % NANO === 0n && n / NANO <= MAX_INT64 && n / NANO >= MIN_INT64;
  }),
  celMethod('asInteger', Q, [], INT, function () {
    const n = nanos(this);
    if (n % NANO !== 0n || n / NANO > MAX_INT64 || n / NANO < MIN_INT64) throw new Error('cannot convert value to integer');
    return n / NANO;
  }),
  celMethod('asApproximateFloat', Q, [], DOUBLE, function () { return Number(nanos(this)) / 1e9; }),
  celMethod('add', Q, [Q], Q, function (o) { return of(nanos(this) + nanos(o)); }),
  celMethod('add', Q, [INT], Q, function (i) { return of(nanos(this) + i * NANO); }),
  celMethod('sub', Q, [Q], Q, function (o) { return of(nanos(this) - nanos(o)); }),
  celMethod('sub', Q, [INT], Q, function (i) { return of(nanos(this) - i * NANO); }),
  celMethod('isLessThan', Q, [Q], BOOL, function (o) { return nanos(this) < nanos(o); }),
  celMethod('isGreaterThan', Q, [Q], BOOL, function (o) { return nanos(this) > nanos(o); }),
  celMethod('compareTo', Q, [Q], INT, function (o) { const a = nanos(this); const b = nanos(o); return a < b ? -1n : a > b ? 1n : 0n; }),
];
