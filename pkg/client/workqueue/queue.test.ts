import { describe, expect, it } from 'vitest';
import { FakeClock, flushMicrotasks } from '../clock.js';
import { DelayingQueue } from './delaying.js';
import { WorkQueue } from './queue.js';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, ItemFastSlowRateLimiter, MaxOfRateLimiter } from './rate-limiters.js';
import { RateLimitingQueue } from './rate-limiting.js';

describe('WorkQueue', () => {
  it('deduplicates items waiting to be processed, in FIFO order', async () => {
    const q = new WorkQueue<string>();
    q.add('a'); q.add('b'); q.add('a');
    expect(q.len()).toBe(2);
    expect((await q.get()).item).toBe('a');
    expect((await q.get()).item).toBe('b');
    expect(q.len()).toBe(0);
  });

  it('never hands an item in processing to a second worker; re-adds it when done', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const first = await q.get();
    q.add('a'); // while processing: dirty, not queued
    expect(q.len()).toBe(0);
    let second: string | undefined;
    void q.get().then((r) => { second = r.item; });
    await flushMicrotasks();
    expect(second).toBeUndefined();
    q.done(first.item!);
    await flushMicrotasks();
    expect(second).toBe('a');
  });

  it('wakes a waiting worker on add', async () => {
    const q = new WorkQueue<string>();
    const p = q.get();
    q.add('x');
    expect(await p).toEqual({ item: 'x', shutdown: false });
  });

  it('shutDown ignores adds, drains what is queued, then reports shutdown', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const waiting = new WorkQueue<string>().get();
    q.shutDown();
    q.add('b');
    expect(await q.get()).toEqual({ item: 'a', shutdown: false });
    expect((await q.get()).shutdown).toBe(true);
    expect(q.shuttingDown()).toBe(true);
    void waiting;
  });

  it('shutDown releases blocked getters', async () => {
    const q = new WorkQueue<string>();
    const p = q.get();
    q.shutDown();
    expect((await p).shutdown).toBe(true);
  });

  it('shutDownWithDrain waits for items in processing', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const { item } = await q.get();
    let drained = false;
    const d = q.shutDownWithDrain().then(() => { drained = true; });
    await flushMicrotasks();
    expect(drained).toBe(false);
    q.done(item!);
    await d;
    expect(drained).toBe(true);
  });
});

describe('rate limiters', () => {
  it('per-item exponential backoff from 5 ms to 1000 s', () => {
    const rl = new ItemExponentialFailureRateLimiter<string>();
    expect([1, 2, 3, 4].map(() => rl.when('a'))).toEqual([5, 10, 20, 40]);
    expect(rl.when('b')).toBe(5);
    expect(rl.numRequeues('a')).toBe(4);
    for (let i = 0; i < 40; i++) rl.when('a');
    expect(rl.when('a')).toBe(1_000_000);
    rl.forget('a');
    expect(rl.numRequeues('a')).toBe(0);
    expect(rl.when('a')).toBe(5);
  });

  it('fast then slow', () => {
    const rl = new ItemFastSlowRateLimiter<string>(5, 10_000, 2);
    expect([rl.when('a'), rl.when('a'), rl.when('a')]).toEqual([5, 5, 10_000]);
  });

  it('the overall bucket spreads requests past the burst at qps', async () => {
    const clock = new FakeClock(0);
    const rl = new BucketRateLimiter<string>(10, 2, clock);
    expect([rl.when('a'), rl.when('b'), rl.when('c'), rl.when('d')]).toEqual([0, 0, 100, 200]);
    await clock.advance(1000);
    expect(rl.when('e')).toBe(0);
  });

  it('max of limiters takes the longest delay', () => {
    const clock = new FakeClock(0);
    const rl = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(5, 1000), new BucketRateLimiter(1, 1, clock));
    expect(rl.when('a')).toBe(5);
    expect(rl.when('b')).toBe(1000);
  });
});

describe('DelayingQueue and RateLimitingQueue', () => {
  it('addAfter queues the item once its time has come; the earliest request wins', async () => {
    const clock = new FakeClock(0);
    const q = new DelayingQueue<string>(clock);
    q.addAfter('a', 100);
    q.addAfter('b', 50);
    q.addAfter('a', 30);
    q.addAfter('a', 500); // later than the pending one: ignored
    expect(q.len()).toBe(0);
    await clock.advance(29);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    expect((await q.get()).item).toBe('a');
    await clock.advance(20);
    expect((await q.get()).item).toBe('b');
    expect(q.waiting()).toBe(0);
  });

  it('addAfter with no delay adds at once', async () => {
    const q = new DelayingQueue<string>(new FakeClock(0));
    q.addAfter('a', 0);
    expect(q.len()).toBe(1);
  });

  it('addRateLimited backs off per item; forget resets', async () => {
    const clock = new FakeClock(0);
    const q = new RateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(5, 1000) });
    q.addRateLimited('a'); // 5 ms
    await clock.advance(5);
    expect(q.len()).toBe(1);
    q.done((await q.get()).item!);
    q.addRateLimited('a'); // 10 ms
    await clock.advance(9);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    expect(q.numRequeues('a')).toBe(2);
    q.forget('a');
    expect(q.numRequeues('a')).toBe(0);
  });

  it('shutDown stops pending delayed adds', async () => {
    const clock = new FakeClock(0);
    const q = new DelayingQueue<string>(clock);
    q.addAfter('a', 10);
    q.shutDown();
    await clock.advance(20);
    expect((await q.get()).shutdown).toBe(true);
  });
});
