// Cron schedules as the CronJob controller reads them (robfig/cron's standard parser): five fields (minute hour
// day-of-month month day-of-week) with *, ?, lists, ranges, steps and month / weekday names; the @yearly ...
// @hourly descriptors; `@every <duration>` (a constant delay, whole seconds, at least one); an optional CRON_TZ= /
// TZ= prefix; day-of-month and day-of-week OR-ed when both are restricted (AND-ed when either is *). next() works in
// wall-clock time of an IANA zone (default UTC).

import { parseGoDurationMs } from '../../apimachinery/duration.js';

export interface Schedule {
  /** The first activation strictly after `afterMs` (ms since the epoch), or undefined within 5 years. */
  next(afterMs: number): number | undefined;
  timeZone: string;
  /** `@every`'s delay in ms: activations are that far apart. */
  every?: number;
}

interface Field { min: number; max: number; names?: string[] }
const FIELDS: Field[] = [
  { min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 },
  { min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};

const value = (s: string, f: Field): number => {
  const i = f.names?.indexOf(s.toLowerCase()) ?? -1;
  if (i >= 0) return i + f.min;
  if (!/^\d+$/.test(s)) throw new Error(`failed to parse int from ${s}`);
  return Number(s);
};

/** The allowed values of one field, and whether it was a star (* or ?). */
const parseField = (text: string, f: Field): { set: Set<number>; star: boolean } => {
  const set = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    if (part.split('/').length > 2) throw new Error(`too many slashes: ${part}`);
    let lo: number, hi: number;
    if (range === '*' || range === '?') {
      lo = f.min; hi = f.max;
      if (stepText === undefined) star = true;
    } else {
      const bounds = range.split('-');
      if (bounds.length > 2) throw new Error(`too many hyphens: ${range}`);
      lo = value(bounds[0]!, f);
      hi = bounds.length === 2 ? value(bounds[1]!, f) : stepText !== undefined ? f.max : lo;
    }
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step <= 0 || (stepText !== undefined && !/^\d+$/.test(stepText))) throw new Error(`step of range should be a positive number: ${part}`);
    if (lo < f.min || hi > f.max || lo > hi) throw new Error(`end of range (${hi}) above maximum (${f.max}) or beginning (${lo}) below minimum: ${part}`);
    for (let v = lo; v <= hi; v += step) set.add(v);
  }
  return { set, star };
};

/** Wall-clock fields of an instant in a zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();
const wallOf = (ms: number, tz: string): number => {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) + (ms % 1000 + 1000) % 1000;
};

/**
 * RFC 3339 in the zone's wall-clock time with its offset, to the second, as Go's Time.In(loc).Format(time.RFC3339):
 * a zero offset is written `Z`, and an offset's odd seconds are dropped from it.
 */
export const formatInZone = (ms: number, tz: string): string => {
  const whole = Math.floor(ms / 1000) * 1000;
  const wall = wallOf(whole, tz);
  const offsetMin = Math.trunc((wall - whole) / 60_000);
  const text = new Date(wall).toISOString().slice(0, 19);
  if (offsetMin === 0) return `${text}Z`;
  const abs = Math.abs(offsetMin);
  return `${text}${offsetMin < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
};

/** The instant whose wall-clock time in tz is `wall` (the earlier one in a fall-back overlap). */
const instantOf = (wall: number, tz: string): number => {
  let t = wall - (wallOf(wall, tz) - wall);
  t = wall - (wallOf(t, tz) - t);
  return t;
};

export const validTimeZone = (tz: string): boolean => {
  try { new Intl.DateTimeFormat('en-US', { timeZone: tz }); return true; } catch { return false; }
};

/** robfig's ConstantDelaySchedule: the delay truncated to whole seconds (1 s at least), from the second before. */
function everySchedule(duration: string, tz: string): Schedule {
  const ms = parseGoDurationMs(duration);
  if (ms === undefined) throw new Error(`failed to parse duration @every ${duration}: time: invalid duration ${JSON.stringify(duration)}`);
  const every = Math.max(1000, ms - (ms % 1000));
  return { timeZone: tz, every, next: (afterMs) => afterMs - (afterMs % 1000) + every };
}

export function parseSchedule(spec: string, timeZone?: string | null): Schedule {
  let text = spec.trim();
  let tz = timeZone || 'UTC';
  const m = /^(CRON_TZ|TZ)=(\S+)\s+(.*)$/.exec(text);
  if (m) { tz = m[2]!; text = m[3]!.trim(); }
  if (!validTimeZone(tz)) throw new Error(`provided bad location ${tz}: unknown time zone ${tz}`);
  if (text.startsWith('@every ')) return everySchedule(text.slice('@every '.length).trim(), tz);
  if (text.startsWith('@')) {
    const d = DESCRIPTORS[text];
    if (!d) throw new Error(`unrecognized descriptor: ${text}`);
    text = d;
  }
  const parts = text.split(/\s+/).filter(Boolean);
  if (parts.length !== 5) throw new Error(`expected exactly 5 fields, found ${parts.length}: ${text}`);
  const [minute, hour, dom, month, dow] = parts.map((p, i) => parseField(p, FIELDS[i]!));
  const dayMatches = (d: Date): boolean => {
    const domOk = dom!.set.has(d.getUTCDate());
    const dowOk = dow!.set.has(d.getUTCDay());
    return dom!.star || dow!.star ? domOk && dowOk : domOk || dowOk;
  };
  return {
    timeZone: tz,
    next(afterMs) {
      // Walk wall-clock time a field at a time (as robfig's Next does), then map back to an instant.
      let w = Math.floor(wallOf(afterMs, tz) / 60_000) * 60_000 + 60_000;
      const limit = w + 5 * 366 * 86_400_000;
      while (w < limit) {
        const d = new Date(w);
        if (!month!.set.has(d.getUTCMonth() + 1)) { w = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1); continue; }
        if (!dayMatches(d)) { w = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1); continue; }
        if (!hour!.set.has(d.getUTCHours())) { w = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1); continue; }
        if (!minute!.set.has(d.getUTCMinutes())) { w += 60_000; continue; }
        const t = instantOf(w, tz);
        if (t > afterMs && wallOf(t, tz) === w) return t;
        w += 60_000;
      }
      return undefined;
    },
  };
}
