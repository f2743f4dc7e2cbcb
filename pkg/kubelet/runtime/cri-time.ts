// CRI log timestamps as containerd writes them and the kubelet prints them (`kubectl logs --timestamps`): Go's
// RFC3339Nano, UTC, nanoseconds with trailing zeros dropped (and the dot too when none are left).

/** Wall-clock nanoseconds: the process's monotonic clock anchored once to Date.now() (which has only milliseconds). */
const anchor = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
export const nowNanos = (): bigint => anchor + process.hrtime.bigint();

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
