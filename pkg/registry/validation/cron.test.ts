import { describe, expect, it } from 'vitest';
import { cronScheduleError, timeZoneError } from './cron.js';

describe('cronScheduleError (robfig/cron v3 ParseStandard)', () => {
  it('takes five fields, names, ranges, steps, descriptors and @every', () => {
    for (const ok of ['*/5 * * * *', '0 0 1 1 *', '0-59/15 0-23 1-31 jan-dec sun-sat', '5 4 * * MON,fri', '? * * * ?', '@hourly', '@yearly', '@annually',
      '@monthly', '@weekly', '@daily', '@midnight', '@every 1h30m', '@every 0', 'TZ=UTC 0 0 * * *', 'CRON_TZ=Europe/Paris @daily', '0 0 * * 6', '1,,2 * * * *']) {
      expect(cronScheduleError(ok), ok).toBeUndefined();
    }
  });

  it('words its refusals as robfig does', () => {
    expect(cronScheduleError('* * *')).toBe('expected exactly 5 fields, found 3: [* * *]');
    expect(cronScheduleError('0 0 0 * * *')).toBe('expected exactly 5 fields, found 6: [0 0 0 * * *]');
    expect(cronScheduleError('61 * * * *')).toBe('end of range (61) above maximum (59): 61');
    expect(cronScheduleError('* * 0 * *')).toBe('beginning of range (0) below minimum (1): 0');
    expect(cronScheduleError('* * * * 7')).toBe('end of range (7) above maximum (6): 7');
    expect(cronScheduleError('5-1 * * * *')).toBe('beginning of range (5) beyond end of range (1): 5-1');
    expect(cronScheduleError('*/0 * * * *')).toBe('step of range should be a positive number: */0');
    expect(cronScheduleError('1-2-3 * * * *')).toBe('too many hyphens: 1-2-3');
    expect(cronScheduleError('*/2/3 * * * *')).toBe('too many slashes: */2/3');
    expect(cronScheduleError('x * * * *')).toBe('failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
    expect(cronScheduleError('* * * foo *')).toBe('failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax');
    expect(cronScheduleError('@often')).toBe('unrecognized descriptor: @often');
    expect(cronScheduleError('@every 5x')).toBe('failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"');
    expect(cronScheduleError('@every 5')).toBe('failed to parse duration @every 5: time: missing unit in duration "5"');
    expect(cronScheduleError('TZ=Mars/Base 0 0 * * *')).toBe('provided bad location Mars/Base: unknown time zone Mars/Base');
    expect(cronScheduleError('')).toBe('empty spec string');
  });
});

describe('timeZoneError (validateTimeZone)', () => {
  it('takes IANA names and refuses others as upstream does', () => {
    for (const ok of ['UTC', 'Europe/Paris', 'America/New_York', 'Etc/GMT+5', 'US/Eastern']) expect(timeZoneError(ok), ok).toBeUndefined();
    expect(timeZoneError('')).toBe('timeZone must be nil or non-empty string');
    expect(timeZoneError('Mars/Base')).toBe('unknown time zone Mars/Base');
    expect(timeZoneError('europe/paris')).toBe('unknown time zone europe/paris');
    expect(timeZoneError('../etc/passwd')).toBe('unknown time zone ../etc/passwd');
    expect(timeZoneError('+05:00')).toBe('unknown time zone +05:00');
    expect(timeZoneError('Local')).toBe('timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones');
  });
});
