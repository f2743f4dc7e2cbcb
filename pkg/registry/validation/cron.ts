// CronJob schedules and time zones as upstream's batch validation checks them: robfig/cron v3's ParseStandard
// (five fields, the @yearly ... @hourly descriptors and @every <duration>, an optional TZ= / CRON_TZ= prefix) with its
// error messages, and time.LoadLocation's view of IANA zone names. The CronJob controller's own parser
// (pkg/controller/cronjob/cron.ts) computes activation times; this one only says why a schedule is refused.
//
//   cronScheduleError(spec): string | undefined    // robfig's error text, undefined when the schedule parses
//   timeZoneError(tz): string | undefined          // "unknown time zone X" and upstream's other refusals

interface Bounds { min: number; max: number; names?: Record<string, number> }

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: Bounds[] = [{ min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 }, { min: 1, max: 12, names: MONTHS }, { min: 0, max: 6, names: DAYS }];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

class CronError extends Error {}

/** Go's strconv.Atoi error wording. */
const atoi = (s: string): number => {
  if (/^[+-]?\d+$/.test(s)) {
    const n = Number(s);
    if (Number.isSafeInteger(n)) return n;
    throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  }
  throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
};

const mustParseInt = (s: string): number => {
  const n = atoi(s);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${s}`);
  return n;
};

const parseIntOrName = (s: string, names?: Record<string, number>): number => {
  const named = names && Object.hasOwn(names, s.toLowerCase()) ? names[s.toLowerCase()] : undefined;
  return named ?? mustParseInt(s);
};

function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]!);
    if (lowAndHigh.length === 1) end = r.max; // "N/step" means "N-max/step"
  } else if (rangeAndStep.length > 2) {
    throw new CronError(`too many slashes: ${expr}`);
  }
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

const UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/** Go's time.ParseDuration, for its error text only. */
function durationError(s: string): string | undefined {
  const quoted = JSON.stringify(s);
  let rest = s;
  if (rest.startsWith('-') || rest.startsWith('+')) rest = rest.slice(1);
  if (rest === '0') return undefined;
  if (rest === '') return `time: invalid duration ${quoted}`;
  while (rest !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(rest)!;
    if (num[0] === '' || num[0] === '.') return `time: invalid duration ${quoted}`;
    rest = rest.slice(num[0].length);
    const unit = /^[^0-9.]*/.exec(rest)![0];
    if (unit === '') return `time: missing unit in duration ${quoted}`;
    if (!UNITS.has(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`;
    rest = rest.slice(unit.length);
  }
  return undefined;
}

function parseDescriptor(spec: string): void {
  if (DESCRIPTORS.has(spec)) return;
  if (spec.startsWith('@every ')) {
    const err = durationError(spec.slice('@every '.length));
    if (err) throw new CronError(`failed to parse duration ${spec}: ${err}`);
    return;
  }
  throw new CronError(`unrecognized descriptor: ${spec}`);
}

/** Go's %s of a []string: [a b c]. */
const goList = (fields: string[]): string => `[${fields.join(' ')}]`;

/** robfig/cron v3 ParseStandard's error for `spec`, or undefined when it parses. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    if (spec.length === 0) throw new CronError('empty spec string');
    let text = spec;
    if (text.startsWith('TZ=') || text.startsWith('CRON_TZ=')) {
      const space = text.indexOf(' ');
      const eq = text.indexOf('=');
      // Go would slice past the end (and panic) without a space: there is no schedule to parse
      if (space < 0) throw new CronError(`provided bad location ${text.slice(eq + 1)}: unknown time zone ${text.slice(eq + 1)}`);
      const loc = text.slice(eq + 1, space);
      const tzErr = loadLocationError(loc);
      if (tzErr) throw new CronError(`provided bad location ${loc}: ${tzErr}`);
      text = text.slice(space).trim();
    }
    if (text.startsWith('@')) {
      parseDescriptor(text);
      return undefined;
    }
    const fields = text.split(/[\t\n\v\f\r ]+/).filter(Boolean);
    if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: ${goList(fields)}`);
    fields.forEach((f, i) => {
      for (const expr of f.split(',').filter(Boolean)) checkRange(expr, FIELDS[i]!);
    });
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}

const ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** time.LoadLocation's error for a zone name ("UTC" and zone files of the IANA database load; names are case-sensitive). */
function loadLocationError(tz: string): string | undefined {
  if (tz === '' || tz === 'UTC') return undefined;
  if (tz === 'Local') return undefined;
  // no zone file has such a name (Intl takes offsets like "+05:00")
  if (tz.split('/').some((p) => !ZONE_PART.test(p))) return `unknown time zone ${tz}`;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return `unknown time zone ${tz}`;
  }
  // Intl matches names case-insensitively, zone files do not
  if (resolved !== tz && resolved.toLowerCase() === tz.toLowerCase()) return `unknown time zone ${tz}`;
  return undefined;
}

/** Upstream's validateTimeZone: the detail of its field.Invalid, or undefined when the zone is fine. */
export function timeZoneError(tz: string): string | undefined {
  if (tz.length === 0) return 'timeZone must be nil or non-empty string';
  for (const part of tz.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !ZONE_PART.test(part)) return `unknown time zone ${tz}`;
  }
  if (tz.toLowerCase() === 'local') return 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones';
  return loadLocationError(tz);
}
