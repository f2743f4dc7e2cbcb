// A deep copy of a JSON value (what JSON.parse returns, and what objects built from it hold). structuredClone
// serializes and deserializes through V8's value serializer: ~8x slower for a pod, and the write paths copy one or
// two objects per request (a patch's original and patch, a PUT body kept for retries).
type Obj = Record<string, unknown>;

export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const out: Obj = {};
  for (const k of Object.keys(value)) {
    const v = cloneJson((value as Obj)[k]);
    // a "__proto__" key from JSON.parse is an own property; plain assignment would set the prototype instead
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out as T;
}
