// metav1.Time and metav1.MicroTime as upstream's decoder reads them: Go's time.Parse with time.RFC3339
// ("2006-01-02T15:04:05Z07:00") or RFC3339Micro ("2006-01-02T15:04:05.000000Z07:00"), its error words included.
// What Go's parser takes, here too: a one-digit hour, a fraction after the seconds of any length where the layout has
// none (RFC3339; cut to nanoseconds), exactly six digits where it has ".000000" (',' for '.' either way), an offset
// up to ±24:60; a time is written back in UTC to the second or with six decimals, and the zero instant as null.
//
//   parseMetaTime(value, micro): GoInstant | string    // the instant, or Go's *time.ParseError text
//   formatMetaTime(t, micro): string | null            // Time.UTC().Format of the layout; null at the zero time

export interface GoInstant {
  /** Seconds since the Unix epoch. */
  seconds: number;
  nanos: number;
}

const RFC3339 = '2006-01-02T15:04:05Z07:00';
const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

type Field = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micros' | 'zone';
/** A layout's element: the literal before it, its field, and the layout's text for it. */
type Element = [prefix: string, field: Field, text: string];

const DATE_AND_CLOCK: Element[] = [['', 'year', '2006'], ['-', 'month', '01'], ['-', 'day', '02'], ['T', 'hour', '15'], [':', 'minute', '04'], [':', 'second', '05']];
const ZONE: Element = ['', 'zone', 'Z07:00'];
const RFC3339_ELEMENTS: Element[] = [...DATE_AND_CLOCK, ZONE];
const MICRO_ELEMENTS: Element[] = [...DATE_AND_CLOCK, ['', 'micros', '.000000'], ZONE];

/** Go's quote(): bytes below ' ' or above '~' as \xNN, '"' and '\' escaped. `s` holds one byte per character. */
const quote = (s: string): string =>
  `"${s.replace(/[\x00-\x1f\x80-\xff"\\]/g, (c) => (c === '"' || c === '\\' ? `\\${c}` : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`))}"`;

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's getnum: one or two digits (`fixed`: two), with the rest; undefined where there are none. */
function twoDigits(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

/** Go's atoi: an optional sign, then digits only. */
const atoi = (s: string): number | undefined => (/^[+-]?\d*$/.test(s) ? Number(s.replace(/^\+/, '')) || 0 : undefined);

/** Go's parseNanoseconds of `value` (a separator and digits) of `n` bytes; a range error's name as a string. */
function nanoseconds(value: string, n: number): number | string | undefined {
  if (value[0] !== '.' && value[0] !== ',') return undefined;
  const digits = value.slice(1, Math.min(n, 10));
  const ns = atoi(digits);
  if (ns === undefined) return undefined;
  if (ns < 0) return 'fractional second';
  return ns * 10 ** (9 - digits.length);
}

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const DAYS_IN = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (month: number, year: number): number => (month === 2 && isLeap(year) ? 29 : DAYS_IN[month - 1]!);

/** Days from 1970-01-01 to a proleptic Gregorian date (year 0 and before included). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, doy - Math.floor((153 * mp + 2) / 5) + 1];
}

/** Go's time.Parse of `value` with RFC3339 (or RFC3339Micro): the instant, or the error's text. */
export function parseMetaTime(value: string, micro: boolean): GoInstant | string {
  // Go reads bytes: a non-ASCII character is its UTF-8 bytes, each quoted as \xNN
  const v = /[^\x00-\x7f]/.test(value) ? Buffer.from(value, 'utf8').toString('latin1') : value;
  const layout = micro ? RFC3339_MICRO : RFC3339;
  const cannotParse = (valueElem: string, layoutElem: string): string =>
    `parsing time ${quote(v)} as ${quote(layout)}: cannot parse ${quote(valueElem)} as ${quote(layoutElem)}`;
  const outOfRange = (what: string): string => `parsing time ${quote(v)}: ${what} out of range`;
  let rest = v;
  let year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, nanos = 0, offset = 0;
  for (const [prefix, field, text] of micro ? MICRO_ELEMENTS : RFC3339_ELEMENTS) {
    if (prefix && rest[0] !== prefix) return cannotParse(rest, prefix);
    rest = rest.slice(prefix.length);
    const hold = rest;
    let ok = true;
    let range = '';
    switch (field) {
      case 'year': {
        const y = rest.length >= 4 && isDigit(rest, 0) ? atoi(rest.slice(0, 4)) : undefined;
        if (y === undefined) ok = false;
        else [year, rest] = [y, rest.slice(4)];
        break;
      }
      case 'month': case 'day': case 'minute': case 'second': case 'hour': {
        const got = twoDigits(rest, field !== 'hour');
        if (!got) {
          ok = false;
          break;
        }
        const n = got[0];
        rest = got[1];
        if (field === 'month') [month, range] = [n, n < 1 || n > 12 ? 'month' : ''];
        else if (field === 'day') day = n;
        else if (field === 'hour') [hour, range] = [n, n >= 24 ? 'hour' : ''];
        else if (field === 'minute') [minute, range] = [n, n >= 60 ? 'minute' : ''];
        else if (n >= 60) range = 'second';
        else {
          second = n;
          // RFC3339 has no fraction: Go takes one after the seconds all the same
          if (!micro && rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
            let end = 2;
            while (isDigit(rest, end)) end++;
            nanos = nanoseconds(rest, end) as number;
            rest = rest.slice(end);
          }
        }
        break;
      }
      case 'micros': {
        const ns = rest.length >= 7 ? nanoseconds(rest, 7) : undefined;
        if (ns === undefined) ok = false;
        else if (typeof ns === 'string') range = ns;
        else [nanos, rest] = [ns, rest.slice(7)];
        break;
      }
      case 'zone': {
        if (rest[0] === 'Z') {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || rest[3] !== ':') {
          ok = false;
          break;
        }
        const [sign, hh, mm] = [rest[0], rest.slice(1, 3), rest.slice(4, 6)];
        rest = rest.slice(6);
        const h = twoDigits(hh, true)?.[0];
        const m = h === undefined ? 0 : twoDigits(mm, true)?.[0];
        if (h === undefined || m === undefined || (sign !== '+' && sign !== '-')) ok = false;
        if ((h ?? 0) > 24) range = 'time zone offset hour';
        if ((m ?? 0) > 60) range = 'time zone offset minute';
        offset = ((h ?? 0) * 60 + (m ?? 0)) * 60 * (sign === '-' ? -1 : 1);
        break;
      }
    }
    if (range) return outOfRange(range);
    if (!ok) return cannotParse(hold, text);
  }
  if (rest) return `parsing time ${quote(v)}: extra text: ${quote(rest)}`;
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  return { seconds: daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset, nanos };
}

/** Go's zero time.Time, 0001-01-01T00:00:00Z: metav1 writes it as null. */
const ZERO_SECONDS = -62135596800;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** `t` as metav1.Time (or MicroTime) marshals it: UTC, to the second (or the microsecond, truncated); null at zero. */
export function formatMetaTime(t: GoInstant, micro: boolean): string | null {
  if (t.seconds === ZERO_SECONDS && t.nanos === 0) return null;
  const days = Math.floor(t.seconds / 86400);
  const secs = t.seconds - days * 86400;
  const [y, m, d] = civilFromDays(days);
  const year = `${y < 0 ? '-' : ''}${pad(Math.abs(y), 4)}`;
  const clock = `${pad(Math.floor(secs / 3600), 2)}:${pad(Math.floor(secs / 60) % 60, 2)}:${pad(secs % 60, 2)}`;
  return `${year}-${pad(m, 2)}-${pad(d, 2)}T${clock}${micro ? `.${pad(Math.floor(t.nanos / 1000), 6)}` : ''}Z`;
}
