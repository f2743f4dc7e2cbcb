// Strict decoding errors as upstream's decoders report them: the fields a body repeats (json-duplicates.ts,
// yaml.ts) and the fields its object has that the schema does not. fieldValidation Strict makes them one 400
// ("strict decoding error: duplicate field "spec.paused", unknown field "spec.foo""; a patch's: a 422 on the field
// "patch"), Warn one warning each,
// Ignore nothing. Their order is upstream's:
// - a JSON body of a built-in kind: document order, as sigs.k8s.io/json decodes it into Go structs, where a field
//   both unknown and repeated (or repeated under an unknown one) is reported unknown only;
// - a JSON body of a custom resource (decoded into a map), a merge or strategic merge patch: its repetitions, then
//   the unknown fields of the object;
// - a JSON patch: the errors about its operations (`json patch unknown field "[0].foo"`), then the unknown fields;
// - a YAML body: go-yaml's repeated keys ("yaml: unmarshal errors:\n  line 12: ..." as one error; one warning
//   each), then the unknown fields;
// - a server-side apply configuration: its repeated keys alone, after the apply (reportApplyDuplicates).
// A built-in kind's unknown fields from anything but a JSON body come in Go's map order: the body was a map first.
import { fieldOffsets, type DuplicateFields } from '../../apimachinery/json-duplicates.js';
import { badRequest, invalid } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import type { BodyFieldErrors, BodyFormat, RequestContext } from '../context.js';
import { isPlainObject } from '../schema/index.js';

const unknownField = (path: string): string => `unknown field "${path}"`;
const duplicateField = (path: string): string => `duplicate field "${path}"`;

/** go-yaml's strict errors, one error of many lines. */
const yamlErrors = (lines: string[]): string => `yaml: unmarshal errors:\n  ${lines.join('\n  ')}`;

/**
 * Reports the unknown fields of an object decoded from the request's body (`typed`: of a built-in kind) with what the
 * body itself repeats, per fieldValidation. `as` words a Strict error as upstream's transformDecodeError: "<Kind> in
 * version "v" cannot be handled as a <Kind>: strict decoding error: ...". The body's errors are reported once, by the
 * first object decoded from it.
 */
export function reportStrictErrors(unknown: string[], ctx: RequestContext, as: { kind: string; version: string } | undefined, typed: boolean): void {
  const body = ctx.bodyFormat === 'apply' ? undefined : ctx.bodyErrors;
  if (unknown.length === 0 && !body) return;
  if (body) ctx.bodyErrors = undefined;
  if (ctx.fieldValidation === 'Ignore') return;
  const yaml = body?.yaml ?? [];
  const fields = fieldErrors(unknown, ctx.bodyFormat ?? 'json', body, typed);
  if (ctx.fieldValidation === 'Strict') {
    const errors = `strict decoding error: ${(yaml.length ? [yamlErrors(yaml), ...fields] : fields).join(', ')}`;
    // a patch's: 422 on the field "patch" (upstream's patcher), a body's: 400 as its decoder's transformDecodeError
    if (ctx.bodyFormat === 'patch') throw invalid('', '', '', [invalidValue('patch', ctx.patchedValue?.() ?? '', errors)]);
    throw badRequest(`${as ? `${as.kind} in version "${as.version}" cannot be handled as a ${as.kind}: ` : ''}${errors}`);
  }
  ctx.warnings.push(...yaml, ...fields);
}

/**
 * The keys a server-side apply configuration repeats: upstream strict-decodes it on its own once applied, a 400
 * "error strict decoding YAML: ..." with Strict, a warning each with Warn.
 */
export function reportApplyDuplicates(ctx: RequestContext): void {
  const lines = ctx.bodyFormat === 'apply' ? ctx.bodyErrors?.yaml : undefined;
  if (!lines?.length) return;
  ctx.bodyErrors = undefined;
  if (ctx.fieldValidation === 'Strict') throw badRequest(`error strict decoding YAML: error converting YAML to JSON: ${yamlErrors(lines)}`);
  if (ctx.fieldValidation === 'Warn') ctx.warnings.push(...lines);
}

function fieldErrors(unknown: string[], format: BodyFormat, body: BodyFieldErrors | undefined, typed: boolean): string[] {
  const structs = typed && format === 'json';
  const known = typed && !structs && unknown.length > 1 ? inGoMapOrder(unknown) : unknown;
  const out = body?.patchOps ? [...body.patchOps] : [];
  const dups = body?.duplicates;
  if (!dups) return [...out, ...known.map(unknownField)];
  if (!structs) return [...out, ...dups.paths.map(duplicateField), ...known.map(unknownField)];
  return inDocumentOrder(dups.text, notUnder(dups, known), known, duplicateField, unknownField);
}

/** The repetitions that are not at or under one of `unknown`'s paths (Go's decoder skips an unknown field's value). */
function notUnder(dups: DuplicateFields, unknown: string[]): DuplicateFields {
  if (unknown.length === 0) return dups;
  const under = (p: string): boolean => unknown.some((u) => p === u || (p.startsWith(u) && (p[u.length] === '.' || p[u.length] === '[')));
  const kept: DuplicateFields = { paths: [], offsets: [] };
  dups.paths.forEach((p, i) => {
    if (!under(p)) {
      kept.paths.push(p);
      kept.offsets.push(dups.offsets[i]!);
    }
  });
  return kept;
}

/** Errors about repetitions (at their offsets) and other fields (where each first appears in `text`), in document order. */
function inDocumentOrder(text: string, dups: DuplicateFields, others: string[], dupError: (p: string) => string, otherError: (p: string) => string): string[] {
  if (others.length === 0) return dups.paths.map(dupError);
  const at = fieldOffsets(text);
  const all = [
    ...dups.paths.map((p, i) => ({ at: dups.offsets[i]!, error: dupError(p) })),
    ...others.map((p) => ({ at: at.get(p) ?? Infinity, error: otherError(p) })),
  ];
  return all.sort((a, b) => a.at - b.at).map((e) => e.error);
}

type Segment = string | number;
const segmentsOf = (path: string): Segment[] => Array.from(path.matchAll(/\[(\d+)\]|([^.[]+)/g), (m) => (m[1] !== undefined ? Number(m[1]) : m[2]!));

function compareSegments(a: Segment[], b: Segment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/** Paths in the order a walk of Go maps meets them: keys sorted at every level, list items by index. */
export function inGoMapOrder(paths: string[]): string[] {
  return paths.map((p) => ({ p, s: segmentsOf(p) })).sort((a, b) => compareSegments(a.s, b.s)).map((e) => e.p);
}

const PATCH_OP_FIELDS = new Set(['op', 'path', 'from', 'value']);

/**
 * A JSON patch's errors about its operations, as upstream strict-decodes them into {op, path, from, value}:
 * `json patch unknown field "[0].foo"`, `json patch duplicate field "[1].path"`, in document order (a field both
 * unknown and repeated is unknown). Nothing for a body that is no list: the patch refuses it.
 */
export function jsonPatchOpErrors(ops: unknown, text: string, dups: DuplicateFields | undefined): string[] {
  if (!Array.isArray(ops)) return [];
  const unknown: string[] = [];
  ops.forEach((op, i) => {
    if (isPlainObject(op)) for (const k of Object.keys(op)) if (!PATCH_OP_FIELDS.has(k)) unknown.push(`[${i}].${k}`);
  });
  const kept = dups ? notUnder(dups, unknown) : { paths: [], offsets: [] };
  if (unknown.length === 0 && kept.paths.length === 0) return [];
  return inDocumentOrder(text, kept, unknown, (p) => `json patch ${duplicateField(p)}`, (p) => `json patch ${unknownField(p)}`);
}
