// kubectl's client-side apply annotation under server-side apply, as upstream's field manager treats it for the
// manager "kubectl" (kubectl apply --server-side's default): the annotation follows what is applied
// (lastAppliedUpdater), and fields it lists with their live values may be taken from their owners without a
// conflict (lastAppliedManager), so moving from client-side to server-side apply needs no --force-conflicts.
//
//   LAST_APPLIED_ANNOTATION, KUBECTL_MANAGER
//   goJsonEncode(value): string                                   // Go's json.Encoder: sorted keys, HTML escaped, "\n"
//   syncLastApplied(merged, applied, manager): KubeObject
//   takeoverAllowed(live, schema, lookup, apiVersion): FieldSet   // paths the annotation lets kubectl take over
import type { Schema } from '../../../api/schema.js';
import type { KubeObject } from '../../../api/types.js';
import { cloneJson } from '../json-clone.js';
import { annotationsTooLarge } from '../objectmeta.js';
import type { SchemaLookup } from '../schema-lookup.js';
import { compareObjects } from './compare.js';
import { difference, type FieldSet } from './fieldpath.js';
import { fieldSetOf, isObj } from './walk.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** The only manager whose applies upstream reconciles with the annotation; others opt out by their name. */
export const KUBECTL_MANAGER = 'kubectl';

/** What Go's encoder escapes beyond JSON.stringify: <, > and & (SetEscapeHTML's default) and U+2028, U+2029. */
const GO_ESCAPED = /[<>&\u2028\u2029]/g;
const goEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Go's json.Encoder of an unstructured object: map keys sorted, HTML-escaped, ending with a newline. */
export const goJsonEncode = (v: unknown): string => {
  const text = JSON.stringify(v, (_k, x: unknown) =>
    isObj(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x);
  // the escaped characters occur only inside strings, so the text can be rewritten as a whole
  return `${text.replace(GO_ESCAPED, goEscape)}\n`;
};

/**
 * A kubectl apply rewrites an annotation the result has (non-empty) with the applied configuration, less the annotation;
 * one that would take the annotations past their size limit is dropped instead (upstream's SetLastApplied), so moving a
 * large object to server-side apply does not fail its validation.
 */
export const syncLastApplied = (merged: KubeObject, applied: KubeObject, manager: string): KubeObject => {
  if (manager !== KUBECTL_MANAGER || !merged.metadata?.annotations?.[LAST_APPLIED_ANNOTATION]) return merged;
  const copy = cloneJson(applied);
  if (copy.metadata?.annotations) delete copy.metadata.annotations[LAST_APPLIED_ANNOTATION];
  const annotations: Record<string, string> = { ...merged.metadata.annotations, [LAST_APPLIED_ANNOTATION]: goJsonEncode(copy) };
  if (annotationsTooLarge(annotations)) delete annotations[LAST_APPLIED_ANNOTATION];
  return { ...merged, metadata: { ...merged.metadata, annotations } };
};

const NONE: FieldSet = new Set();

/**
 * The fields of the live object's annotation that still hold the value it gives them: kubectl applied them last,
 * client-side, so its server-side apply may take them over. None when the annotation is missing, is not an object
 * with a kind, or was written for another version than the request's.
 */
export const takeoverAllowed = (live: KubeObject | undefined, schema: Schema | undefined, lookup: SchemaLookup, apiVersion: string): FieldSet => {
  const text = live?.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  if (!live || !text) return NONE;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return NONE;
  }
  if (!isObj(last) || typeof last.kind !== 'string' || last.kind === '' || last.apiVersion !== apiVersion) return NONE;
  const { changed, removed } = compareObjects(last as KubeObject, live, schema, lookup);
  return difference(difference(fieldSetOf(last, schema, lookup), changed), removed);
};
