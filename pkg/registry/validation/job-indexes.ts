// The index-interval strings of Indexed Jobs ("1,3-5,7": a successPolicy's succeededIndexes, a status's
// completedIndexes and failedIndexes), checked as upstream's batch validation does (validateIndexesFormat,
// parseIndexInterval, validateFailedIndexesNotOverlapCompleted), with its error texts.

type Interval = { x: number; y: number } | { error: string };

/** Go's strconv.Atoi on what the split left: an optional sign and digits. */
const atoi = (s: string): number | undefined => (/^[+-]?\d+$/.test(s) ? Number(s) : undefined);

/** One interval ("4" or "3-5") below `completions`. */
function parseIndexInterval(interval: string, completions: number): Interval {
  const limits = interval.split('-');
  if (limits.length > 2) return { error: `the fragment ${JSON.stringify(interval)} violates the requirement that an index interval can have at most two parts separated by '-'` };
  const bound = (s: string): number | { error: string } => {
    const n = atoi(s);
    if (n === undefined) return { error: `cannot convert string to integer for index: ${JSON.stringify(s)}` };
    return n >= completions ? { error: `too large index: ${JSON.stringify(s)}` } : n;
  };
  const x = bound(limits[0]!);
  if (typeof x !== 'number') return x;
  if (limits.length === 1) return { x, y: x };
  const y = bound(limits[1]!);
  if (typeof y !== 'number') return y;
  return x >= y ? { error: `non-increasing order, previous: ${x}, current: ${y}` } : { x, y };
}

/** Upstream's validateIndexesFormat: the number of indexes, or the parse error. */
export function indexesFormat(indexes: string, completions: number): { total: number; error?: string } {
  if (indexes.length === 0) return { total: 0 };
  let last: number | undefined;
  let total = 0;
  for (const text of indexes.split(',')) {
    const interval = parseIndexInterval(text, completions);
    if ('error' in interval) return { total: 0, error: interval.error };
    if (last !== undefined && last >= interval.x) return { total: 0, error: `non-increasing order, previous: ${last}, current: ${interval.x}` };
    total += interval.y - interval.x + 1;
    last = interval.y;
  }
  return { total };
}

/**
 * The first index both strings hold, walking their intervals in step; intervals that do not parse are skipped (the
 * format check reports them).
 */
export function overlappingIndex(completed: string, failed: string, completions: number): number | undefined {
  if (!completed || !failed) return undefined;
  const parse = (s: string): Interval[] => s.split(',').map((t) => parseIndexInterval(t, completions));
  const [cs, fs] = [parse(completed), parse(failed)];
  let [ci, fi] = [0, 0];
  while (ci < cs.length && fi < fs.length) {
    const c = cs[ci]!;
    const f = fs[fi]!;
    if ('error' in c) ci++;
    else if ('error' in f) fi++;
    else if (c.x <= f.y && f.x <= c.y) return Math.max(c.x, f.x);
    else if (c.x <= f.x) ci++;
    else fi++;
  }
  return undefined;
}
