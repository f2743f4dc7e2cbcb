// ConfigMaps: upstream's ValidateConfigMap and ValidateConfigMapUpdate (pkg/apis/core/validation): every key of data
// and binaryData a valid config key and in only one of them, 1 MiB for all values together, and nothing changes
// once `immutable` is set. ConfigMap writes are the apiserver's hot path: one pass over the keys, sizes computed
// only when a cheap bound says they might be too large.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, tooLong } from '../../apimachinery/field.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import type { Strategy } from '../strategy.js';
import { checkDataKeys, dataSize, MAX_DATA_SIZE } from '../validation/config-key.js';

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function validateConfigMap(cm: KubeObject): StatusCause[] {
  const { data, binaryData } = cm as { data?: unknown; binaryData?: unknown };
  if (data === undefined && binaryData === undefined) return [];
  const causes: StatusCause[] = [];
  let bound = checkDataKeys(data, 'data', false, causes);
  if (isMap(data) && isMap(binaryData)) {
    for (const key in data) {
      if (Object.hasOwn(binaryData, key)) causes.push(invalidValue(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    }
  }
  bound += checkDataKeys(binaryData, 'binaryData', true, causes);
  // the whole object: upstream's field.NewPath("") prints as "[]"
  if (bound > MAX_DATA_SIZE && dataSize(data, false) + dataSize(binaryData, true) > MAX_DATA_SIZE) causes.push(tooLong('[]', MAX_DATA_SIZE));
  return causes;
}

const IMMUTABLE = 'field is immutable when `immutable` is set';

/** An absent map and an empty one are the same once stored. */
const sameMap = (a: unknown, b: unknown): boolean =>
  jsonEqual(isMap(a) && Object.keys(a).length === 0 ? undefined : a, isMap(b) && Object.keys(b).length === 0 ? undefined : b);

/** Upstream's ValidateConfigMapUpdate: the immutability rules, then the ConfigMap's own. */
export function validateConfigMapUpdate(cm: KubeObject, old: KubeObject): StatusCause[] {
  if (old.immutable !== true) return validateConfigMap(cm);
  const causes: StatusCause[] = [];
  if (cm.immutable !== true) causes.push(forbidden('immutable', IMMUTABLE));
  if (!sameMap(cm.data, old.data)) causes.push(forbidden('data', IMMUTABLE));
  if (!sameMap(cm.binaryData, old.binaryData)) causes.push(forbidden('binaryData', IMMUTABLE));
  causes.push(...validateConfigMap(cm));
  return causes;
}

export const configMapStrategy: Strategy = { validate: validateConfigMap, validateUpdate: validateConfigMapUpdate, updateValidationIsComplete: true };
