// Human durations exactly as apimachinery's duration.HumanDuration prints them ("5m30s", "3d4h", "2y10d"),
// and the AGE / "since" cells built on it.
import type { KubeObject } from '../../../api/types.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const GO_ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** A succinct duration with 2-3 significant figures; a clock skew of up to 2s reads as "0s". */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/** Milliseconds since the epoch of an RFC 3339 timestamp, or undefined when it is missing (Go's zero time). */
export function parseTime(ts: unknown): number | undefined {
  if (typeof ts !== 'string' || ts === '') return undefined;
  const ms = Date.parse(ts);
  return Number.isNaN(ms) || ms === GO_ZERO_TIME ? undefined : ms;
}

/** Time elapsed since `ts`, "<unknown>" when there is no timestamp. */
export function since(ts: unknown, now: Date): string {
  const ms = parseTime(ts);
  return ms === undefined ? '<unknown>' : humanDuration(now.getTime() - ms);
}

/** The AGE cell: time since metadata.creationTimestamp. */
export const age = (obj: KubeObject, now: Date): string => since(obj.metadata?.creationTimestamp, now);
