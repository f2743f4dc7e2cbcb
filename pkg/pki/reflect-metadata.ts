// @peculiar/x509 wires itself with tsyringe, which refuses to load without the Reflect metadata API.
// This is the little of that API tsyringe calls, installed only when no real polyfill is present.
type MetadataTarget = object;
const store = new WeakMap<MetadataTarget, Map<unknown, unknown>>();

const own = (target: MetadataTarget, key: unknown): unknown => store.get(target)?.get(key);

const reflect = Reflect as unknown as Record<string, unknown>;
if (typeof reflect['getMetadata'] !== 'function') {
  Object.assign(reflect, {
    defineMetadata(key: unknown, value: unknown, target: MetadataTarget): void {
      const m = store.get(target) ?? new Map<unknown, unknown>();
      m.set(key, value);
      store.set(target, m);
    },
    getOwnMetadata: own,
    getMetadata(key: unknown, target: MetadataTarget): unknown {
      for (let t: MetadataTarget | null = target; t; t = Object.getPrototypeOf(t) as MetadataTarget | null) {
        const v = own(t, key);
        if (v !== undefined) return v;
      }
      return undefined;
    },
  });
}
