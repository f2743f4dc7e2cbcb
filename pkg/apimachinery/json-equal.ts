// Equality of JSON values as their JSON says: key order does not matter, an undefined property is an
// absent one (JSON.stringify drops it) and an undefined array item is null. Walks without allocating,
// where comparing canonical JSON strings would build two copies of both values.
type Obj = Record<string, unknown>;

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  let defined = 0;
  for (const k of Object.keys(a)) {
    const v = (a as Obj)[k];
    if (v === undefined) continue;
    defined++;
    if (!jsonEqual(v, (b as Obj)[k])) return false;
  }
  for (const k of Object.keys(b)) if ((b as Obj)[k] !== undefined) defined--;
  return defined === 0;
}
