// PersistentVolumeClaims: upstream's ValidatePersistentVolumeClaimSpec (pkg/apis/core/validation), on creates and
// (as upstream runs it there too) updates: access modes, a positive storage request, the storage class and volume
// mode, the selector and the data source references. On updates, ValidatePersistentVolumeClaimUpdate: the spec is
// immutable but for the storage request of a bound claim, a volumeName set once, and a storage class given where
// the old claim had none (or had it in the beta annotation, which is itself immutable); the request may shrink only
// above status.capacity (RecoverVolumeExpansionFailure, beta and on in 1.32).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { validateLabelSelector, type LabelSelector } from '../../apimachinery/labels.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/names.js';
import { compareQuantity, formatQuantity, parseQuantity } from '../../apimachinery/quantity.js';
import { cloneJson } from '../../apimachinery/json-clone.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import type { Strategy } from '../strategy.js';
import { asObj } from '../validation/field-checks.js';
import { goNested, goString, goStringPointer, goStructDiff, goTypedSlice, type GoField } from '../validation/go-diff.js';
import { persistentVolumeClaimWarnings } from './volume-warnings.js';

type Obj = Record<string, any>;


/** sets.List order. */
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];

function validateDataSource(ref: Obj, path: string, namespaced: boolean): StatusCause[] {
  // a missing name or kind is the schema check's Required
  const causes: StatusCause[] = [];
  const apiGroup = typeof ref.apiGroup === 'string' ? ref.apiGroup : '';
  if (apiGroup === '' && ref.kind !== 'PersistentVolumeClaim' && typeof ref.kind === 'string' && ref.kind !== '') {
    causes.push(invalidValue(path, ref.kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (apiGroup !== '') causes.push(...isDNS1123Subdomain(apiGroup).map((m) => invalidValue(`${path}.apiGroup`, apiGroup, m)));
  if (namespaced && typeof ref.namespace === 'string' && ref.namespace !== '') {
    causes.push(...isDNS1123Label(ref.namespace).map((m) => invalidValue(`${path}.namespace`, ref.namespace, m)));
  }
  return causes;
}

export function validatePersistentVolumeClaimSpec(specValue: unknown, path = 'spec'): StatusCause[] {
  const spec = asObj(specValue) ?? {};
  const causes: StatusCause[] = [];
  const modes: unknown[] = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) causes.push(required(`${path}.accessModes`, 'at least 1 access mode is required'));
  if (asObj(spec.selector)) causes.push(...validateLabelSelector(spec.selector as LabelSelector, `${path}.selector`));
  let oncePod = false;
  let others = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode as string)) causes.push(notSupported(`${path}.accessModes`, mode, ACCESS_MODES));
    else if (mode === 'ReadWriteOncePod') oncePod = true;
    else others = true;
  }
  if (oncePod && others) causes.push(forbidden(`${path}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));
  const requests = asObj(asObj(spec.resources)?.requests);
  const storage = requests?.storage;
  const storagePath = `${path}.resources[storage]`;
  if (storage === undefined || storage === null) causes.push(required(storagePath));
  else {
    try {
      const q = parseQuantity(String(storage));
      if (q.nanos <= 0n) causes.push(invalidValue(storagePath, formatQuantity(q), 'must be greater than zero'));
    } catch { /* a malformed quantity is refused when decoded */ }
  }
  if (typeof spec.storageClassName === 'string' && spec.storageClassName !== '') {
    causes.push(...isDNS1123Subdomain(spec.storageClassName).map((m) => invalidValue(`${path}.storageClassName`, spec.storageClassName, m)));
  }
  if (typeof spec.volumeMode === 'string' && !VOLUME_MODES.includes(spec.volumeMode)) {
    causes.push(notSupported(`${path}.volumeMode`, spec.volumeMode, VOLUME_MODES));
  }
  const dataSource = asObj(spec.dataSource);
  const dataSourceRef = asObj(spec.dataSourceRef);
  if (dataSource) causes.push(...validateDataSource(dataSource, `${path}.dataSource`, false));
  if (dataSourceRef) causes.push(...validateDataSource(dataSourceRef, `${path}.dataSourceRef`, true));
  if (dataSourceRef && typeof dataSourceRef.namespace === 'string' && dataSourceRef.namespace !== '') {
    if (dataSource) causes.push(invalidValue(path, `${path}.dataSource`, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (dataSource && dataSourceRef) {
    const same = (dataSource.apiGroup ?? null) === (dataSourceRef.apiGroup ?? null) && dataSource.kind === dataSourceRef.kind && dataSource.name === dataSourceRef.name;
    if (!same) causes.push(invalidValue(path, `${path}.dataSource`, 'must match dataSourceRef'));
  }
  return causes;
}

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
/** core.PersistentVolumeClaimSpec's fields in Go's order, for the diff of the immutable-spec error. */
const CLAIM_SPEC_FIELDS: readonly GoField[] = [
  { name: 'AccessModes', json: 'accessModes', render: goTypedSlice('core.PersistentVolumeAccessMode') },
  { name: 'Selector', json: 'selector', render: goNested(true) },
  { name: 'Resources', json: 'resources', render: goNested(false) },
  { name: 'VolumeName', json: 'volumeName', render: goString },
  { name: 'StorageClassName', json: 'storageClassName', render: goStringPointer },
  { name: 'VolumeMode', json: 'volumeMode', render: goStringPointer },
  { name: 'DataSource', json: 'dataSource', render: goNested(true) },
  { name: 'DataSourceRef', json: 'dataSourceRef', render: goNested(true) },
  { name: 'VolumeAttributesClassName', json: 'volumeAttributesClassName', render: goStringPointer },
];

const storageOf = (spec: Obj | undefined): string | undefined => {
  const v = asObj(asObj(spec?.resources)?.requests)?.storage;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
};
/** a < b as quantities; a malformed one (refused when decoded) compares as nothing. */
const lessThan = (a: string | undefined, b: string | undefined): boolean => {
  try {
    return compareQuantity(parseQuantity(a ?? '0'), parseQuantity(b ?? '0')) < 0;
  } catch {
    return false;
  }
};

/** ValidatePersistentVolumeClaimUpdate's own rules (the spec's are validate's). */
export function validatePersistentVolumeClaimUpdate(pvc: KubeObject, old: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const next: Obj = cloneJson(asObj(pvc.spec) ?? {});
  const prev: Obj = cloneJson(asObj(old.spec) ?? {});
  // the volume binder sets volumeName once
  if (!prev.volumeName) prev.volumeName = next.volumeName;
  const oldAnnotation = old.metadata?.annotations?.[BETA_STORAGE_CLASS];
  const newAnnotation = pvc.metadata?.annotations?.[BETA_STORAGE_CLASS];
  const fromAnnotation = oldAnnotation !== undefined && prev.storageClassName === undefined
    && next.storageClassName === oldAnnotation && (newAnnotation === undefined || newAnnotation === oldAnnotation);
  if (fromAnnotation) delete next.storageClassName;
  else {
    if ((newAnnotation ?? '') !== (oldAnnotation ?? '')) {
      causes.push(invalidValue(`metadata.annotations.${BETA_STORAGE_CLASS}`, newAnnotation ?? '', 'field is immutable'));
    }
    const fromNil = next.storageClassName !== undefined && prev.storageClassName === undefined
      && (oldAnnotation === undefined || next.storageClassName === oldAnnotation);
    if (fromNil) delete next.storageClassName;
  }
  // a bound claim's storage request may change (expansion is the resize admission plugin's to allow)
  if (old.status?.phase === 'Bound' && asObj(asObj(next.resources)?.requests)) {
    const prevStorage = storageOf(old.spec);
    if (prevStorage === undefined) delete next.resources.requests.storage;
    else next.resources.requests.storage = prevStorage;
  }
  next.volumeAttributesClassName = prev.volumeAttributesClassName;
  if (next.volumeAttributesClassName === undefined) delete next.volumeAttributesClassName;
  if (!jsonEqual(next, prev)) {
    const diff = goStructDiff('core.PersistentVolumeClaimSpec', CLAIM_SPEC_FIELDS, prev, next);
    causes.push(forbidden('spec', `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${diff}`));
  }
  const newSize = storageOf(pvc.spec);
  if (lessThan(newSize, storageOf(old.spec))) {
    const capacity = asObj(old.status?.capacity)?.storage;
    if (!lessThan(typeof capacity === 'string' ? capacity : undefined, newSize)) {
      causes.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
    }
  }
  const mode = pvc.spec?.volumeMode ?? null;
  if (mode !== (old.spec?.volumeMode ?? null)) causes.push(invalidValue('volumeMode', mode, 'field is immutable'));
  return causes;
}

export const persistentVolumeClaimStrategy: Strategy = {
  // upstream clears the status on create and its v1 defaulting (applied as the stored object is read back) sets
  // phase Pending: the create response and every read show it, so the binder never has to write it
  prepareForCreate(pvc) {
    pvc.status = { phase: 'Pending' };
  },
  validate: (pvc: KubeObject) => validatePersistentVolumeClaimSpec(pvc.spec),
  validateUpdate: validatePersistentVolumeClaimUpdate,
  // of the new object on every update, as upstream
  warningsOnCreate: persistentVolumeClaimWarnings,
  warningsOnUpdate: persistentVolumeClaimWarnings,
};
