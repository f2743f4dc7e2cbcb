// Fields behind feature gates that are off in 1.32 by default, outside pod specs (pod-disabled-fields.ts has those):
// upstream's strategies drop them before validation unless the stored object already has them.

type Obj = Record<string, unknown>;

const parentOf = (obj: unknown, path: readonly string[]): Obj | undefined => {
  let o = obj;
  for (const k of path.slice(0, -1)) o = o !== null && typeof o === 'object' ? (o as Obj)[k] : undefined;
  return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Obj) : undefined;
};

const isSet = (obj: unknown, path: readonly string[]): boolean => {
  const v = parentOf(obj, path)?.[path[path.length - 1]!];
  return v !== undefined && v !== null;
};

/**
 * Drops (in place) each field at `paths` that `obj` has and `old` (the stored object, on an update) has not. In place
 * is safe: where `old` lacks the field, the object holding it in `obj` is not one `old` shares.
 */
export function dropGatedFields(obj: unknown, old: unknown, paths: readonly (readonly string[])[]): void {
  for (const path of paths) {
    const parent = parentOf(obj, path);
    const field = path[path.length - 1]!;
    if (parent && parent[field] !== undefined && !isSet(old, path)) delete parent[field];
  }
}
