// StorageClasses (upstream: pkg/apis/storage/validation ValidateStorageClass and ValidateStorageClassUpdate): a
// provisioner that is a qualified name (lower-cased), parameters with non-empty keys, at most 512 of them and 256 KiB
// in all, reclaimPolicy Delete or Retain, volumeBindingMode Immediate or WaitForFirstConsumer; provisioner,
// parameters, reclaimPolicy and volumeBindingMode never change. (allowedTopologies is not checked.)
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required, tooLong } from '../../apimachinery/field.js';
import { isQualifiedName } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';
import { isObj } from '../validation/field-checks.js';

const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

function validateParameters(params: unknown, causes: StatusCause[]): void {
  if (!isObj(params)) return;
  const keys = Object.keys(params);
  if (keys.length > MAX_PARAMETERS) {
    causes.push(tooLong('parameters', MAX_PARAMETERS));
    return;
  }
  let size = 0;
  for (const k of keys) {
    if (k.length < 1) causes.push(invalidValue('parameters', k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(String(params[k] ?? ''));
  }
  if (size > MAX_PARAMETERS_SIZE) causes.push(tooLong('parameters', MAX_PARAMETERS_SIZE));
}

/** reflect.DeepEqual of two map[string]string, an absent map equal to an empty one (as stored objects have them). */
function sameParameters(a: unknown, b: unknown): boolean {
  const x = isObj(a) ? a : {};
  const y = isObj(b) ? b : {};
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => Object.hasOwn(y, k) && x[k] === y[k]);
}

export const storageClassStrategy: Strategy = {
  validate(sc) {
    const causes: StatusCause[] = [];
    const provisioner = typeof sc.provisioner === 'string' ? sc.provisioner : '';
    if (provisioner === '') causes.push(required('provisioner'));
    else {
      const lower = provisioner.toLowerCase();
      for (const m of isQualifiedName(lower)) causes.push(invalidValue('provisioner', lower, m));
    }
    validateParameters(sc.parameters, causes);
    const reclaim = sc.reclaimPolicy;
    if (typeof reclaim === 'string' && reclaim !== '' && !RECLAIM_POLICIES.includes(reclaim)) causes.push(notSupported('reclaimPolicy', reclaim, RECLAIM_POLICIES));
    const mode = sc.volumeBindingMode;
    if (mode === undefined || mode === null) causes.push(required('volumeBindingMode'));
    else if (!BINDING_MODES.includes(mode)) causes.push(notSupported('volumeBindingMode', mode, BINDING_MODES));
    return causes;
  },
  validateUpdate(sc, old) {
    const causes: StatusCause[] = [];
    if (!sameParameters(sc.parameters, old.parameters)) causes.push(forbidden('parameters', 'updates to parameters are forbidden.'));
    if ((sc.provisioner ?? '') !== (old.provisioner ?? '')) causes.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
    if ((sc.reclaimPolicy ?? '') !== (old.reclaimPolicy ?? '')) causes.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
    if ((sc.volumeBindingMode ?? null) !== (old.volumeBindingMode ?? null)) causes.push(invalidValue('volumeBindingMode', sc.volumeBindingMode ?? null, 'field is immutable'));
    return causes;
  },
};
