// The wait until a bootstrap token's expiry, as a work-queue delay: Node's timers take at most 2^31-1 ms (~24.8 days)
// and fire at once past that, so a token that lives longer is looked at again after that long, and then again.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export const delayUntil = (at: number, now: number): number => Math.min(at - now, LONGEST_TIMER_MS);
