// Required fields per the schema: missing ones are 422 Invalid "Required value", as upstream's
// validation words them. Status is the controllers' report, not user input: it is not checked; metadata has its own.
// Subtrees whose schema requires nothing anywhere are not walked, nor, on an update, those it shares with the stored
// object (checked when it was stored: a status update does not walk the spec again).
import { propertyOf, refTo, type Schema } from '../../../api/schema.js';
import { isPlainObject, type Resolved, type SchemaIndex } from './index.js';

const absent = (o: Record<string, unknown>, key: string): boolean => o[key] === undefined || o[key] === null || o[key] === '';
const requires = (r: Resolved): boolean => (r.schema.required?.length ?? 0) > 0;
const requiresAny = (index: SchemaIndex, s: Schema): boolean => index.anyBelow(s, 'required', requires);

/**
 * Kinds whose own validation is all of upstream's: a CustomResourceDefinition's checks every field its schema requires,
 * in upstream's words and at upstream's paths (a column's name at spec.additionalPrinterColumns[i] when the versions
 * share their columns), and leaves the rest to Go's zero values (a version without `served` is not served).
 */
const COMPLETE = new Set([refTo('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition')]);

/** A definition found only below those kinds: its required fields get Go's zero values (zero-values.ts) like any other. */
export const checkedByOwnValidation = (definition: string): boolean => definition.startsWith('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.');

/**
 * Fields the schema requires whose Go zero upstream's validation accepts, or refuses in words of its own elsewhere, so
 * that leaving one out is never "Required value": an iSCSI source's lun (0 is a LUN: only 0-255 is checked), a ScaleIO
 * source's secretRef (validateScaleIOVolumeSource and its PersistentVolume twin check gateway, system and volumeName
 * alone), a sysctl's value (validateSysctls checks names only), an HTTP header's value (unchecked) and name (an empty
 * one is "Invalid value" at httpHeaders, as probes.ts says), a Node taint's key and effect (said at metadata.taints, as
 * strategies/nodes.ts says), a quota scope selector's scopeName and operator (said at the list's path, without the
 * index, as strategies/resourcequotas.ts says), a CSIDriver token request's audience (empty is the apiserver's own).
 * They get their zero values (`lun: 0`, `secretRef: null`, `value: ""`) as optional fields do.
 */
const ZERO_ACCEPTED: Record<string, readonly string[]> = {
  'io.k8s.api.core.v1.ISCSIVolumeSource': ['lun'],
  'io.k8s.api.core.v1.ISCSIPersistentVolumeSource': ['lun'],
  'io.k8s.api.core.v1.ScaleIOVolumeSource': ['secretRef'],
  'io.k8s.api.core.v1.ScaleIOPersistentVolumeSource': ['secretRef'],
  'io.k8s.api.core.v1.Sysctl': ['value'],
  'io.k8s.api.core.v1.HTTPHeader': ['name', 'value'],
  'io.k8s.api.core.v1.Taint': ['key', 'effect'],
  'io.k8s.api.core.v1.ScopedResourceSelectorRequirement': ['scopeName', 'operator'],
  'io.k8s.api.storage.v1.TokenRequest': ['audience'],
};
export const zeroAccepted = (definition: string | undefined, key: string): boolean =>
  definition !== undefined && (ZERO_ACCEPTED[definition]?.includes(key) ?? false);

export function missingRequired(index: SchemaIndex, value: unknown, schema: Schema, old?: unknown): string[] {
  if (COMPLETE.has(schema)) return [];
  const missing: string[] = [];
  walk(index, value, schema, '', missing, old);
  return missing;
}

function walk(index: SchemaIndex, value: unknown, schema: Schema, path: string, missing: string[], old?: unknown): void {
  if (old !== undefined && value === old) return;
  const { schema: s, name } = index.resolve(schema);
  if (Array.isArray(value)) {
    if (s.items && requiresAny(index, s.items)) value.forEach((item, i) => walk(index, item, s.items!, `${path}[${i}]`, missing));
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of s.required ?? []) {
    // an update that leaves a field missing does not remove it: the object was kept without it (written through
    // another version, a legacy Event read as events.k8s.io/v1)
    if (!absent(value, key) || (isPlainObject(old) && absent(old, key)) || zeroAccepted(name, key)) continue;
    // a list is there when empty: Go reads an absent one as empty (an EndpointSlice without endpoints), and the
    // lists that must not be empty (a pod's containers) have their own check
    const prop = propertyOf(s, key);
    if (prop && index.resolve(prop).schema.type === 'array') continue;
    missing.push(path ? `${path}.${key}` : key);
  }
  for (const [key, prop] of index.propertiesBelow(s, 'required', requires)) {
    // the metadata is checked by the object meta's own validation (an owner reference's missing name is "name must
    // not be empty" there, once, as upstream's ValidateOwnerReferences words it)
    if (path === '' && (key === 'status' || key === 'metadata')) continue;
    if (value[key] !== undefined) walk(index, value[key], prop, path ? `${path}.${key}` : key, missing, isPlainObject(old) ? old[key] : undefined);
  }
}
