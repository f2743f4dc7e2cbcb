// The storage admission plugins upstream enables by default (plugin/pkg/admission/storage):
// - DefaultStorageClass: a new claim that names no class gets the default StorageClass.
// - StorageObjectInUseProtection: new claims and volumes get the kubernetes.io/pvc-protection and pv-protection
//   finalizers, which the pvc-protection and pv-protection controllers remove once no pod uses the claim, no claim
//   is bound to the volume.
// - PersistentVolumeClaimResize: a claim grows only once bound, and only when its class allows volume expansion.
import { BETA_STORAGE_CLASS_ANNOTATION, PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER, storageClassOf } from '../../api/core/v1/storage-objects.js';
import { DEFAULT_STORAGE_CLASS_ANNOTATIONS, markedDefault } from '../../api/meta/v1/default-class.js';
import type { KubeObject } from '../../api/types.js';
import { compareQuantity, parseQuantity } from '../apimachinery/quantity.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden, isResource } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interface.js';


export class DefaultStorageClass implements MutatingPlugin {
  readonly name = 'DefaultStorageClass';

  constructor(private readonly deps: Pick<AdmissionDeps, 'list'>) {}

  admit(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || a.subresource || !a.object || !isResource(a, '', 'persistentvolumeclaims')) return;
    const pvc = a.object!;
    // a class named, even "" (no class), stays
    if (pvc.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] !== undefined || (pvc.spec?.storageClassName ?? null) !== null) return;
    const def = markedDefault(this.deps.list('storage.k8s.io', 'storageclasses'), DEFAULT_STORAGE_CLASS_ANNOTATIONS);
    if (def) (pvc.spec ??= {}).storageClassName = def.metadata!.name;
  }
}

export class StorageObjectInUseProtection implements MutatingPlugin {
  readonly name = 'StorageObjectInUseProtection';

  admit(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || a.subresource || !a.object) return;
    const finalizer = isResource(a, '', 'persistentvolumeclaims') ? PVC_PROTECTION_FINALIZER : isResource(a, '', 'persistentvolumes') ? PV_PROTECTION_FINALIZER : undefined;
    if (!finalizer) return;
    const meta = (a.object.metadata ??= {});
    if (!meta.finalizers?.includes(finalizer)) meta.finalizers = [...(meta.finalizers ?? []), finalizer];
  }
}

export class PersistentVolumeClaimResize implements ValidatingPlugin {
  readonly name = 'PersistentVolumeClaimResize';

  constructor(private readonly deps: Pick<AdmissionDeps, 'get'>) {}

  validate(a: AdmissionAttributes): void {
    if (a.operation !== 'UPDATE' || a.subresource || !isResource(a, '', 'persistentvolumeclaims') || !a.object || !a.oldObject) return;
    const size = (pvc: KubeObject): string => pvc.spec?.resources?.requests?.storage ?? '0';
    if (compareQuantity(parseQuantity(size(a.object)), parseQuantity(size(a.oldObject))) <= 0) return;
    if (a.oldObject.status?.phase !== 'Bound') throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
    if (!this.allowsResize(a.object, a.oldObject)) {
      throw admissionForbidden(a, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    }
  }

  private allowsResize(pvc: KubeObject, old: KubeObject): boolean {
    const cls = storageClassOf(pvc);
    if (!cls || cls !== storageClassOf(old)) return false;
    return this.deps.get('storage.k8s.io', 'storageclasses', undefined, cls)?.allowVolumeExpansion === true;
  }
}
