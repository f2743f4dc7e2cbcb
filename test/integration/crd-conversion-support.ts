// The conversion the CRD conversion tests' webhooks perform: v1 keeps spec.name, v2 spec.fullName.

export type Obj = Record<string, any>;

/** `obj` in the version `desired` (an apiVersion). */
export function convert(obj: Obj, desired: string): Obj {
  const out = structuredClone(obj);
  const spec = out.spec ?? {};
  if (desired.endsWith('/v2') && 'name' in spec) {
    spec.fullName = spec.name;
    delete spec.name;
  } else if (desired.endsWith('/v1') && 'fullName' in spec) {
    spec.name = spec.fullName;
    delete spec.fullName;
  }
  out.apiVersion = desired;
  return out;
}
