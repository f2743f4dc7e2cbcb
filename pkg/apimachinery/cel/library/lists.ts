// Kubernetes' list library (upstream: apiserver/pkg/cel/library/lists.go: isSorted, sum, min, max, indexOf,
// lastIndexOf) and cel-go's sets extension (sets.contains, sets.equivalent, sets.intersects).
import { celFunc, celMethod, isCelList, isCelMap, isCelUint, listType, type CelFunc, type CelList, type CelValue } from '@bufbuild/cel';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { BOOL, DYN, INT } from './types.js';

const LIST = listType(DYN);

/** CEL's equality: numbers across int, uint and double; lists and maps element-wise; messages by their fields. */
export function celEquals(a: CelValue | undefined, b: CelValue | undefined): boolean {
  const num = (v: unknown): number | bigint | undefined => (typeof v === 'bigint' || typeof v === 'number' ? v : isCelUint(v) ? v.value : undefined);
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined) return typeof na === typeof nb ? na === nb : Number(na) === Number(nb);
  if (isCelList(a) && isCelList(b)) {
    if (a.size !== b.size) return false;
    for (let i = 0; i < a.size; i++) if (!celEquals(a.get(i), b.get(i))) return false;
    return true;
  }
  if (isCelMap(a) && isCelMap(b)) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !celEquals(v, b.get(k))) return false;
    return true;
  }
  if (isReflectMessage(a) && isReflectMessage(b)) return a.desc === b.desc && JSON.stringify(a.message) === JSON.stringify(b.message);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

function compare(a: CelValue, b: CelValue): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = isCelUint(a) ? a.value : a;
  const y = isCelUint(b) ? b.value : b;
  if ((typeof x === 'bigint' || typeof x === 'number') && (typeof y === 'bigint' || typeof y === 'number')) return x < y ? -1 : x > y ? 1 : 0;
  throw new Error(`no such overload: ${typeof a} < ${typeof b}`);
}

const items = (l: CelList): CelValue[] => [...l];

function extreme(l: CelList, name: string, better: (c: number) => boolean): CelValue {
  const xs = items(l);
  if (!xs.length) throw new Error(`${name} called on empty list`);
  return xs.reduce((m, x) => (better(compare(x, m)) ? x : m));
}

function sum(l: CelList): CelValue {
  const xs = items(l);
  if (!xs.length) return 0n;
  if (xs.every((x) => typeof x === 'bigint')) return (xs as bigint[]).reduce((a, b) => a + b, 0n);
  if (xs.every((x) => typeof x === 'number')) return (xs as number[]).reduce((a, b) => a + b, 0);
  throw new Error('no such overload: sum');
}

const indexOf = (l: CelList, v: CelValue, last: boolean): bigint => {
  const xs = items(l);
  const order = last ? xs.map((_, i) => xs.length - 1 - i) : xs.map((_, i) => i);
  return BigInt(order.find((i) => celEquals(xs[i], v)) ?? -1);
};

const contains = (a: CelList, b: CelList): boolean => items(b).every((x) => items(a).some((y) => celEquals(x, y)));

export const listFuncs: CelFunc[] = [
  celMethod('isSorted', LIST, [], BOOL, function () {
    const xs = items(this);
    return xs.every((x, i) => i === 0 || compare(xs[i - 1]!, x) <= 0);
  }),
  celMethod('sum', LIST, [], DYN, function () { return sum(this) as never; }),
  celMethod('min', LIST, [], DYN, function () { return extreme(this, 'min', (c) => c < 0) as never; }),
  celMethod('max', LIST, [], DYN, function () { return extreme(this, 'max', (c) => c > 0) as never; }),
  celMethod('indexOf', LIST, [DYN], INT, function (v) { return indexOf(this, v, false); }),
  celMethod('lastIndexOf', LIST, [DYN], INT, function (v) { return indexOf(this, v, true); }),
  celFunc('sets.contains', [LIST, LIST], BOOL, (a, b) => contains(a, b)),
  celFunc('sets.equivalent', [LIST, LIST], BOOL, (a, b) => contains(a, b) && contains(b, a)),
  celFunc('sets.intersects', [LIST, LIST], BOOL, (a, b) => items(a).some((x) => items(b).some((y) => celEquals(x, y)))),
];
