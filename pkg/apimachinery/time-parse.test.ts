import { describe, expect, it } from 'vitest';
import { formatMetaTime, parseMetaTime } from './time-parse.js';

const RFC3339 = '"2006-01-02T15:04:05Z07:00"';
const MICRO = '"2006-01-02T15:04:05.000000Z07:00"';

/** What metav1 writes back of `value`, or Go's error text. */
const read = (value: string, micro = false): string | null => {
  const t = parseMetaTime(value, micro);
  return typeof t === 'string' ? t : formatMetaTime(t, micro);
};

describe('metav1.Time as Go parses time.RFC3339', () => {
  it('takes what Go takes, written back in UTC to the second', () => {
    expect(read('2026-12-01T04:15:52Z')).toBe('2026-12-01T04:15:52Z');
    expect(read('2026-12-01T04:15:52+02:00')).toBe('2026-12-01T02:15:52Z');
    expect(read('2026-12-01T00:15:52-01:30')).toBe('2026-12-01T01:45:52Z');
    expect(read('2026-01-01T00:00:00+02:00')).toBe('2025-12-31T22:00:00Z');
    // a fraction where the layout has none, of any length, with '.' or ','; truncated
    expect(read('2026-12-01T04:15:52.999999999999Z')).toBe('2026-12-01T04:15:52Z');
    expect(read('2026-12-01T04:15:52,5+02:00')).toBe('2026-12-01T02:15:52Z');
    // the layout's hour "15" takes one digit
    expect(read('2026-12-01T4:15:52Z')).toBe('2026-12-01T04:15:52Z');
    expect(read('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00Z');
    // an offset of 24 hours or 60 minutes passes Go's range check
    expect(read('2026-12-01T04:15:52+24:00')).toBe('2026-11-30T04:15:52Z');
    expect(read('0000-01-01T00:00:00+01:00')).toBe('-0001-12-31T23:00:00Z');
  });

  it('writes the zero time as null', () => {
    expect(read('0001-01-01T00:00:00Z')).toBeNull();
    expect(read('0001-01-01T01:00:00+01:00')).toBeNull();
    expect(read('0001-01-01T00:00:00.000000001Z')).toBe('0001-01-01T00:00:00Z');
  });

  it("refuses the rest with Go's *time.ParseError words", () => {
    const cannot = (v: string, elem: string, layoutElem: string): string => `parsing time "${v}" as ${RFC3339}: cannot parse "${elem}" as "${layoutElem}"`;
    expect(read('notatime')).toBe(cannot('notatime', 'notatime', '2006'));
    expect(read('yesterday')).toBe(cannot('yesterday', 'yesterday', '2006'));
    expect(read('')).toBe(cannot('', '', '2006'));
    expect(read('20x6-01-01T00:00:00Z')).toBe(cannot('20x6-01-01T00:00:00Z', '20x6-01-01T00:00:00Z', '2006'));
    expect(read('2026-1-01T00:00:00Z')).toBe(cannot('2026-1-01T00:00:00Z', '1-01T00:00:00Z', '01'));
    expect(read('2026/01/01T00:00:00Z')).toBe(cannot('2026/01/01T00:00:00Z', '/01/01T00:00:00Z', '-'));
    expect(read('2026-12-01 04:15:52Z')).toBe(cannot('2026-12-01 04:15:52Z', ' 04:15:52Z', 'T'));
    expect(read('2026-12-01T04:5:52Z')).toBe(cannot('2026-12-01T04:5:52Z', '5:52Z', '04'));
    expect(read('2026-12-01T04:15:52.175617')).toBe(cannot('2026-12-01T04:15:52.175617', '', 'Z07:00'));
    expect(read('2026-12-01T04:15:52')).toBe(cannot('2026-12-01T04:15:52', '', 'Z07:00'));
    expect(read('2026-12-01T04:15:52+0200')).toBe(cannot('2026-12-01T04:15:52+0200', '+0200', 'Z07:00'));
    expect(read('2026-12-01T04:15:52 02:00')).toBe(cannot('2026-12-01T04:15:52 02:00', ' 02:00', 'Z07:00'));
    expect(read('2026-12-01T04:15:52.Z')).toBe(cannot('2026-12-01T04:15:52.Z', '.Z', 'Z07:00'));
    expect(read('2026-12-01')).toBe(cannot('2026-12-01', '', 'T'));
    expect(read('2026-12-01T04:15:52Zjunk')).toBe('parsing time "2026-12-01T04:15:52Zjunk": extra text: "junk"');
    expect(read('2026-13-01T00:00:00Z')).toBe('parsing time "2026-13-01T00:00:00Z": month out of range');
    expect(read('2026-00-01T00:00:00Z')).toBe('parsing time "2026-00-01T00:00:00Z": month out of range');
    expect(read('2026-02-29T00:00:00Z')).toBe('parsing time "2026-02-29T00:00:00Z": day out of range');
    expect(read('2026-12-00T00:00:00Z')).toBe('parsing time "2026-12-00T00:00:00Z": day out of range');
    expect(read('2026-12-01T24:00:00Z')).toBe('parsing time "2026-12-01T24:00:00Z": hour out of range');
    expect(read('2026-12-01T00:60:00Z')).toBe('parsing time "2026-12-01T00:60:00Z": minute out of range');
    expect(read('2026-12-01T00:00:60Z')).toBe('parsing time "2026-12-01T00:00:60Z": second out of range');
    expect(read('2026-12-01T00:00:00+25:00')).toBe('parsing time "2026-12-01T00:00:00+25:00": time zone offset hour out of range');
    expect(read('2026-12-01T00:00:00+01:61')).toBe('parsing time "2026-12-01T00:00:00+01:61": time zone offset minute out of range');
  });

  it('quotes as Go does: non-ASCII and control bytes as \\xNN, quotes and backslashes escaped', () => {
    expect(read('2026-12-01T04:15:52Zé')).toBe('parsing time "2026-12-01T04:15:52Z\\xc3\\xa9": extra text: "\\xc3\\xa9"');
    expect(read('"\\\n')).toBe(`parsing time "\\"\\\\\\x0a" as ${RFC3339}: cannot parse "\\"\\\\\\x0a" as "2006"`);
  });
});

describe('metav1.MicroTime as Go parses RFC3339Micro', () => {
  it('takes exactly six decimals and a zone, written back in UTC', () => {
    expect(read('2026-12-01T04:15:52.175617Z', true)).toBe('2026-12-01T04:15:52.175617Z');
    expect(read('2026-12-01T04:15:52.175617+02:00', true)).toBe('2026-12-01T02:15:52.175617Z');
    expect(read('2026-12-01T04:15:52,000001Z', true)).toBe('2026-12-01T04:15:52.000001Z');
    expect(read('0001-01-01T00:00:00.000000Z', true)).toBeNull();
  });

  it('refuses what Python, a missing fraction or a short one give', () => {
    const cannot = (v: string, elem: string, layoutElem: string): string => `parsing time "${v}" as ${MICRO}: cannot parse "${elem}" as "${layoutElem}"`;
    // Python's isoformat() of a naive datetime
    expect(read('2026-12-01T04:15:52.175617', true)).toBe(cannot('2026-12-01T04:15:52.175617', '', 'Z07:00'));
    expect(read('garbage', true)).toBe(cannot('garbage', 'garbage', '2006'));
    expect(read('2026-12-01 04:15:52.175617Z', true)).toBe(cannot('2026-12-01 04:15:52.175617Z', ' 04:15:52.175617Z', 'T'));
    expect(read('2026-12-01T04:15:52Z', true)).toBe(cannot('2026-12-01T04:15:52Z', 'Z', '.000000'));
    expect(read('2026-12-01T04:15:52+00:00', true)).toBe(cannot('2026-12-01T04:15:52+00:00', '+00:00', '.000000'));
    expect(read('2026-12-01T04:15:52.175Z', true)).toBe(cannot('2026-12-01T04:15:52.175Z', '.175Z', '.000000'));
    expect(read('2026-12-01T04:15:52.1+02:00', true)).toBe(cannot('2026-12-01T04:15:52.1+02:00', '.1+02:00', '.000000'));
    expect(read('2026-12-01T04:15:52.1756171Z', true)).toBe(cannot('2026-12-01T04:15:52.1756171Z', '1Z', 'Z07:00'));
    expect(read('2026-12-01T04:15:52.-12345Z', true)).toBe('parsing time "2026-12-01T04:15:52.-12345Z": fractional second out of range');
  });
});
