// ObjectMeta validation as upstream's k8s.io/apimachinery/pkg/api/validation/objectmeta.go and
// metav1/validation: every helper returns field causes for errors.invalid().
//
//   validateLabelName(key, fldPath): StatusCause[]
//   validateLabels(labels, fldPath): StatusCause[]
//   validateAnnotations(annotations, fldPath): StatusCause[]     // keys + total size (256 KiB)
//   validateFinalizers(finalizers, fldPath): StatusCause[]
//   validateKubeFinalizerName(name, fldPath), validateKubeFinalizerNames(finalizers, fldPath)  // core's rule
//   validateOwnerReferences(refs, fldPath): StatusCause[]
//   validateFieldManager(manager, fldPath): StatusCause[]
//   validateObjectMeta(meta, opts: { namespaced: boolean; nameFn?: NameValidator }, fldPath = 'metadata'): StatusCause[]
//   validateObjectMetaUpdate(next, old, fldPath = 'metadata'): StatusCause[]
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from '../../api/types.js';
import { fieldCause, type StatusCause } from './errors.js';
import { forbidden, invalidValue, required, tooLong } from './field.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue, nameIsDNSSubdomain, type NameValidator } from './names.js';

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
const FIELD_MANAGER_MAX_LENGTH = 128;
const SUBRESOURCE_MAX_LENGTH = 256;

export const validateLabelName = (key: string, fldPath: string): StatusCause[] =>
  isQualifiedName(key).map((m) => invalidValue(fldPath, key, m));

export const validateLabels = (labels: Record<string, string> | undefined, fldPath: string): StatusCause[] => {
  const causes: StatusCause[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    causes.push(...validateLabelName(k, fldPath));
    for (const m of isValidLabelValue(v)) causes.push(invalidValue(fldPath, v, m));
  }
  return causes;
};

/** Whether annotations exceed their total size limit: the bytes of every key and value (ValidateAnnotationsSize). */
export const annotationsTooLarge = (annotations: Record<string, string> | undefined): boolean => {
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) size += Buffer.byteLength(k) + Buffer.byteLength(v);
  return size > TOTAL_ANNOTATION_SIZE_LIMIT;
};

export const validateAnnotations = (annotations: Record<string, string> | undefined, fldPath: string): StatusCause[] => {
  const causes: StatusCause[] = [];
  for (const k of Object.keys(annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) causes.push(invalidValue(fldPath, k, m));
  }
  if (annotationsTooLarge(annotations)) causes.push(tooLong(fldPath, TOTAL_ANNOTATION_SIZE_LIMIT));
  return causes;
};

export const validateFinalizers = (finalizers: string[] | undefined, fldPath: string): StatusCause[] => {
  const list = finalizers ?? [];
  const causes = list.flatMap((f) => isQualifiedName(f).map((m) => invalidValue(fldPath, f, m)));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    causes.push(invalidValue(fldPath, list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return causes;
};

/** The finalizers core's validation takes without a domain prefix (helper.IsStandardFinalizerName). */
export const isStandardFinalizerName = (name: string): boolean => name === 'kubernetes' || name === 'orphan' || name === 'foregroundDeletion';

/** Core's validateKubeFinalizerName: a name without a `/` must be a standard one. */
export const validateKubeFinalizerName = (name: string, fldPath: string): StatusCause[] =>
  (name.includes('/') || isStandardFinalizerName(name) ? [] : [invalidValue(fldPath, name, 'name is neither a standard finalizer name nor is it fully qualified')]);

/** The rule for every finalizer of an object, which core's ValidateObjectMeta(Update) adds for built-in kinds. */
export const validateKubeFinalizerNames = (finalizers: string[] | undefined, fldPath: string): StatusCause[] =>
  (finalizers ?? []).flatMap((f, i) => validateKubeFinalizerName(f, `${fldPath}[${i}]`));

/** Kinds that may not own anything (BannedOwners). */
const BANNED_OWNERS = new Set(['/v1, Kind=Event']);

/** A Go pointer field as %#v prints it: only whether it is nil can be said. */
const goPointer = (type: string, v: unknown): string => (v === undefined || v === null ? `(*${type})(nil)` : `(*${type})(0xc000000000)`);

/** An OwnerReference as field.Invalid prints it (%#v of the struct). */
const goOwnerReference = (ref: OwnerReference): string =>
  `v1.OwnerReference{APIVersion:${JSON.stringify(ref.apiVersion ?? '')}, Kind:${JSON.stringify(ref.kind ?? '')}, Name:${JSON.stringify(ref.name ?? '')}, `
  + `UID:${JSON.stringify(ref.uid ?? '')}, Controller:${goPointer('bool', ref.controller)}, BlockOwnerDeletion:${goPointer('bool', ref.blockOwnerDeletion)}}`;

/** schema.GroupVersionKind's String() of a reference: "group/version, Kind=kind". */
const gvkOf = (ref: OwnerReference): string => {
  const apiVersion = ref.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  return `${group}/${version}, Kind=${ref.kind ?? ''}`;
};

export const validateOwnerReferences = (refs: OwnerReference[] | undefined, fldPath: string): StatusCause[] => {
  const causes: StatusCause[] = [];
  let controller = '';
  for (const ref of refs ?? []) {
    const version = (ref.apiVersion ?? '').split('/').pop() ?? '';
    if (!version) causes.push(invalidValue(`${fldPath}.apiVersion`, ref.apiVersion ?? '', 'version must not be empty'));
    if (!ref.kind) causes.push(invalidValue(`${fldPath}.kind`, ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name) causes.push(invalidValue(`${fldPath}.name`, ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) causes.push(invalidValue(`${fldPath}.uid`, ref.uid ?? '', 'uid must not be empty'));
    const gvk = gvkOf(ref);
    if (BANNED_OWNERS.has(gvk)) {
      causes.push(fieldCause('FieldValueInvalid', fldPath, `Invalid value: ${goOwnerReference(ref)}: ${gvk} is disallowed from being an owner`));
    }
    if (ref.controller) {
      const current = `${ref.kind}/${ref.name}`;
      if (controller) {
        causes.push(invalidValue(fldPath, refs, `Only one reference can have Controller set to true. Found "true" in references for ${controller} and ${current}`));
      } else {
        controller = current;
      }
    }
  }
  return causes;
};

/** Go's unicode.IsPrint fails: anything but letters, marks, numbers, punctuation, symbols and the ASCII space. */
const NOT_PRINTABLE = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/gu;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Upstream's ValidateFieldManager: at most 128 bytes, and each character not printable named with its byte offset. */
export const validateFieldManager = (manager: string | undefined, fldPath: string): StatusCause[] => {
  if (!manager) return [];
  const causes: StatusCause[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) causes.push(tooLong(fldPath, FIELD_MANAGER_MAX_LENGTH));
  if (PRINTABLE_ASCII.test(manager)) return causes; // every client's name, and far cheaper than the Unicode classes
  for (const m of manager.matchAll(NOT_PRINTABLE)) {
    const code = m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    causes.push(invalidValue(fldPath, manager, `invalid character U+${code} (at position ${Buffer.byteLength(manager.slice(0, m.index))})`));
  }
  return causes;
};

const validateManagedFields = (entries: ManagedFieldsEntry[] | undefined, fldPath: string): StatusCause[] =>
  (entries ?? []).flatMap((e, i) => {
    const p = `${fldPath}[${i}]`;
    const causes: StatusCause[] = [];
    if (e.operation !== 'Apply' && e.operation !== 'Update') causes.push(invalidValue(`${p}.operation`, e.operation ?? '', 'must be `Apply` or `Update`'));
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') causes.push(invalidValue(`${p}.fieldsType`, e.fieldsType, 'must be `FieldsV1`'));
    causes.push(...validateFieldManager(e.manager, `${p}.manager`));
    if ((e.subresource ?? '').length > SUBRESOURCE_MAX_LENGTH) causes.push(tooLong(`${p}.subresource`, SUBRESOURCE_MAX_LENGTH));
    return causes;
  });

export interface ObjectMetaOptions {
  namespaced: boolean;
  /** How the kind's names are checked; DNS-1123 subdomain (the common case) unless given. */
  nameFn?: NameValidator;
}

export const validateObjectMeta = (meta: ObjectMeta | undefined, opts: ObjectMetaOptions, fldPath = 'metadata'): StatusCause[] => {
  const m = meta ?? {};
  const nameFn = opts.nameFn ?? nameIsDNSSubdomain;
  const causes: StatusCause[] = [];
  const check = (value: string, prefix: boolean, path: string): void => {
    for (const msg of nameFn(value, prefix)) causes.push(invalidValue(path, value, msg));
  };
  if (m.generateName) check(m.generateName, true, `${fldPath}.generateName`);
  if (!m.name) causes.push(required(`${fldPath}.name`, 'name or generateName is required'));
  else check(m.name, false, `${fldPath}.name`);
  if (opts.namespaced) {
    if (!m.namespace) causes.push(required(`${fldPath}.namespace`));
    else for (const msg of isDNS1123Label(m.namespace)) causes.push(invalidValue(`${fldPath}.namespace`, m.namespace, msg));
  } else if (m.namespace) {
    causes.push(forbidden(`${fldPath}.namespace`, 'not allowed on this type'));
  }
  if ((m.generation ?? 0) < 0) causes.push(invalidValue(`${fldPath}.generation`, m.generation, 'must be greater than or equal to 0'));
  causes.push(
    ...validateLabels(m.labels, `${fldPath}.labels`),
    ...validateAnnotations(m.annotations, `${fldPath}.annotations`),
    ...validateOwnerReferences(m.ownerReferences, `${fldPath}.ownerReferences`),
    ...validateFinalizers(m.finalizers, `${fldPath}.finalizers`),
    ...validateManagedFields(m.managedFields, `${fldPath}.managedFields`),
  );
  return causes;
};

const IMMUTABLE: (keyof ObjectMeta)[] = ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds'];

export const validateObjectMetaUpdate = (next: ObjectMeta | undefined, old: ObjectMeta | undefined, fldPath = 'metadata'): StatusCause[] => {
  const n = next ?? {};
  const o = old ?? {};
  const causes: StatusCause[] = [];
  if (o.deletionTimestamp) {
    const added = (n.finalizers ?? []).filter((f) => !(o.finalizers ?? []).includes(f));
    if (added.length) {
      const list = [...new Set(added)].sort().map((f) => JSON.stringify(f)).join(', ');
      causes.push(forbidden(`${fldPath}.finalizers`, `no new finalizers can be added if the object is being deleted, found new finalizers []string{${list}}`));
    }
  }
  if (!n.resourceVersion) causes.push(invalidValue(`${fldPath}.resourceVersion`, n.resourceVersion ?? '', 'must be specified for an update'));
  if ((n.generation ?? 0) < (o.generation ?? 0)) causes.push(invalidValue(`${fldPath}.generation`, n.generation ?? 0, 'must not be decremented'));
  for (const f of IMMUTABLE) {
    if ((n[f] ?? undefined) !== (o[f] ?? undefined)) causes.push(invalidValue(`${fldPath}.${f}`, n[f] ?? '', 'field is immutable'));
  }
  causes.push(
    ...validateLabels(n.labels, `${fldPath}.labels`),
    ...validateAnnotations(n.annotations, `${fldPath}.annotations`),
    ...validateOwnerReferences(n.ownerReferences, `${fldPath}.ownerReferences`),
    ...validateFinalizers(n.finalizers, `${fldPath}.finalizers`),
    ...validateManagedFields(n.managedFields, `${fldPath}.managedFields`),
  );
  return causes;
};
