// Deployments, ReplicaSets, DaemonSets and StatefulSets: the selector must select the pod template's labels, or the
// controller would create pods it never counts (upstream: ValidatePodTemplateSpecForReplicaSet and its twins in
// pkg/apis/apps/validation). Shared by the kinds' own strategies (deployments.ts, replicasets.ts, daemonsets.ts,
// statefulsets.ts), which add the rest of their spec's rules.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { labelSelectorAsSelector, nothing, validateLabelSelector, type LabelSelector, type Selector } from '../../apimachinery/labels.js';
import { goLabelSelector, goStringMap, invalidRendered } from '../validation/go-values.js';
import { labelsOf } from '../validation/pod-template.js';

/** The word upstream's message uses per kind (ReplicaSet's says "deployment" too). */
const EMPTY_SELECTOR_WORD: Record<string, string> = { Deployment: 'deployment', ReplicaSet: 'deployment', StatefulSet: 'statefulset', DaemonSet: 'daemonset' };

export interface CheckedSelector {
  /** The selector's own causes (labels, expressions). */
  causes: StatusCause[];
  /** "empty selector is invalid for ...", when it selects everything. */
  empty?: StatusCause;
  /** The parsed selector (nothing() when absent); undefined when invalid (upstream's LabelSelectorAsSelector failed). */
  selector?: Selector;
  /** Whether LabelSelectorAsSelector would have failed on it. */
  invalid: boolean;
}

const isEmpty = (s: LabelSelector): boolean =>
  Object.keys(s.matchLabels ?? {}).length + (Array.isArray(s.matchExpressions) ? s.matchExpressions.length : 0) === 0;

/**
 * spec.selector's own rules: valid labels and expressions, and not empty. An absent one is the schema's to report, and
 * selects nothing (LabelSelectorAsSelector of nil), so that the template's labels do not match it, as upstream says.
 */
export function checkSelector(obj: KubeObject, kind = obj.kind ?? ''): CheckedSelector {
  const selector = obj.spec?.selector as LabelSelector | undefined;
  if (selector === undefined || selector === null) return { causes: [], invalid: false, selector: nothing() };
  if (typeof selector !== 'object') return { causes: [], invalid: false };
  const causes = validateLabelSelector(selector, 'spec.selector');
  const invalid = causes.length > 0;
  const empty = isEmpty(selector)
    ? invalidRendered('spec.selector', goLabelSelector(selector), `empty selector is invalid for ${EMPTY_SELECTOR_WORD[kind] ?? 'deployment'}`)
    : undefined;
  if (invalid) return { causes, empty, invalid };
  try {
    return { causes, empty, selector: labelSelectorAsSelector(selector), invalid };
  } catch {
    return { causes, empty, invalid: true };
  }
}

/** The selector's causes, the empty-selector one last. */
export const selectorCauses = (checked: CheckedSelector): StatusCause[] => (checked.empty ? [...checked.causes, checked.empty] : checked.causes);

/** "`selector` does not match template `labels`", unless the selector is empty (selects everything). */
export function templateMatchCauses(selector: Selector | undefined, template: unknown, path = 'spec.template'): StatusCause[] {
  if (!selector || selector.empty) return [];
  const labels = labelsOf(template);
  return selector.matches(labels ?? {})
    ? [] : [invalidRendered(`${path}.metadata.labels`, goStringMap(labels), '`selector` does not match template `labels`')];
}

const sameSelector = (a: unknown, b: unknown): boolean => {
  // Semantic.DeepEqual: an empty map or list equals an absent one
  const norm = (s: unknown): string => {
    const o = (s && typeof s === 'object' ? s : {}) as LabelSelector;
    const labels = Object.entries(o.matchLabels ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return JSON.stringify([labels, o.matchExpressions?.length ? o.matchExpressions : []]);
  };
  return (a == null) === (b == null) && norm(a) === norm(b);
};

/** apps/v1 Deployments, ReplicaSets and DaemonSets: the selector never changes once created (upstream's ValidateUpdate). */
export function immutableSelector(obj: KubeObject, old: KubeObject): StatusCause[] {
  const next = obj.spec?.selector;
  if (sameSelector(next, old.spec?.selector)) return [];
  return [next == null ? invalidValue('spec.selector', null, 'field is immutable') : invalidRendered('spec.selector', goLabelSelector(next), 'field is immutable')];
}
