import { describe, expect, it } from 'vitest';
import { lastWriteMs } from './event-ttl.js';

describe('lastWriteMs', () => {
  it('is the newest of the managed fields\' times and the Event\'s own', () => {
    expect(lastWriteMs({
      metadata: { creationTimestamp: '2026-01-01T00:00:00Z', managedFields: [{ time: '2026-01-01T00:05:00Z' }, { time: '2026-01-01T00:02:00Z' }] },
      lastTimestamp: '2026-01-01T00:01:00Z',
    })).toBe(Date.parse('2026-01-01T00:05:00Z'));
    expect(lastWriteMs({ metadata: {}, series: { lastObservedTime: '2026-01-01T00:09:00.123456Z' }, eventTime: '2026-01-01T00:00:00.000000Z' }))
      .toBe(Date.parse('2026-01-01T00:09:00.123456Z'));
    expect(lastWriteMs({ metadata: {}, lastTimestamp: 'not a time' })).toBe(-Infinity);
  });
});
