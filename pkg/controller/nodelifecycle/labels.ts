// Upstream's reconcileNodeLabels (labelReconcileInfo): the beta OS and arch labels a node still carries for old
// clients follow the stable ones, the source of truth. A beta label is added when missing and overwritten when it
// differs; a node without the stable label is left as it is (beta labels are never copied the other way).
const RECONCILED: readonly (readonly [stable: string, beta: string])[] = [
  ['kubernetes.io/os', 'beta.kubernetes.io/os'],
  ['kubernetes.io/arch', 'beta.kubernetes.io/arch'],
];

/** The beta labels to set on a node with these labels, or undefined when they are in step. */
export function betaLabelsToReconcile(labels: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!labels) return undefined;
  const update: Record<string, string> = {};
  for (const [stable, beta] of RECONCILED) {
    const value = labels[stable];
    if (value !== undefined && labels[beta] !== value) update[beta] = value;
  }
  return Object.keys(update).length ? update : undefined;
}
