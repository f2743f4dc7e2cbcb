// Embedded resources (x-kubernetes-embedded-resource) as upstream's schema/objectmeta: decoding refuses an apiVersion
// or kind that is not a string (coerce.go, a 400 before validation), validation wants both there, apiVersion a
// group/version, kind a DNS-1035 label but for its case, and the metadata valid ObjectMeta (validation.go).
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import type { ObjectMeta } from '../../../api/types.js';
import { propertyOf } from '../../../api/schema.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, required } from '../../apimachinery/field.js';
import { isDNS1035Label, nameIsPathSegment } from '../../apimachinery/names.js';
import { validateObjectMeta } from '../../apimachinery/objectmeta.js';
import { isPlainObject } from '../schema/index.js';
import { keyPath } from './definition/paths.js';
import { childPath, itemSchema } from './schema.js';

type Visit = (obj: Record<string, unknown>, path: string) => void;

/** Calls `visit` on every embedded resource of `value` below its root, with its field path. */
function eachEmbedded(value: unknown, s: JSONSchemaProps | undefined, path: string, visit: Visit, root: boolean): void {
  if (!s || !hasEmbedded(s)) return;
  if (Array.isArray(value)) {
    const items = itemSchema(s);
    value.forEach((v, i) => eachEmbedded(v, items, `${path}[${i}]`, visit, false));
    return;
  }
  if (!isPlainObject(value)) return;
  if (!root && s['x-kubernetes-embedded-resource']) visit(value, path);
  for (const [k, v] of Object.entries(value)) {
    const prop = propertyOf(s, k);
    if (prop) eachEmbedded(v, prop, childPath(path, k), visit, false);
    else if (typeof s.additionalProperties === 'object') eachEmbedded(v, s.additionalProperties, keyPath(path, k), visit, false);
  }
}

/** Go's %#v of a value decoded from JSON into interface{}, as field.Invalid prints a value that is no simple scalar. */
function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  if (isPlainObject(v)) return `map[string]interface {}{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${goSyntax(v[k])}`).join(', ')}}`;
  return String(v);
}

/**
 * The decoding error of an embedded apiVersion or kind that is not a string ("spec.template.kind: Invalid value: 1:
 * must be a string"), or of its metadata, which `metadataError` decodes as ObjectMeta ("spec.template.metadata:
 * Invalid value: map[string]interface {}{...}: parsing time ..."), as upstream's coercion of a request body fails;
 * undefined when there is none.
 */
export function embeddedDecodingError(obj: unknown, schema: JSONSchemaProps | undefined, metadataError: (metadata: unknown) => string | undefined): string | undefined {
  let error: string | undefined;
  eachEmbedded(obj, schema, '', (o, path) => {
    for (const k of ['apiVersion', 'kind']) {
      if (error || !(k in o) || typeof o[k] === 'string') continue;
      const v = o[k];
      error = `${childPath(path, k)}: Invalid value: ${typeof v === 'number' || typeof v === 'boolean' ? String(v) : goSyntax(v)}: must be a string`;
    }
    const metaError = error || o.metadata === undefined ? undefined : metadataError(o.metadata);
    if (metaError) error = `${childPath(path, 'metadata')}: Invalid value: ${goSyntax(o.metadata)}: ${metaError}`;
  }, true);
  return error;
}

/** schema.ParseGroupVersion's error: at most one slash. */
const groupVersionError = (gv: string): string | undefined => (gv.split('/').length > 2 ? `unexpected GroupVersion string: ${gv}` : undefined);

function validateEmbeddedResource(o: Record<string, unknown>, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  // 1.32 still words a missing one "must not be empty" (1.34 dropped the detail)
  if (!('apiVersion' in o)) causes.push(required(childPath(path, 'apiVersion'), 'must not be empty'));
  if (!('kind' in o)) causes.push(required(childPath(path, 'kind'), 'must not be empty'));
  for (const [k, v] of Object.entries(o)) {
    const at = childPath(path, k);
    if (k === 'apiVersion' || k === 'kind') {
      if (typeof v !== 'string') causes.push(invalidValue(at, v, 'must be a string'));
      else if (v === '') causes.push(invalidValue(at, v, 'must not be empty'));
      else if (k === 'apiVersion') {
        const err = groupVersionError(v);
        if (err) causes.push(invalidValue(at, v, err));
      } else {
        const errs = isDNS1035Label(v.toLowerCase());
        if (errs.length) causes.push(invalidValue(at, v, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
      }
    } else if (k === 'metadata' && isPlainObject(v)) {
      const meta = v as ObjectMeta;
      // upstream names it "fakename" when it has none: an embedded object needs no name
      causes.push(...validateObjectMeta({ ...meta, name: meta.name || 'fakename' }, { namespaced: Boolean(meta.namespace), nameFn: nameIsPathSegment }, at));
    }
  }
  return causes;
}

/** The embedded resources' errors below the object's root (whose apiVersion, kind and metadata are checked as the object's own). */
export function validateEmbedded(value: unknown, s: JSONSchemaProps | undefined): StatusCause[] {
  const causes: StatusCause[] = [];
  eachEmbedded(value, s, '', (o, path) => causes.push(...validateEmbeddedResource(o, path)), true);
  return causes;
}

/** Whether `s` or a node below it is an embedded resource (most schemas have none: their objects skip the walk). */
function hasEmbedded(s: JSONSchemaProps): boolean {
  let known = withEmbedded.get(s);
  if (known === undefined) {
    withEmbedded.set(s, false); // a cycle through the same node adds nothing
    const items = itemSchema(s);
    known = Boolean(s['x-kubernetes-embedded-resource']) || Object.values(s.properties ?? {}).some(hasEmbedded) ||
      (typeof s.additionalProperties === 'object' && hasEmbedded(s.additionalProperties)) || (items !== undefined && hasEmbedded(items));
    withEmbedded.set(s, known);
  }
  return known;
}

/** Served schemas are not changed: each node is asked once. */
const withEmbedded = new WeakMap<JSONSchemaProps, boolean>();
