import { afterEach, describe, expect, it, vi } from 'vitest';
import { logCheck, PostStartHooks } from './health.js';

afterEach(() => { vi.useRealTimers(); });

describe('the log check', () => {
  it('passes while flushes complete and fails once none has for two minutes, as upstream LogHealthz', () => {
    vi.useFakeTimers();
    let answer = true;
    const pending: Array<() => void> = [];
    const c = logCheck((done) => { if (answer) done(); else pending.push(() => done()); });
    expect(c.check()).toBe(true);
    answer = false; // the log blocks: flushes never complete
    vi.advanceTimersByTime(119_000);
    expect(c.check()).toBe(true);
    vi.advanceTimersByTime(2_000);
    expect(c.check()).toBe(false);
    pending.forEach((finish) => finish()); // unblocked
    expect(c.check()).toBe(true);
    c.stop();
  });
});

describe('post-start hooks', () => {
  it('fail until their step is done, and refuse a name not declared', () => {
    const hooks = new PostStartHooks(['a', 'b/c']);
    const state = (): string[] => hooks.checks.map((h) => `${h.name}=${String(h.check())}`);
    expect(state()).toEqual(['poststarthook/a=false', 'poststarthook/b/c=false']);
    hooks.finished('b/c');
    expect(state()).toEqual(['poststarthook/a=false', 'poststarthook/b/c=true']);
    expect(() => hooks.finished('d')).toThrow('unknown post-start hook d');
  });
});
