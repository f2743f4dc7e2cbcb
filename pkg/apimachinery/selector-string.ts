// A *metav1.LabelSelector as Go prints it with %v / %+v (its generated String()), as upstream's controllers quote it
// in events and metric names, and its printers in table cells.

export interface SelectorLike {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** `&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}` */
export const selectorString = (sel: SelectorLike): string => {
  const labels = Object.keys(sel.matchLabels ?? {}).sort().map((k) => `${k}: ${sel.matchLabels![k]},`).join('');
  const exprs = (sel.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
};
