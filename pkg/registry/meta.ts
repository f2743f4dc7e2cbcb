// Object metadata the registry owns: timestamps, uids, and the comparisons that decide whether an
// update changed anything.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../api/types.js';

/** RFC 3339 with seconds precision, as metav1.Time serializes. */
export const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export const newUid = (): string => randomUUID();

/** Everything but metadata and status: what metadata.generation tracks. */
export function specChanged(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject): string => {
    const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o;
    return JSON.stringify(sortKeys(rest));
  };
  return strip(a) !== strip(b);
}

/** Equal as Kubernetes objects, ignoring resourceVersion and key order. */
export function semanticallyEqual(a: KubeObject, b: KubeObject): boolean {
  const norm = (o: KubeObject): string => {
    const { resourceVersion: _rv, ...meta } = o.metadata ?? {};
    return JSON.stringify(sortKeys({ ...o, metadata: meta }));
  };
  return norm(a) === norm(b);
}

/** JSON with keys sorted at every level: equal objects give equal strings whatever their key order. */
export const canonicalJson = (v: unknown): string => JSON.stringify(sortKeys(v));

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}
