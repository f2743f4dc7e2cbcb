import { describe, expect, it } from 'vitest';
import { formatInZone, parseSchedule } from './cron.js';
import { mostRecentScheduleTime } from './cronjob-controller.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('cron schedules', () => {
  it('every minute, steps, ranges, lists and names', () => {
    expect(iso(parseSchedule('* * * * *').next(at('2024-01-01T00:00:30Z')))).toBe('2024-01-01T00:01:00.000Z');
    expect(iso(parseSchedule('*/15 * * * *').next(at('2024-01-01T00:16:00Z')))).toBe('2024-01-01T00:30:00.000Z');
    expect(iso(parseSchedule('5-10/2 1,3 * * *').next(at('2024-01-01T01:09:00Z')))).toBe('2024-01-01T03:05:00.000Z');
    expect(iso(parseSchedule('0 9 * JAN-MAR mon-fri').next(at('2024-03-29T10:00:00Z')))).toBe('2025-01-01T09:00:00.000Z');
    expect(iso(parseSchedule('0 0 * * 0').next(at('2024-01-01T00:00:00Z')))).toBe('2024-01-07T00:00:00.000Z');
  });

  it('descriptors', () => {
    expect(iso(parseSchedule('@hourly').next(at('2024-01-01T00:00:00Z')))).toBe('2024-01-01T01:00:00.000Z');
    expect(iso(parseSchedule('@daily').next(at('2024-01-01T00:00:00Z')))).toBe('2024-01-02T00:00:00.000Z');
    expect(iso(parseSchedule('@weekly').next(at('2024-01-01T00:00:00Z')))).toBe('2024-01-07T00:00:00.000Z');
    expect(iso(parseSchedule('@monthly').next(at('2024-01-31T00:00:00Z')))).toBe('2024-02-01T00:00:00.000Z');
    expect(iso(parseSchedule('@yearly').next(at('2024-06-01T00:00:00Z')))).toBe('2025-01-01T00:00:00.000Z');
  });

  it('day-of-month and day-of-week are OR-ed when both are restricted', () => {
    // the 13th or any Friday
    expect(iso(parseSchedule('0 0 13 * 5').next(at('2024-09-01T00:00:00Z')))).toBe('2024-09-06T00:00:00.000Z');
    expect(iso(parseSchedule('0 0 13 * *').next(at('2024-09-01T00:00:00Z')))).toBe('2024-09-13T00:00:00.000Z');
    expect(iso(parseSchedule('0 0 29 2 *').next(at('2025-01-01T00:00:00Z')))).toBe('2028-02-29T00:00:00.000Z');
  });

  it('time zones: field or CRON_TZ prefix, across DST', () => {
    expect(iso(parseSchedule('0 9 * * *', 'America/New_York').next(at('2024-01-01T00:00:00Z')))).toBe('2024-01-01T14:00:00.000Z');
    expect(iso(parseSchedule('0 9 * * *', 'America/New_York').next(at('2024-07-01T00:00:00Z')))).toBe('2024-07-01T13:00:00.000Z');
    expect(iso(parseSchedule('CRON_TZ=Asia/Tokyo 30 8 * * *').next(at('2024-01-01T00:00:00Z')))).toBe('2024-01-01T23:30:00.000Z');
    // 02:30 does not exist on 2024-03-10 in New York: the next one is the day after
    expect(iso(parseSchedule('30 2 * * *', 'America/New_York').next(at('2024-03-10T05:00:00Z')))).toBe('2024-03-11T06:30:00.000Z');
  });

  it('@every: a constant delay in whole seconds, counted from the second before', () => {
    const s = parseSchedule('@every 1h30m');
    expect(s.every).toBe(5_400_000);
    expect(iso(s.next(at('2024-01-01T00:00:30.250Z')))).toBe('2024-01-01T01:30:30.000Z');
    expect(parseSchedule('@every 1500ms').every).toBe(1000);
    expect(parseSchedule('@every 10ms').every).toBe(1000);
    // a day of `@every 1s` is counted, not walked
    const { time, missed } = mostRecentScheduleTime(parseSchedule('@every 1s'), at('2024-01-01T00:00:00Z'), at('2024-01-02T00:00:00.500Z'));
    expect([iso(time), missed]).toEqual(['2024-01-02T00:00:00.000Z', 86_400]);
    expect(mostRecentScheduleTime(parseSchedule('@every 1m'), at('2024-01-01T00:00:00Z'), at('2024-01-01T00:00:59Z'))).toEqual({ missed: 0 });
  });

  it('gives only the latest of many missed times, however many (upstream mostRecentScheduleTime)', () => {
    // two days of a minutely schedule: the one due now, not the 1,000th after the last run
    const { time, missed } = mostRecentScheduleTime(parseSchedule('*/1 * * * *'), at('2024-01-01T00:00:00Z'), at('2024-01-03T00:00:30Z'));
    expect([iso(time), missed]).toEqual(['2024-01-03T00:00:00.000Z', 2880]);
    // an irregular schedule (every 4 hours from 6 to 16 on weekdays): walked from one interval before the estimate
    const weekdays = parseSchedule('30 6-16/4 * * 1-5');
    expect(iso(mostRecentScheduleTime(weekdays, at('2024-01-05T06:00:00Z'), at('2024-01-05T15:00:00Z')).time)).toBe('2024-01-05T14:30:00.000Z');
    // across a weekend the estimate, counting 4-hour steps, starts the walk past Sunday: nothing is due (as upstream)
    expect(mostRecentScheduleTime(weekdays, at('2024-01-05T10:00:00Z'), at('2024-01-07T12:00:00Z'))).toEqual({ time: undefined, missed: 13 });
    // one time due, the next not yet: none missed
    expect(mostRecentScheduleTime(parseSchedule('0 * * * *'), at('2024-01-01T00:30:00Z'), at('2024-01-01T01:10:00Z'))).toEqual({ time: at('2024-01-01T01:00:00Z'), missed: 0 });
  });

  it('rejects bad schedules', () => {
    for (const s of ['* * * *', '60 * * * *', '* 24 * * *', '*/0 * * * *', '@every 5 minutes', '0 0 * * 7', 'x * * * *', '5-1 * * * *']) {
      expect(() => parseSchedule(s), s).toThrow();
    }
    expect(() => parseSchedule('* * * * *', 'Mars/Olympus')).toThrow(/unknown time zone/);
  });
});

describe('scheduled timestamps in the CronJob\'s time zone', () => {
  it('RFC 3339 with the zone\'s offset, Z for a zero one (Go\'s Time.In(loc).Format(time.RFC3339))', () => {
    expect(formatInZone(at('2026-11-30T12:49:00Z'), 'Asia/Tokyo')).toBe('2026-11-30T21:49:00+09:00');
    expect(formatInZone(at('2026-11-30T12:49:00Z'), 'UTC')).toBe('2026-11-30T12:49:00Z');
    // a zero offset outside UTC is still Z; a summer one is not
    expect(formatInZone(at('2026-01-15T08:00:00Z'), 'Europe/London')).toBe('2026-01-15T08:00:00Z');
    expect(formatInZone(at('2026-07-15T08:00:00Z'), 'Europe/London')).toBe('2026-07-15T09:00:00+01:00');
    // negative and half-hour offsets, across a date line
    expect(formatInZone(at('2026-01-15T02:00:00Z'), 'America/St_Johns')).toBe('2026-01-14T22:30:00-03:30');
    expect(formatInZone(at('2026-01-15T20:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-16T01:30:00+05:30');
    // whole seconds only
    expect(formatInZone(at('2026-01-15T20:00:00.750Z'), 'UTC')).toBe('2026-01-15T20:00:00Z');
  });
});
