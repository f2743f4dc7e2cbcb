// The standard conversions between strings and numbers, booleans and times as cel-go makes them, with Go's strconv
// and time: int() and uint() read base-10 digits alone (ParseInt, ParseUint: no spaces, no 0x, no sign on a uint),
// double() Go's float syntax (ParseFloat: "inf", "Infinity" and "NaN" as well, an overflow an error), bool() the words
// ParseBool knows ("T" and "F" too); string() of a double is FormatFloat's shortest 'g' (1e+06, +Inf), of a duration
// its seconds in decimal ("-1.5s"), of a timestamp RFC 3339 with its fraction trimmed (".5Z"). What does not parse is
// cel-go's "type conversion error from 'string' to '<type>'". @bufbuild/cel's own casts, which these replace (same
// overloads), follow JavaScript's Number(), BigInt() and protobuf JSON.
import { CelScalar, celFunc, celUint, objectType, type CelFunc } from '@bufbuild/cel';
import { DurationSchema, TimestampSchema, type Duration, type Timestamp } from '@bufbuild/protobuf/wkt';

const { BOOL, DOUBLE, INT, STRING, UINT } = CelScalar;
const MAX_INT = 2n ** 63n - 1n;
const MAX_UINT = 2n ** 64n - 1n;

const conversionError = (to: string): Error => new Error(`type conversion error from 'string' to '${to}'`);

const DECIMAL_FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)$/;
const INFINITY = /^([+-]?)(inf|infinity)$/i;

/** strconv.ParseFloat(s, 64), an overflow (±Inf with ErrRange) an error as well. */
function parseFloat64(s: string): number {
  if (/^nan$/i.test(s)) return Number.NaN;
  const inf = INFINITY.exec(s);
  if (inf) return inf[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  let n: number | undefined;
  if (DECIMAL_FLOAT.test(s)) n = Number(s);
  const hex = HEX_FLOAT.exec(s);
  if (hex && (hex[2] || hex[3])) {
    const mantissa = Number.parseInt(`${hex[2]}${hex[3]}` || '0', 16);
    n = (hex[1] === '-' ? -1 : 1) * mantissa * 2 ** (Number(hex[4]) - 4 * hex[3]!.length);
  }
  if (n === undefined || !Number.isFinite(n)) throw conversionError('double');
  return n;
}

/** strconv.FormatFloat(f, 'g', -1, 64): the shortest digits, in exponent form below 1e-4 and from 1e+06 on. */
function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, exp] = f.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(f);
}

/** Nanoseconds as a fraction with its trailing zeros trimmed: ".5", or nothing for none. */
const fraction = (nanos: number): string => (nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`);

/** cel-go's string of a duration: its seconds as FormatFloat 'f' writes them, then "s". */
const durationString = (d: { message: Duration }): string => {
  const { seconds, nanos } = d.message;
  const negative = seconds < 0n || nanos < 0;
  const whole = seconds < 0n ? -seconds : seconds;
  return `${negative ? '-' : ''}${whole}${fraction(Math.abs(nanos))}s`;
};

/** cel-go's string of a timestamp: time.RFC3339Nano in UTC. */
const timestampString = (t: { message: Timestamp }): string =>
  `${new Date(Number(t.message.seconds) * 1000).toISOString().slice(0, 19)}${fraction(t.message.nanos)}Z`;

const BOOLS: Record<string, boolean> = { 1: true, t: true, T: true, TRUE: true, true: true, True: true, 0: false, f: false, F: false, FALSE: false, false: false, False: false };

export const stringCastFuncs: CelFunc[] = [
  celFunc('int', [STRING], INT, (s: string) => {
    const n = /^[+-]?\d+$/.test(s) ? BigInt(s) : undefined;
    if (n === undefined || n > MAX_INT || n < -MAX_INT - 1n) throw conversionError('int');
    return n;
  }),
  celFunc('uint', [STRING], UINT, (s: string) => {
    const n = /^\d+$/.test(s) ? BigInt(s) : undefined;
    if (n === undefined || n > MAX_UINT) throw conversionError('uint');
    return celUint(n);
  }),
  celFunc('double', [STRING], DOUBLE, parseFloat64),
  celFunc('bool', [STRING], BOOL, (s: string) => {
    if (!Object.hasOwn(BOOLS, s)) throw conversionError('bool');
    return BOOLS[s]!;
  }),
  celFunc('string', [DOUBLE], STRING, goFormatFloat),
  celFunc('string', [objectType(DurationSchema)], STRING, durationString),
  celFunc('string', [objectType(TimestampSchema)], STRING, timestampString),
];
