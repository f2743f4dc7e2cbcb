// Classes marked default by an annotation (StorageClass, IngressClass), as upstream picks one.
import type { KubeObject } from '../../types.js';

/**
 * The object one of `annotations` marks default ("true"): the newest when several are, by name at equal times
 * (upstream's GetDefaultClass for StorageClasses and IngressClasses).
 */
export function markedDefault(objects: readonly KubeObject[], annotations: readonly string[]): KubeObject | undefined {
  const created = (o: KubeObject): number => Date.parse(o.metadata?.creationTimestamp ?? '') || 0;
  return objects
    .filter((o) => annotations.some((a) => o.metadata?.annotations?.[a] === 'true'))
    .sort((a, b) => created(b) - created(a) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))[0];
}

/** The annotations that make a StorageClass the default one (GA and beta). */
export const DEFAULT_STORAGE_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];
