// PersistentVolumeClaims: upstream's ValidatePersistentVolumeClaimSpec (pkg/apis/core/validation), on creates and
// (as upstream runs it there too) updates: access modes, a positive storage request, the storage class and volume
// mode, the selector and the data source references. The update-only immutability of the spec is not checked here.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { validateLabelSelector, type LabelSelector } from '../../apimachinery/labels.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/names.js';
import { formatQuantity, parseQuantity } from '../../apimachinery/quantity.js';
import type { Strategy } from '../strategy.js';
import { asObj } from '../validation/field-checks.js';

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

export const persistentVolumeClaimStrategy: Strategy = { validate: (pvc: KubeObject) => validatePersistentVolumeClaimSpec(pvc.spec) };
