// Object metadata the registry owns: timestamps and the comparisons that decide whether an
// update changed anything.
import type { KubeObject } from '../../api/types.js';
import { jsonEqual } from '../apimachinery/json-equal.js';
import { formatTime } from '../apimachinery/time.js';

/** RFC 3339 to the second, as metav1.Time serializes. */
export const rfc3339 = (d: Date): string => formatTime(d.getTime());

/**
 * What metadata.generation tracks: everything but metadata and status; with `statusCounts`, status too (a custom
 * resource without a status subresource: upstream's customResourceStrategy.PrepareForUpdate compares all but metadata).
 */
export function specChanged(a: KubeObject, b: KubeObject, statusCounts = false): boolean {
  return !equalExcept(a, b, statusCounts ? TYPE_AND_METADATA : TYPE_METADATA_AND_STATUS);
}

const TYPE_AND_METADATA = new Set(['metadata', 'apiVersion', 'kind']);
const TYPE_METADATA_AND_STATUS = new Set([...TYPE_AND_METADATA, 'status']);
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

/**
 * Whether an update leaves `stored` as it is: semantically equal, or differing only in the times of its managed
 * fields entries, each still in its place (upstream's IgnoreManagedFieldsTimestampsTransformer keeps the stored times
 * then, so that a write changing nothing, an apply of `2048Mi` over a stored `2Gi` say, bumps no resourceVersion).
 */
export function unchangedByUpdate(stored: KubeObject, next: KubeObject): boolean {
  const was = stored.metadata?.managedFields;
  const now = next.metadata?.managedFields;
  if (!was?.length || was.length !== now?.length) return semanticallyEqual(stored, next);
  // the rest first: most updates change it, and then the entries need no comparing
  if (!semanticallyEqual(stored, { ...next, metadata: { ...next.metadata, managedFields: was } })) return false;
  return was.every((e, i) => e === now[i] || jsonEqual({ ...e, time: undefined }, { ...now[i], time: undefined }));
}
