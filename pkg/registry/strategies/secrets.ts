// Secrets: stringData is a write-only convenience merged into data (base64) on every write, and the type defaults to
// Opaque and never changes (upstream: core/v1 conversion and registry/core/secret/strategy.go). Validation as
// upstream's ValidateSecret and ValidateSecretUpdate (pkg/apis/core/validation): valid config keys, 1 MiB of data,
// the keys each well-known type requires, and nothing changes once `immutable` is set.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, required, tooLong } from '../../apimachinery/field.js';
import { goSyntaxError } from '../../apimachinery/go-json-syntax.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import type { Strategy } from '../strategy.js';
import { checkDataKeys, dataSize, MAX_DATA_SIZE } from '../validation/config-key.js';

function mergeStringData(secret: KubeObject): void {
  const stringData = secret.stringData as Record<string, string> | undefined;
  delete secret.stringData;
  secret.type ||= 'Opaque';
  if (!stringData || Object.keys(stringData).length === 0) return;
  const data: Record<string, string> = { ...(secret.data ?? {}) };
  for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
  secret.data = data;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * encoding/json's error unmarshalling `text` into a map[string]interface{}, or undefined when it would succeed
 * (an object, or null).
 */
export function goJsonObjectError(text: string): string | undefined {
  const syntax = goSyntaxError(text);
  if (syntax) return syntax;
  const value: unknown = JSON.parse(text);
  if (value === null || isMap(value)) return undefined;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

const decoded = (v: unknown): string => (typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '');

export function validateSecret(secret: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const data = isMap(secret.data) ? secret.data : {};
  const bound = checkDataKeys(secret.data, 'data', true, causes);
  if (bound > MAX_DATA_SIZE && dataSize(secret.data, true) > MAX_DATA_SIZE) causes.push(tooLong('data', MAX_DATA_SIZE));
  const has = (key: string): boolean => Object.hasOwn(data, key);
  const jsonKey = (key: string): void => {
    if (!has(key)) {
      causes.push(required(`data[${key}]`));
      return;
    }
    const err = goJsonObjectError(decoded(data[key]));
    if (err) causes.push(invalidValue(`data[${key}]`, '<secret contents redacted>', err));
  };
  switch (secret.type) {
    case 'kubernetes.io/service-account-token': {
      const name = secret.metadata?.annotations?.['kubernetes.io/service-account.name'];
      if (!name) causes.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
      break;
    }
    case 'kubernetes.io/dockercfg':
      jsonKey('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      jsonKey('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) causes.push(required('data[username]'), required('data[password]'));
      break;
    case 'kubernetes.io/ssh-auth':
      if (!has('ssh-privatekey') || decoded(data['ssh-privatekey']).length === 0) causes.push(required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) causes.push(required('data[tls.crt]'));
      if (!has('tls.key')) causes.push(required('data[tls.key]'));
      break;
    default:
  }
  return causes;
}

const IMMUTABLE = 'field is immutable when `immutable` is set';

/** Upstream's ValidateSecretUpdate: type and immutability, then the Secret's own rules. */
function validateSecretUpdate(secret: KubeObject, old: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  if ((secret.type ?? 'Opaque') !== (old.type ?? 'Opaque')) causes.push(invalidValue('type', secret.type, 'field is immutable'));
  if (old.immutable === true) {
    if (secret.immutable !== true) causes.push(forbidden('immutable', IMMUTABLE));
    if (!jsonEqual(secret.data ?? {}, old.data ?? {})) causes.push(forbidden('data', IMMUTABLE));
  }
  causes.push(...validateSecret(secret));
  return causes;
}

export const secretStrategy: Strategy = {
  prepareForCreate: mergeStringData,
  prepareForUpdate: mergeStringData,
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
  updateValidationIsComplete: true,
};
