// Deployments, ReplicaSets, DaemonSets and StatefulSets: the selector must select the pod template's labels, or the
// controller would create pods it never counts (upstream: ValidatePodTemplateSpecForReplicaSet and its twins in
// pkg/apis/apps/validation).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { fieldCause } from '../../apimachinery/errors.js';
import { labelSelectorAsSelector, validateLabelSelector, type LabelSelector } from '../../apimachinery/labels.js';
import type { Strategy } from '../strategy.js';

/** Go's %#v of a map[string]string, as field.Invalid renders the template's labels. */
const goStringMap = (m: Record<string, string> | undefined): string => (m
  ? `map[string]string{${Object.keys(m).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`).join(', ')}}`
  : 'map[string]string(nil)');

/** Go's %#v of an empty metav1.LabelSelector, as field.Invalid renders it. */
const goEmptySelector = (s: LabelSelector): string =>
  `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:[]v1.LabelSelectorRequirement${s.matchExpressions ? '{}' : '(nil)'}}`;

/** The word upstream's message uses per kind (ReplicaSet's says "deployment" too). */
const EMPTY_SELECTOR_WORD: Record<string, string> = { Deployment: 'deployment', ReplicaSet: 'deployment', StatefulSet: 'statefulset', DaemonSet: 'daemonset' };

function validateSelectorMatchesTemplate(obj: KubeObject): StatusCause[] {
  const selector = obj.spec?.selector as LabelSelector | undefined;
  if (!selector) return [];
  const causes = validateLabelSelector(selector, 'spec.selector');
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions?.length ?? 0) === 0) {
    causes.push(fieldCause('FieldValueInvalid', 'spec.selector', `Invalid value: ${goEmptySelector(selector)}: empty selector is invalid for ${EMPTY_SELECTOR_WORD[obj.kind ?? ''] ?? 'deployment'}`));
  }
  if (causes.length) return causes;
  const labels = obj.spec?.template?.metadata?.labels as Record<string, string> | undefined;
  const sel = labelSelectorAsSelector(selector);
  if (!sel.empty && !sel.matches(labels ?? {})) {
    causes.push(fieldCause('FieldValueInvalid', 'spec.template.metadata.labels', `Invalid value: ${goStringMap(labels)}: \`selector\` does not match template \`labels\``));
  }
  return causes;
}

export const workloadStrategy: Strategy = { validate: validateSelectorMatchesTemplate };
