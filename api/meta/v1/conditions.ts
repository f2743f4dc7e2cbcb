// metav1.Condition lists, as apimachinery's meta.SetStatusCondition keeps them.

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

/**
 * The list with `c` set: added, or replacing the one of its type; the transition time (`now`, RFC 3339) moves only when
 * the status changes. A new list; the old one is left as it was.
 */
export function setStatusCondition(conditions: readonly Condition[] | undefined, c: Omit<Condition, 'lastTransitionTime'>, now: string): Condition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((x) => x.type === c.type);
  const old = i >= 0 ? list[i] : undefined;
  const next: Condition = { ...c, lastTransitionTime: old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now };
  if (next.observedGeneration === undefined) delete next.observedGeneration;
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list;
}
