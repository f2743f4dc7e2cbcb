// Namespaces: Active on create with the "kubernetes" finalizer; deletion only marks them
// Terminating until the namespace controller empties them and calls /finalize
// (upstream: registry/core/namespace/storage).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { isQualifiedName, nameIsDNSLabel } from '../../apimachinery/names.js';
import { rfc3339 } from '../meta.js';
import { validateKubeFinalizerName } from '../../apimachinery/objectmeta.js';
import type { Strategy } from '../strategy.js';

/**
 * Upstream's validateFinalizerName for each spec.finalizers entry: a qualified name, and prefixed unless standard.
 * ValidateNamespace names the list (`spec.finalizers`), ValidateNamespaceFinalizeUpdate the entry (`spec.finalizers[i]`).
 */
function validateSpecFinalizers(ns: KubeObject, indexed = false): StatusCause[] {
  const finalizers: unknown[] = Array.isArray(ns.spec?.finalizers) ? ns.spec.finalizers : [];
  const causes: StatusCause[] = [];
  finalizers.forEach((f, i) => {
    const name = typeof f === 'string' ? f : '';
    const path = indexed ? `spec.finalizers[${i}]` : 'spec.finalizers';
    causes.push(...isQualifiedName(name).map((m) => invalidValue(path, name, m)));
    causes.push(...validateKubeFinalizerName(name, path));
  });
  return causes;
}

/** Upstream's Canonicalize (every namespace strategy's): the kubernetes.io/metadata.name label holds the name. */
function labelWithName(ns: KubeObject): void {
  ns.metadata!.labels = { ...ns.metadata!.labels, 'kubernetes.io/metadata.name': ns.metadata!.name ?? '' };
}

/**
 * namespaces/finalize (upstream's namespaceFinalizeStrategy): the writer's object but for its status, the stored
 * one's; metadata and spec.finalizers change as sent.
 */
export function finalizeUpdate(next: KubeObject, current: KubeObject): KubeObject {
  const out: KubeObject = { ...next, metadata: { ...next.metadata } };
  if (current.status === undefined) delete out.status;
  else out.status = current.status;
  labelWithName(out);
  return out;
}

export const namespaceStrategy: Strategy = {
  nameFn: nameIsDNSLabel,
  validate: (ns) => validateSpecFinalizers(ns),
  // the metadata is checked generically, as by ValidateNamespaceFinalizeUpdate's ValidateObjectMetaUpdate
  validateSubresource: (ns, _old, _ctx, subresource) => (subresource === 'finalize' ? validateSpecFinalizers(ns, true) : []),
  prepareForCreate(ns) {
    ns.status = { phase: 'Active' };
    const finalizers = new Set<string>(ns.spec?.finalizers ?? []);
    finalizers.add('kubernetes');
    ns.spec = { ...(ns.spec ?? {}), finalizers: [...finalizers] };
    labelWithName(ns);
  },
  prepareForUpdate(ns, old) {
    ns.spec = { ...(ns.spec ?? {}), finalizers: old.spec?.finalizers ?? [] };
    labelWithName(ns);
  },
  hasPendingFinalizers(ns) {
    return (ns.metadata?.finalizers?.length ?? 0) > 0 || (ns.spec?.finalizers?.length ?? 0) > 0;
  },
  beforeDelete(ns, ctx) {
    if (ns.metadata?.deletionTimestamp) return ns;
    if (!(ns.spec?.finalizers?.length) && !(ns.metadata?.finalizers?.length)) return undefined;
    const marked: KubeObject = structuredClone(ns);
    marked.metadata!.deletionTimestamp = rfc3339(ctx.now);
    marked.metadata!.deletionGracePeriodSeconds = 0;
    marked.status = { ...(marked.status ?? {}), phase: 'Terminating' };
    return marked;
  },
};
