// Which StorageClass a PersistentVolume or claim belongs to, and the finalizers that keep them while in use.
import type { KubeObject } from '../../types.js';

/** The annotation that named the class before spec.storageClassName (still read first, as upstream). */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** The object's class: the beta annotation's, else spec.storageClassName; "" for none (GetPersistentVolume(Claim)Class). */
export const storageClassOf = (obj: KubeObject): string =>
  obj.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? (obj.spec?.storageClassName as string | undefined) ?? '';

/** Keeps a claim while a pod uses it (added at creation by StorageObjectInUseProtection, removed by pvc-protection). */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
/** Keeps a volume while a claim is bound to it (added at creation, removed by pv-protection). */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
