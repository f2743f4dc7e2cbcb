import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';
import { FakeClock, flushMicrotasks } from './clock.js';
import { TokenBucketRateLimiter, newRateLimiter, unlimited } from './flowcontrol.js';

describe('TokenBucketRateLimiter', () => {
  it('allows the burst at once, then qps per second', async () => {
    const clock = new FakeClock(0);
    const rl = new TokenBucketRateLimiter(5, 10, clock);
    for (let i = 0; i < 10; i++) expect(rl.tryAccept()).toBe(true);
    expect(rl.tryAccept()).toBe(false);
    await clock.advance(200);
    expect(rl.tryAccept()).toBe(true);
    expect(rl.tryAccept()).toBe(false);
  });

  it('wait() queues callers in order and resolves them as tokens come', async () => {
    const clock = new FakeClock(0);
    const rl = new TokenBucketRateLimiter(10, 1, clock);
    const done: number[] = [];
    for (let i = 0; i < 3; i++) void rl.wait().then(() => done.push(i));
    await flushMicrotasks();
    expect(done).toEqual([0]);
    await clock.advance(100);
    expect(done).toEqual([0, 1]);
    await clock.advance(100);
    expect(done).toEqual([0, 1, 2]);
  });

  it('an aborted wait gives its reservation back', async () => {
    const clock = new FakeClock(0);
    const rl = new TokenBucketRateLimiter(1, 1, clock);
    await rl.wait();
    const ac = new AbortController();
    const p = rl.wait(ac.signal);
    ac.abort();
    await expect(p).rejects.toThrow();
    await clock.advance(1000);
    expect(rl.tryAccept()).toBe(true);
  });

  it('qps <= 0 or Infinity means unlimited', () => {
    expect(newRateLimiter(0, 0)).toBe(unlimited);
    expect(newRateLimiter(Infinity, 1)).toBe(unlimited);
    expect(newRateLimiter(5, 10).qps()).toBe(5);
  });
});

describe('Backoff', () => {
  it('doubles to the cap and resets after a quiet period', async () => {
    const clock = new FakeClock(0);
    const b = new Backoff({ initialMs: 100, maxMs: 500, resetAfterMs: 10_000 }, clock);
    expect([b.step(), b.step(), b.step(), b.step()]).toEqual([100, 200, 400, 500]);
    await clock.advance(10_001);
    expect(b.step()).toBe(100);
  });

  it('jitter stretches by up to the factor', () => {
    const b = new Backoff({ initialMs: 100, maxMs: 10_000, jitter: 1, random: () => 0.5 });
    expect(b.step()).toBe(150);
  });
});
