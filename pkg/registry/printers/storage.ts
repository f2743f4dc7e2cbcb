// Persistent volumes and claims, storage classes, CSI drivers and nodes, volume attachments.
import { storageClassOf } from '../../../api/core/v1/storage-objects.js';
import { DEFAULT_STORAGE_CLASS_ANNOTATIONS } from '../../../api/meta/v1/default-class.js';
import type { KubeObject } from '../../../api/types.js';
import { ageColumn, column, nameColumn, type Printer, simplePrinter, wideColumn } from './types.js';
import { age } from './duration.js';
import { accessModes } from './format.js';


const phaseOf = (obj: KubeObject): string => (obj.metadata?.deletionTimestamp ? 'Terminating' : (obj.status?.phase ?? ''));

const volumeModeColumn = wideColumn('VolumeMode', 'Whether the volume is a filesystem or a raw block device.');
const volumeAttributesClassColumn = (what: string) =>
  column('VolumeAttributesClass', `The volume attributes class of the ${what}.`);

export const persistentVolumePrinter: Printer = {
  columns: [
    nameColumn,
    column('Capacity', 'The storage capacity of the volume.'),
    column('Access Modes', 'The ways the volume can be mounted.'),
    column('Reclaim Policy', 'What happens to the volume when its claim is released.'),
    column('Status', 'The phase of the volume.'),
    column('Claim', 'The claim bound to the volume, as namespace/name.'),
    column('StorageClass', 'The storage class of the volume.'),
    volumeAttributesClassColumn('volume'),
    column('Reason', 'Why the volume is in its phase, when it failed.'),
    ageColumn,
    volumeModeColumn,
  ],
  cells(pv, now) {
    const claim = pv.spec?.claimRef;
    return [
      pv.metadata?.name ?? '',
      pv.spec?.capacity?.storage ?? '0',
      accessModes(pv.spec?.accessModes),
      pv.spec?.persistentVolumeReclaimPolicy ?? '',
      phaseOf(pv),
      claim ? `${claim.namespace ?? ''}/${claim.name ?? ''}` : '',
      storageClassOf(pv),
      pv.spec?.volumeAttributesClassName ?? '<unset>',
      pv.status?.reason ?? '',
      age(pv, now),
      pv.spec?.volumeMode ?? '<unset>',
    ];
  },
};

export const persistentVolumeClaimPrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'The phase of the claim.'),
    column('Volume', 'The volume bound to the claim.'),
    column('Capacity', 'The capacity of the bound volume.'),
    column('Access Modes', 'The ways the bound volume can be mounted.'),
    column('StorageClass', 'The storage class of the claim.'),
    volumeAttributesClassColumn('claim'),
    ageColumn,
    volumeModeColumn,
  ],
  cells(pvc, now) {
    const volume: string = pvc.spec?.volumeName ?? '';
    return [
      pvc.metadata?.name ?? '',
      phaseOf(pvc),
      volume,
      volume ? (pvc.status?.capacity?.storage ?? '0') : '',
      volume ? accessModes(pvc.status?.accessModes) : '',
      storageClassOf(pvc),
      pvc.spec?.volumeAttributesClassName ?? '<unset>',
      age(pvc, now),
      pvc.spec?.volumeMode ?? '<unset>',
    ];
  },
};

export const storageClassPrinter: Printer = {
  columns: [
    nameColumn,
    column('Provisioner', 'The volume plugin that provisions volumes of this class.'),
    column('ReclaimPolicy', 'What happens to volumes of this class when released.'),
    column('VolumeBindingMode', 'When claims of this class are bound and provisioned.'),
    column('AllowVolumeExpansion', 'Whether volumes of this class can be expanded.'),
    ageColumn,
  ],
  cells(sc, now) {
    const annotations = sc.metadata?.annotations ?? {};
    const isDefault = DEFAULT_STORAGE_CLASS_ANNOTATIONS.some((a) => annotations[a] === 'true');
    return [
      `${sc.metadata?.name ?? ''}${isDefault ? ' (default)' : ''}`,
      sc.provisioner ?? '',
      sc.reclaimPolicy ?? 'Delete',
      sc.volumeBindingMode ?? 'Immediate',
      sc.allowVolumeExpansion ?? false,
      age(sc, now),
    ];
  },
};

export const csiDriverPrinter = simplePrinter(
  [
    column('AttachRequired', 'Whether volumes of the driver need attaching.', 'boolean'),
    column('PodInfoOnMount', 'Whether the driver gets pod information on mount.', 'boolean'),
    column('StorageCapacity', 'Whether the driver reports storage capacity.', 'boolean'),
    column('TokenRequests', 'Audiences of the service account tokens the driver asks for.'),
    column('RequiresRepublish', 'Whether the driver wants NodePublishVolume called periodically.', 'boolean'),
    column('Modes', 'The volume lifecycle modes the driver supports.'),
  ],
  (d) => {
    const spec = d.spec ?? {};
    const tokens: { audience: string }[] | undefined = spec.tokenRequests;
    const modes: string[] = spec.volumeLifecycleModes ?? [];
    return [
      spec.attachRequired ?? true,
      spec.podInfoOnMount ?? false,
      spec.storageCapacity ?? false,
      tokens ? tokens.map((t) => t.audience).join(',') : '<unset>',
      spec.requiresRepublish ?? false,
      modes.length > 0 ? modes.join(',') : '<none>',
    ];
  },
);

export const csiNodePrinter = simplePrinter(
  [column('Drivers', 'How many CSI drivers are registered on the node.', 'integer')],
  (n) => [(n.spec?.drivers ?? []).length],
);

export const volumeAttachmentPrinter = simplePrinter(
  [
    // upstream marks Attacher with the "name" format too
    { ...column('Attacher', 'The CSI driver that attaches the volume.'), format: 'name' },
    column('PV', 'The persistent volume being attached.'),
    column('Node', 'The node the volume is attached to.'),
    column('Attached', 'Whether the volume is attached.', 'boolean'),
  ],
  (va) => [
    va.spec?.attacher ?? '',
    va.spec?.source?.persistentVolumeName ?? '',
    va.spec?.nodeName ?? '',
    va.status?.attached ?? false,
  ],
);

/** Upstream's printCSIStorageCapacity: no Age column; a capacity not reported is <unset>. */
export const csiStorageCapacityPrinter: Printer = {
  columns: [
    nameColumn,
    column('StorageClassName', 'The storage class the capacity applies to.'),
    column('Capacity', 'The capacity available for new volumes of that class in the topology segment.'),
  ],
  cells: (c) => [c.metadata?.name ?? '', c.storageClassName ?? '', c.capacity ?? '<unset>'],
};
