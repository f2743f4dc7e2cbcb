// The small checks the pod spec's validators share: reading a decoded object defensively (a field of an odd shape
// reads as absent, never as a 500) and upstream's name, path and range checks, worded as upstream words them
// (pkg/apis/core/validation/validation.go, k8s.io/apimachinery/pkg/util/validation).
import type { KubeObject } from '../../../api/types.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, required } from '../../apimachinery/field.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, regexError } from '../../apimachinery/names.js';

const NONE: readonly unknown[] = Object.freeze([]);

/** A JSON object (not an array, not null). */
export const isObj = (v: unknown): v is KubeObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The JSON object, or undefined for anything else (a field of an odd shape reads as absent). */
export const asObj = (v: unknown): KubeObject | undefined => (isObj(v) ? v : undefined);
/** The string, or '' (Go's zero value) for anything else. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** The array, or an empty one. */
export const list = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : NONE);
/** The number, or undefined (a nil pointer). */
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * Whether the generic schema check (pkg/registry/schema/required.ts) already reports this schema-required field as
 * missing ("Required value", bare): a rule that would say the same leaves it to that check, so it is not said twice.
 */
export const missingForSchema = (v: unknown): boolean => v === undefined || v === null || v === '';

/** A bare Required cause for the schema-required field `raw` at `path`, unless the schema check gives it already. */
export function requireSchemaField(causes: StatusCause[], path: string, raw: unknown): void {
  if (!missingForSchema(raw)) causes.push(required(path));
}

/** validation.InclusiveRangeError. */
export const inclusiveRange = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;
export const MAX_INT32 = 2147483647;
/** validation.IsValidUserID / IsValidGroupID: 0 to MaxInt32. */
export const ID_RANGE = inclusiveRange(0, MAX_INT32);
export const isValidID = (v: number): boolean => v >= 0 && v <= MAX_INT32;

/** An Invalid cause whose value is already rendered as Go renders it (%#v of a struct, say). */
export const invalidRaw = (path: string, rendered: string, detail: string): StatusCause =>
  fieldCause('FieldValueInvalid', path, `Invalid value: ${rendered}: ${detail}`);

/** ValidateDNS1123Label. */
export function checkDNSLabel(causes: StatusCause[], path: string, value: string): void {
  for (const m of isDNS1123Label(value)) causes.push(invalidValue(path, value, m));
}

/** ValidateDNS1123Subdomain (and NameIsDNSSubdomain names: nodes, service accounts, priority classes, secrets...). */
export function checkDNSSubdomain(causes: StatusCause[], path: string, value: string): void {
  for (const m of isDNS1123Subdomain(value)) causes.push(invalidValue(path, value, m));
}

/** ValidateQualifiedName. */
export function checkQualifiedName(causes: StatusCause[], path: string, value: string): void {
  for (const m of isQualifiedName(value)) causes.push(invalidValue(path, value, m));
}

/** validatePathNoBacksteps: no `..` element. */
export function checkNoBacksteps(causes: StatusCause[], path: string, target: string): void {
  for (const item of target.split('/')) {
    if (item === '..') {
      causes.push(invalidValue(path, target, "must not contain '..'"));
      return;
    }
  }
}

/** validateLocalDescendingPath: relative, without `..` elements. */
export function checkLocalDescendingPath(causes: StatusCause[], path: string, target: string): void {
  if (target.startsWith('/')) causes.push(invalidValue(path, target, 'must be a relative path'));
  checkNoBacksteps(causes, path, target);
}

/** ValidateLocalNonReservedPath: a local descending path that does not start with `..` either. */
export function checkLocalNonReservedPath(causes: StatusCause[], path: string, target: string): void {
  checkLocalDescendingPath(causes, path, target);
  if (target.startsWith('..') && !target.startsWith('../')) causes.push(invalidValue(path, target, "must not start with '..'"));
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** Upstream's IsDomainPrefixedPath. */
export function domainPrefixedPath(path: string, value: string): StatusCause[] {
  if (value.length === 0) return [required(path)];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return [invalidValue(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const causes = isDNS1123Subdomain(host).map((m) => invalidValue(path, host, m));
  const rest = value.slice(slash + 1);
  if (!HTTP_PATH.test(rest)) causes.push(invalidValue(path, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return causes;
}
