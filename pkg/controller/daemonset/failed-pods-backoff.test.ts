import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../client/index.js';
import { FailedPodsBackoff } from './failed-pods-backoff.js';

describe('FailedPodsBackoff', () => {
  it('waits 1 s after the first deletion, doubles per deletion up to 15 min, per key', async () => {
    const clock = new FakeClock(1_000_000);
    const b = new FailedPodsBackoff(clock);
    expect(b.inBackoff('ds/1/n1')).toBe(false);
    b.next('ds/1/n1');
    expect([b.inBackoff('ds/1/n1'), b.delay('ds/1/n1'), b.inBackoff('ds/1/n2')]).toEqual([true, 1000, false]);
    await clock.advance(999);
    expect(b.inBackoff('ds/1/n1')).toBe(true);
    await clock.advance(1);
    expect(b.inBackoff('ds/1/n1')).toBe(false);
    b.next('ds/1/n1');
    expect(b.delay('ds/1/n1')).toBe(2000);
    for (let i = 0; i < 20; i++) b.next('ds/1/n1');
    expect(b.delay('ds/1/n1')).toBe(15 * 60 * 1000);
  });

  it('starts again from 1 s once a key has not been stepped for twice the maximum', async () => {
    const clock = new FakeClock(0);
    const b = new FailedPodsBackoff(clock);
    b.next('k');
    b.next('k');
    expect(b.delay('k')).toBe(2000);
    await clock.advance(30 * 60 * 1000 + 1);
    expect(b.inBackoff('k')).toBe(false);
    b.next('k');
    expect(b.delay('k')).toBe(1000);
  });
});
