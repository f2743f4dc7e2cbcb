// Keys of ConfigMap and Secret data (upstream's IsConfigMapKey), and the size limit their values share.
//
//   isConfigMapKey(key): string[]        // [] when valid (the common case allocates nothing)
//   checkDataKeys(data, path, encoded, causes): number   // data[key] causes; a cheap bound on the values' size
//   dataSize(data, encoded): number                       // the exact size, as Go's len() counts it
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { DNS1123_SUBDOMAIN_MAX, maxLenError, regexError } from '../../apimachinery/names.js';

/** core.MaxSecretSize: the limit of a Secret's data, and of a ConfigMap's data and binaryData together. */
export const MAX_DATA_SIZE = 1024 * 1024;

const KEY_FMT = '[-._a-zA-Z0-9]+';
const KEY = /^[-._a-zA-Z0-9]+$/;
const KEY_ERROR = regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", KEY_FMT, 'key.name', 'KEY_NAME', 'key-name');
const NONE: string[] = [];

export function isConfigMapKey(key: string): string[] {
  if (key.length <= DNS1123_SUBDOMAIN_MAX && KEY.test(key) && !(key[0] === '.' && (key.length === 1 || key[1] === '.'))) return NONE;
  const errs: string[] = [];
  if (key.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!KEY.test(key)) errs.push(KEY_ERROR);
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** Go's len([]byte) of a base64-encoded value: its decoded length. */
export const base64Length = (s: string): number => {
  let pad = 0;
  if (s.endsWith('==')) pad = 2;
  else if (s.endsWith('=')) pad = 1;
  return Math.floor((s.length * 3) / 4) - pad;
};

/**
 * Pushes a cause at `path[key]` for every bad key of `data` and returns a bound on the values' size: a text value of
 * n UTF-16 units is at most 3n UTF-8 bytes, a base64 one (`encoded`) decodes to fewer bytes than its length. Only
 * when the bounds pass MAX_DATA_SIZE is dataSize() worth computing.
 */
export function checkDataKeys(data: unknown, path: string, encoded: boolean, causes: StatusCause[]): number {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 0;
  const map = data as Record<string, unknown>;
  let bound = 0;
  for (const key in map) {
    const errs = isConfigMapKey(key);
    for (const msg of errs) causes.push(invalidValue(`${path}[${key}]`, key, msg));
    const v = map[key];
    if (typeof v === 'string') bound += encoded ? v.length : v.length * 3;
  }
  return bound;
}

/** The values' size as Go's len() counts it: UTF-8 bytes of text, decoded bytes of base64 (`encoded`). */
export function dataSize(data: unknown, encoded: boolean): number {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 0;
  const map = data as Record<string, unknown>;
  let size = 0;
  for (const key in map) {
    const v = map[key];
    if (typeof v === 'string') size += encoded ? base64Length(v) : Buffer.byteLength(v, 'utf8');
  }
  return size;
}
