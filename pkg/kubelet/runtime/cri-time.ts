// CRI log timestamps as containerd writes them and the kubelet prints them (`kubectl logs --timestamps`): Go's
// RFC3339Nano, UTC, nanoseconds with trailing zeros dropped (and the dot too when none are left).

const MS = 1_000_000n;
let anchor = BigInt(Date.now()) * MS - process.hrtime.bigint();
let last = 0n;

/**
 * Wall-clock nanoseconds: Date.now() has only milliseconds, so the monotonic clock gives the digits below them. The two
 * part ways (a suspended guest, an NTP step), so the monotonic clock is anchored again whenever it leaves the wall
 * clock's millisecond; and a log's lines never go back in time, even when the wall clock does.
 */
export const nowNanos = (): bigint => {
  const wall = BigInt(Date.now()) * MS;
  let t = anchor + process.hrtime.bigint();
  if (t < wall || t >= wall + MS) {
    anchor = wall - process.hrtime.bigint();
    t = wall;
  }
  last = t > last ? t : last + 1n;
  return last;
};

/** Go's RFC3339Nano fraction: the digits without trailing zeros. */
const trimmedFraction = (digits: string): string => {
  const d = digits.replace(/0+$/, '');
  return d ? `.${d}` : '';
};

export const rfc3339Nano = (nanos: bigint): string => {
  const ms = nanos / 1_000_000n;
  const iso = new Date(Number(ms)).toISOString(); // ...T15:04:05.123Z
  const frac = (nanos % 1_000_000_000n).toString().padStart(9, '0');
  return `${iso.slice(0, 19)}${trimmedFraction(frac)}Z`;
};

/** A timestamp read from a CRI log (ours wrote nine digits before), in RFC3339Nano form. */
export const normalizeCriTime = (ts: string): string => ts.replace(/\.(\d+)Z$/, (_m, d: string) => `${trimmedFraction(d)}Z`);
