// Upstream 1.32's warnings for PersistentVolumeClaims (pkg/api/persistentvolumeclaim, GetWarningsForPersistentVolumeClaim)
// and PersistentVolumes (pkg/api/persistentvolume, GetWarningsForPersistentVolume), given on every create and update
// of the main resource: the beta storage-class annotation, fractional storage, the Recycle reclaim policy, deprecated
// node labels in a volume's node affinity and deprecated volume plugins.
import type { KubeObject } from '../../../api/types.js';
import { asObj, list } from '../validation/field-checks.js';
import { nodeSelectorTermWarnings, pvcSpecWarnings, volumePluginWarning } from './pod-warnings.js';

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
/** The deprecated plugins a PV is warned of, in upstream's order. */
const DEPRECATED_PV_PLUGINS = ['cephfs', 'photonPersistentDisk', 'scaleIO', 'storageos', 'glusterfs', 'rbd'];

function storageClassAnnotationWarning(obj: KubeObject): string[] {
  return Object.hasOwn(asObj(obj.metadata?.annotations) ?? {}, BETA_STORAGE_CLASS)
    ? [`metadata.annotations[${BETA_STORAGE_CLASS}]: deprecated since v1.8; use "storageClassName" attribute instead`]
    : [];
}

/** GetWarningsForPersistentVolumeClaim. */
export const persistentVolumeClaimWarnings = (pvc: KubeObject): string[] =>
  [...storageClassAnnotationWarning(pvc), ...pvcSpecWarnings(pvc.spec, 'spec')];

/** GetWarningsForPersistentVolume. */
export function persistentVolumeWarnings(pv: KubeObject): string[] {
  const spec = asObj(pv.spec) ?? {};
  const out = storageClassAnnotationWarning(pv);
  if (spec.persistentVolumeReclaimPolicy === 'Recycle') {
    out.push('spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.');
  }
  const required = asObj(asObj(spec.nodeAffinity)?.required);
  list(required?.nodeSelectorTerms).forEach((t, i) => out.push(...nodeSelectorTermWarnings(t, `spec.nodeAffinity.required.nodeSelectorTerms[${i}]`)));
  for (const plugin of DEPRECATED_PV_PLUGINS) if (spec[plugin] != null) out.push(volumePluginWarning(plugin, 'spec'));
  return out;
}
