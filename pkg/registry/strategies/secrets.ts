// Secrets: stringData is a write-only convenience merged into data (base64) on every write, and the type defaults to
// Opaque and never changes (upstream: core/v1 conversion and registry/core/secret/strategy.go). Validation as
// upstream's ValidateSecret and ValidateSecretUpdate (pkg/apis/core/validation): valid config keys, 1 MiB of data,
// the keys each well-known type requires, and nothing changes once `immutable` is set.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, required, tooLong } from '../../apimachinery/field.js';
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

/** Go's quoteChar: how encoding/json names an unexpected character. */
const goChar = (c: string): string => (c === "'" ? "'\\''" : c === '"' ? "'\"'" : `'${JSON.stringify(c).slice(1, -1)}'`);

class SyntaxErr extends Error {}

/** encoding/json's scanner: the error of the first bad character of `text`, in Go's words, or undefined. */
function goSyntaxError(text: string): string | undefined {
  let i = 0;
  const bad = (context: string): never => {
    if (i >= text.length) throw new SyntaxErr('unexpected end of JSON input');
    throw new SyntaxErr(`invalid character ${goChar(text[i]!)} ${context}`);
  };
  const ws = (): void => { while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++; };
  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) bad(`in literal ${word} (expecting ${goChar(word[k]!)})`);
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) bad('');
      const c = text[i]!;
      if (c === '"') { i++; return; }
      if (c < ' ') bad('in string literal');
      if (c === '\\') {
        i++;
        if (i < text.length && text[i] === 'u') {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) bad('in \\u hexadecimal character escape');
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) bad('in string escape code');
      }
      i++;
    }
  };
  const number = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (/[1-9]/.test(text[i] ?? '')) while (/[0-9]/.test(text[i] ?? '')) i++;
    else bad('in numeric literal');
    if (text[i] === '.') { i++; if (!/[0-9]/.test(text[i] ?? '')) bad('after decimal point in numeric literal'); while (/[0-9]/.test(text[i] ?? '')) i++; }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!/[0-9]/.test(text[i] ?? '')) bad('in exponent of numeric literal');
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        if (text[i] !== '"') bad('looking for beginning of object key string');
        string(); ws();
        if (text[i] !== ':') bad('after object key');
        i++; value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        bad('after object key:value pair');
      }
    } else if (c === '[') {
      i++; ws();
      if (text[i] === ']') { i++; return; }
      for (;;) {
        value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        bad('after array element');
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || /[0-9]/.test(c ?? '')) number();
    else bad('looking for beginning of value');
  };
  try {
    value();
    ws();
    if (i < text.length) bad('after top-level value');
    return undefined;
  } catch (err) {
    if (err instanceof SyntaxErr) return err.message;
    throw err;
  }
}

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
