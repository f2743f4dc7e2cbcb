// Object metadata the registry owns: timestamps and the comparisons that decide whether an
// update changed anything.
import type { KubeObject } from '../../api/types.js';
import { jsonEqual } from '../apimachinery/json-equal.js';
import { formatTime } from '../apimachinery/time.js';

/** RFC 3339 to the second, as metav1.Time serializes. */
export const rfc3339 = (d: Date): string => formatTime(d.getTime());

/** Everything but metadata and status: what metadata.generation tracks. */
export function specChanged(a: KubeObject, b: KubeObject): boolean {
  return !equalExcept(a, b, NOT_SPEC);
}

const NOT_SPEC = new Set(['metadata', 'status', 'apiVersion', 'kind']);
const METADATA = new Set(['metadata']);

const equalExcept = (a: KubeObject, b: KubeObject, skip: Set<string>): boolean => {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (!skip.has(k) && !jsonEqual(a[k], b[k])) return false;
  return true;
};

/** Equal as Kubernetes objects, ignoring resourceVersion and key order. */
export function semanticallyEqual(a: KubeObject, b: KubeObject): boolean {
  if (!equalExcept(a, b, METADATA)) return false;
  const { resourceVersion: _a, ...ma } = a.metadata ?? {};
  const { resourceVersion: _b, ...mb } = b.metadata ?? {};
  return jsonEqual(ma, mb);
}
