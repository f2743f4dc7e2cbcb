// setTimeout for any delay. Node cuts a delay past 2^31-1 ms (~24.8 days) to 1 ms, with a TimeoutOverflowWarning:
// a watch asked to last 30 days, or a grace period as long, would end at once. A longer delay is armed in steps.

/** setTimeout's longest delay. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export interface LongTimeout {
  cancel(): void;
}

/** Calls `fn` after `ms` (at once when it is 0 or less); `unref`: the timer keeps no process alive. */
export function setLongTimeout(fn: () => void, ms: number, o: { unref?: boolean } = {}): LongTimeout {
  let t: NodeJS.Timeout;
  const arm = (left: number): void => {
    t = left > MAX_TIMEOUT_MS ? setTimeout(() => arm(left - MAX_TIMEOUT_MS), MAX_TIMEOUT_MS) : setTimeout(fn, Math.max(0, left));
    if (o.unref) t.unref();
  };
  arm(ms);
  return { cancel: () => clearTimeout(t) };
}
