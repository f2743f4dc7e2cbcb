// Go's duration strings (time.ParseDuration), as flags, metav1.Duration fields and query parameters carry them.
const UNITS_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A non-negative Go duration ("2m0s", "1.5s", "500ms", "0") in milliseconds; undefined when it is not one. */
export function parseGoDurationMs(text: string): number | undefined {
  if (text === '0') return 0;
  const parts = [...text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== text) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNITS_MS[p[2]!]!, 0);
}

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)/;

/**
 * A Go duration with an optional sign, in milliseconds (a query parameter's `timeout=-1s` is valid Go); anything else
 * throws time.ParseDuration's own message, as upstream's errors quote it.
 */
export function goDurationMs(text: string): number {
  const body = text.startsWith('-') || text.startsWith('+') ? text.slice(1) : text;
  const ms = parseGoDurationMs(body);
  if (ms !== undefined) return text.startsWith('-') ? -ms : ms;
  const quoted = JSON.stringify(text);
  // Go reads number-and-unit pairs: the first that is wrong names the error
  for (let rest = body; rest !== '';) {
    const number = NUMBER.exec(rest)?.[0];
    if (number === undefined) break;
    const unit = /^[^\d.]*/.exec(rest.slice(number.length))![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    if (!(unit in UNITS_MS)) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    rest = rest.slice(number.length + unit.length);
  }
  throw new Error(`time: invalid duration ${quoted}`);
}
