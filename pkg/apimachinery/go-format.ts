// Go's %v of a value decoded from JSON into interface{} (maps, slices, strings, float64s, bools, nil), as upstream
// quotes such values in messages: `map[spec:map[paused:false replicas:3]]`, map keys sorted.

/** strconv.FormatFloat(f, 'g', -1, 64): the shortest digits, in exponent form below 1e-4 or from 1e6 on. */
export function goFloat(f: number): string {
  if (!Number.isFinite(f)) return Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa = '', e = '0'] = f.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(f);
}

export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o).sort().map((k) => `${k}:${goValue(o[k])}`).join(' ')}]`;
  }
  return String(v);
}
