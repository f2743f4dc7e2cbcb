// The selection predicate of a list or watch: label selector and field selector together
// (upstream: storage.SelectionPredicate), checked once when the request arrives.
import type { KubeObject, ResourceType } from '../../api/types.js';
import { badRequest } from '../apimachinery/errors.js';
import { fieldSelectorFor, fieldsOf, parseFieldSelector } from '../apimachinery/fields.js';
import { parseLabelSelector } from '../apimachinery/labels.js';

export type Predicate = (obj: KubeObject) => boolean;

/**
 * Resources served at run time with fields of their own (custom resources' selectableFields): the extra field
 * labels they accept and how to read them, by group, version and plural.
 */
const dynamicFields = new Map<string, { labels: string[]; read(obj: KubeObject): Record<string, string> }>();

export function setSelectableFields(group: string, version: string, plural: string, fields: { labels: string[]; read(obj: KubeObject): Record<string, string> } | undefined): void {
  if (fields) dynamicFields.set(`${group}/${version}/${plural}`, fields);
  else dynamicFields.delete(`${group}/${version}/${plural}`);
}

export function selectionPredicate(rt: ResourceType, labelSelector?: string, fieldSelector?: string): Predicate | undefined {
  const dynamic = dynamicFields.get(`${rt.group}/${rt.version}/${rt.plural}`);
  if (dynamic) return dynamicPredicate(dynamic, labelSelector, fieldSelector);
  const labels = labelSelector ? parseLabelSelector(labelSelector) : undefined;
  const fields = fieldSelector ? fieldSelectorFor(rt.group, rt.plural, fieldSelector) : undefined;
  const useLabels = labels && !labels.empty ? labels : undefined;
  const useFields = fields && !fields.empty ? fields : undefined;
  if (!useLabels && !useFields) return undefined;
  return (obj) =>
    (!useLabels || useLabels.matches(obj.metadata?.labels)) &&
    (!useFields || useFields.matches(fieldsOf(rt.plural, obj, rt.group)));
}

function dynamicPredicate(d: { labels: string[]; read(obj: KubeObject): Record<string, string> }, labelSelector?: string, fieldSelector?: string): Predicate | undefined {
  const labels = labelSelector ? parseLabelSelector(labelSelector) : undefined;
  const fields = fieldSelector ? parseFieldSelector(fieldSelector) : undefined;
  for (const r of fields?.requirements ?? []) {
    if (r.field !== 'metadata.name' && r.field !== 'metadata.namespace' && !d.labels.includes(r.field)) {
      throw badRequest(`field label not supported: ${r.field}`);
    }
  }
  const useLabels = labels && !labels.empty ? labels : undefined;
  const useFields = fields && !fields.empty ? fields : undefined;
  if (!useLabels && !useFields) return undefined;
  return (obj) =>
    (!useLabels || useLabels.matches(obj.metadata?.labels)) &&
    (!useFields || useFields.matches({ 'metadata.name': obj.metadata?.name ?? '', 'metadata.namespace': obj.metadata?.namespace ?? '', ...d.read(obj) }));
}
