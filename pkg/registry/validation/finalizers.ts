// The apiextensions-apiserver's warnings of finalizer names.
import { isQualifiedName } from '../../apimachinery/names.js';
import { isStandardFinalizerName } from '../../apimachinery/objectmeta.js';
import { goQuote } from './go-values.js';

/**
 * Warnings for the finalizers a write adds to a custom resource (upstream's generateWarningsFromObj and its
 * validateKubeFinalizerName): each new one, in sorted order, not a qualified name or neither standard nor prefixed.
 * A dotted name without a path is told to add one.
 */
export function finalizerWarnings(finalizers: string[] | undefined, old?: string[]): string[] {
  const before = new Set(old ?? []);
  const added = [...new Set(finalizers ?? [])].filter((f) => !before.has(f)).sort();
  return added.flatMap((name) => {
    const prefix = `metadata.finalizers: ${goQuote(name)}: `;
    const out = isQualifiedName(name).map((m) => prefix + m);
    if (!name.includes('/') && !isStandardFinalizerName(name)) {
      out.push(`${prefix}prefer a domain-qualified finalizer name ${name.includes('.') ? 'including a path (/) ' : ''}to avoid accidental conflicts with other finalizer writers`);
    }
    return out;
  });
}
