// Namespaces: Active on create with the "kubernetes" finalizer; deletion only marks them
// Terminating until the namespace controller empties them and calls /finalize
// (upstream: registry/core/namespace/storage).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { isQualifiedName, nameIsDNSLabel } from '../../apimachinery/names.js';
import { rfc3339 } from '../meta.js';
import type { Strategy } from '../strategy.js';

/** The finalizers upstream takes without a domain prefix (helper.IsStandardFinalizerName). */
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** Upstream's ValidateNamespace: every spec.finalizers entry a qualified name, and prefixed unless standard. */
function validateSpecFinalizers(ns: KubeObject): StatusCause[] {
  const finalizers: unknown[] = Array.isArray(ns.spec?.finalizers) ? ns.spec.finalizers : [];
  const causes: StatusCause[] = [];
  for (const f of finalizers) {
    const name = typeof f === 'string' ? f : '';
    causes.push(...isQualifiedName(name).map((m) => invalidValue('spec.finalizers', name, m)));
    if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
      causes.push(invalidValue('spec.finalizers', name, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return causes;
}

export const namespaceStrategy: Strategy = {
  nameFn: nameIsDNSLabel,
  validate: validateSpecFinalizers,
  prepareForCreate(ns) {
    ns.status = { phase: 'Active' };
    const finalizers = new Set<string>(ns.spec?.finalizers ?? []);
    finalizers.add('kubernetes');
    ns.spec = { ...(ns.spec ?? {}), finalizers: [...finalizers] };
    ns.metadata!.labels = { ...ns.metadata!.labels, 'kubernetes.io/metadata.name': ns.metadata!.name ?? '' };
  },
  prepareForUpdate(ns, old) {
    ns.spec = { ...(ns.spec ?? {}), finalizers: old.spec?.finalizers ?? [] };
    ns.metadata!.labels = { ...ns.metadata!.labels, 'kubernetes.io/metadata.name': ns.metadata!.name ?? '' };
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
