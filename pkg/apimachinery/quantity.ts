// resource.Quantity as upstream's k8s.io/apimachinery/pkg/api/resource: exact values (kept as a BigInt
// count of nano-units, rounded up as upstream rounds anything finer) and canonical formatting.
//
//   parseQuantity(s: string): Quantity          // throws QuantityError with upstream's message
//   formatQuantity(q: Quantity): string         // canonical: "1500m", "1536Mi", "12e6", "1k"
//   canonicalQuantity(s: string): string        // parse + format
//   compareQuantity(a, b): -1 | 0 | 1
//   addQuantity(a, b), subQuantity(a, b): Quantity   // keeps a's format (b's when a is zero), as Add does
//   quantityValue(q): number                    // rounded up to an integer, as Value()
//   quantityMilliValue(q): number               // rounded up to milli-units, as MilliValue()
//   quantityToNumber(q): number                 // as a float
//   quantityFromMilli(milli: number, format?), quantityFromNumber(value: number, format?): Quantity

export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9. */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

export class QuantityError extends Error {
  override name = 'QuantityError';
}

const QUANTITY_REGEX = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const ERR_FORMAT = `quantities must match the regular expression '${QUANTITY_REGEX}'`;
const ERR_SUFFIX = "unable to parse quantity's suffix";
const SPLIT = new RegExp(QUANTITY_REGEX);
const NANO = 1_000_000_000n;
const MAX_EXPONENT = 1000;

const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_BY_EXP = Object.fromEntries(Object.entries(DECIMAL).map(([s, e]) => [e, s])) as Record<number, string>;
const BINARY_NAMES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

const pow = (base: bigint, exp: number): bigint => base ** BigInt(exp);

/** numerator / denominator, rounded away from zero (inf.RoundUp). */
const divUp = (num: bigint, den: bigint): bigint => {
  const q = num / den;
  if (q * den === num) return q;
  return num < 0n ? q - 1n : q + 1n;
};

const abs = (v: bigint): bigint => (v < 0n ? -v : v);

/**
 * `f` remembering its results by their text, cleared when full; what throws is not kept. Objects repeat a handful of
 * quantities ("100m", "128Mi"), which a pod's decoding, validation and warnings each parse: the BigInt arithmetic
 * took 5% of a pod's create.
 */
const byText = <T>(f: (s: string) => T, kept = 4096): ((s: string) => T) => {
  const known = new Map<string, T>();
  return (s) => {
    let v = known.get(s);
    if (v === undefined) {
      v = f(s);
      if (known.size >= kept) known.clear();
      known.set(s, v);
    }
    return v;
  };
};

/** Shared, so frozen. */
export const parseQuantity = byText((s: string): Quantity => Object.freeze(parseUncached(s)));

const parseUncached = (s: string): Quantity => {
  const m = SPLIT.exec(s);
  if (!m) throw new QuantityError(ERR_FORMAT);
  const [, num, suffix] = m;
  const negative = num.startsWith('-');
  const digits = num.replace(/^[+-]/, '');
  const parts = digits.split('.');
  if (parts.length > 2 || parts.join('') === '') throw new QuantityError(ERR_FORMAT);
  const [whole, frac = ''] = parts;
  let numerator = BigInt(`${whole}${frac}` || '0') * NANO;
  let denominator = pow(10n, frac.length);

  let format: QuantityFormat;
  if (suffix in BINARY) {
    format = 'BinarySI';
    numerator *= pow(2n, BINARY[suffix]);
  } else {
    let exp: number;
    if (suffix in DECIMAL) {
      format = 'DecimalSI';
      exp = DECIMAL[suffix];
    } else if (/^[eE][-+]?[0-9]+$/.test(suffix)) {
      format = 'DecimalExponent';
      exp = Number(suffix.slice(1));
      if (Math.abs(exp) > MAX_EXPONENT) throw new QuantityError(ERR_FORMAT);
    } else {
      throw new QuantityError(ERR_SUFFIX);
    }
    if (exp >= 0) numerator *= pow(10n, exp);
    else denominator *= pow(10n, -exp);
  }
  const nanos = divUp(numerator, denominator);
  return { nanos: negative ? -nanos : nanos, format };
};

/** The largest multiple-of-3 exponent that keeps the mantissa whole. */
const decimalParts = (nanos: bigint): [bigint, number] => {
  if (nanos === 0n) return [0n, 0];
  let mantissa = nanos;
  let exp = -9;
  while (mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exp += 3;
  }
  return [mantissa, exp];
};

export const formatQuantity = (q: Quantity): string => {
  const { nanos } = q;
  let format = q.format;
  if (format === 'BinarySI' && (abs(nanos) < 1024n * NANO || nanos % NANO !== 0n)) format = 'DecimalSI';
  if (format === 'BinarySI') {
    let n = nanos / NANO;
    let k = 0;
    while (k < BINARY_NAMES.length - 1 && n % 1024n === 0n) {
      n /= 1024n;
      k++;
    }
    return `${n}${BINARY_NAMES[k]}`;
  }
  let [mantissa, exp] = decimalParts(nanos);
  if (format === 'DecimalExponent') return exp === 0 ? `${mantissa}` : `${mantissa}e${exp}`;
  if (exp > 18) {
    mantissa *= pow(10n, exp - 18);
    exp = 18;
  }
  return `${mantissa}${DECIMAL_BY_EXP[exp]}`;
};

export const canonicalQuantity = byText((s: string): string => formatQuantity(parseQuantity(s)));

export const compareQuantity = (a: Quantity, b: Quantity): -1 | 0 | 1 => (a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0);

export const addQuantity = (a: Quantity, b: Quantity): Quantity =>
  ({ nanos: a.nanos + b.nanos, format: a.nanos === 0n ? b.format : a.format });

export const subQuantity = (a: Quantity, b: Quantity): Quantity =>
  ({ nanos: a.nanos - b.nanos, format: a.nanos === 0n ? b.format : a.format });

export const quantityValue = (q: Quantity): number => Number(divUp(q.nanos, NANO));

export const quantityMilliValue = (q: Quantity): number => Number(divUp(q.nanos, 1_000_000n));

export const quantityToNumber = (q: Quantity): number => Number(q.nanos) / 1e9;

export const quantityFromMilli = (milli: number, format: QuantityFormat = 'DecimalSI'): Quantity =>
  ({ nanos: BigInt(Math.round(milli)) * 1_000_000n, format });

export const quantityFromNumber = (value: number, format: QuantityFormat = 'DecimalSI'): Quantity =>
  (Number.isInteger(value) ? { nanos: BigInt(value) * NANO, format } : { nanos: BigInt(Math.ceil(value * 1e9)), format });
