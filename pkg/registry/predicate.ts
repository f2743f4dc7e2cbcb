// The selection predicate of a list or watch: label selector and field selector together
// (upstream: storage.SelectionPredicate), checked once when the request arrives.
import type { KubeObject, ResourceType } from '../../api/types.js';
import { fieldSelectorFor, fieldsOf } from '../apimachinery/fields.js';
import { parseLabelSelector } from '../apimachinery/labels.js';

export type Predicate = (obj: KubeObject) => boolean;

export function selectionPredicate(rt: ResourceType, labelSelector?: string, fieldSelector?: string): Predicate | undefined {
  const labels = labelSelector ? parseLabelSelector(labelSelector) : undefined;
  const fields = fieldSelector ? fieldSelectorFor(rt.group, rt.plural, fieldSelector) : undefined;
  const useLabels = labels && !labels.empty ? labels : undefined;
  const useFields = fields && !fields.empty ? fields : undefined;
  if (!useLabels && !useFields) return undefined;
  return (obj) =>
    (!useLabels || useLabels.matches(obj.metadata?.labels)) &&
    (!useFields || useFields.matches(fieldsOf(rt.plural, obj)));
}
