// Scheduling constraints of a pod spec: node and pod (anti-)affinity (upstream's validateAffinity) and topology
// spread constraints (validateTopologySpreadConstraints), as a create checks them (no invalid label values
// allowed in selectors, as an update of an object that already had them would allow).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { validateLabelSelector, type LabelSelector } from '../../apimachinery/labels.js';
import { isDNS1123Label, isValidLabelValue } from '../../apimachinery/names.js';
import { validateLabelName } from '../../apimachinery/objectmeta.js';
import { checkDNSSubdomain, isObj, list, num, str } from './field-checks.js';

const WEIGHT_RANGE = 'must be in the range 1-100';
const NOT_POSITIVE = 'must be greater than zero';

/** ValidateNodeSelectorRequirement: `checkValues` false for preferred terms, which may name any value. */
function checkNodeSelectorRequirement(causes: StatusCause[], rq: KubeObject, checkValues: boolean, path: string): void {
  const values = list(rq.values);
  const operator = str(rq.operator);
  switch (operator) {
    case 'In': case 'NotIn':
      if (values.length === 0) causes.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists': case 'DoesNotExist':
      if (values.length > 0) causes.push(forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt': case 'Lt':
      if (values.length !== 1) causes.push(required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      causes.push(invalidValue(`${path}.operator`, operator, 'not a valid selector operator'));
  }
  causes.push(...validateLabelName(str(rq.key), `${path}.key`));
  if (!checkValues) return;
  values.forEach((v, i) => {
    const value = str(v);
    for (const m of isValidLabelValue(value)) causes.push(invalidValue(`${path}.values[${i}]`, value, m));
  });
}

/** ValidateNodeFieldSelectorRequirement: only metadata.name, In or NotIn one node name. */
function checkNodeFieldSelectorRequirement(causes: StatusCause[], rq: KubeObject, path: string): void {
  const values = list(rq.values);
  const operator = str(rq.operator);
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length !== 1) causes.push(required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    causes.push(invalidValue(`${path}.operator`, operator, 'not a valid selector operator'));
  }
  const key = str(rq.key);
  if (key !== 'metadata.name') causes.push(invalidValue(`${path}.key`, key, 'not a valid field selector key'));
  else values.forEach((v, i) => checkDNSSubdomain(causes, `${path}.values[${i}]`, str(v)));
}

/** ValidateNodeSelectorTerm. */
function checkNodeSelectorTerm(causes: StatusCause[], term: unknown, checkValues: boolean, path: string): void {
  if (!isObj(term)) return;
  list(term.matchExpressions).forEach((rq, j) => { if (isObj(rq)) checkNodeSelectorRequirement(causes, rq, checkValues, `${path}.matchExpressions[${j}]`); });
  list(term.matchFields).forEach((rq, j) => { if (isObj(rq)) checkNodeFieldSelectorRequirement(causes, rq, `${path}.matchFields[${j}]`); });
}

/** ValidateNodeSelector: at least one term, each of valid requirements (`path` is the NodeSelector's). */
export function checkNodeSelector(causes: StatusCause[], selector: KubeObject, path: string): void {
  const at = `${path}.nodeSelectorTerms`;
  const terms = list(selector.nodeSelectorTerms);
  if (terms.length === 0) causes.push(required(at, 'must have at least one node selector term'));
  else terms.forEach((term, i) => checkNodeSelectorTerm(causes, term, true, `${at}[${i}]`));
}

function checkNodeAffinity(causes: StatusCause[], na: KubeObject, path: string): void {
  const requiredTerms = na.requiredDuringSchedulingIgnoredDuringExecution;
  if (isObj(requiredTerms)) checkNodeSelector(causes, requiredTerms, `${path}.requiredDuringSchedulingIgnoredDuringExecution`);
  list(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
    if (!isObj(term)) return;
    const at = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    const weight = num(term.weight) ?? 0;
    if (weight <= 0 || weight > 100) causes.push(invalidValue(`${at}.weight`, weight, WEIGHT_RANGE));
    checkNodeSelectorTerm(causes, term.preference, false, `${at}.preference`);
  });
}

const selectorOf = (v: unknown): LabelSelector | undefined => (isObj(v) ? (v as LabelSelector) : undefined);

/** validateLabelKeys: label names, and only with a labelSelector. */
function checkLabelKeys(causes: StatusCause[], path: string, keys: readonly unknown[], selector: LabelSelector | undefined): void {
  if (keys.length === 0) return;
  if (!selector) {
    causes.push(forbidden(path, 'must not be specified when labelSelector is not set'));
    return;
  }
  keys.forEach((k, i) => causes.push(...validateLabelName(str(k), `${path}[${i}]`)));
}

/** validatePodAffinityTerm. */
function checkPodAffinityTerm(causes: StatusCause[], term: KubeObject, path: string): void {
  const selector = selectorOf(term.labelSelector);
  causes.push(...validateLabelSelector(selector, `${path}.labelSelector`));
  causes.push(...validateLabelSelector(selectorOf(term.namespaceSelector), `${path}.namespaceSelector`));
  for (const ns of list(term.namespaces)) {
    const name = str(ns);
    for (const m of isDNS1123Label(name)) causes.push(invalidValue(`${path}.namespace`, name, m)); // upstream's path
  }
  // validateMatchLabelKeysAndMismatchLabelKeys
  const matchKeys = list(term.matchLabelKeys);
  const mismatchKeys = list(term.mismatchLabelKeys);
  checkLabelKeys(causes, `${path}.matchLabelKeys`, matchKeys, selector);
  checkLabelKeys(causes, `${path}.mismatchLabelKeys`, mismatchKeys, selector);
  if (selector && matchKeys.length > 0) {
    const index = new Map<string, number>();
    matchKeys.forEach((k, i) => index.set(str(k), i));
    const seen = new Set(isObj(selector.matchLabels) ? Object.keys(selector.matchLabels) : []);
    for (const e of list(selector.matchExpressions)) {
      const key = isObj(e) ? str(e.key) : '';
      const i = index.get(key);
      // upstream's path: the term's, indexed by the key's place in matchLabelKeys
      if (i !== undefined && seen.has(key)) causes.push(invalidValue(`${path}[${i}]`, key, 'exists in both matchLabelKeys and labelSelector'));
      seen.add(key);
    }
  }
  if (mismatchKeys.length > 0) {
    const mismatch = new Set(mismatchKeys.map(str));
    matchKeys.forEach((k, i) => {
      if (mismatch.has(str(k))) causes.push(invalidValue(`${path}.matchLabelKeys[${i}]`, str(k), 'exists in both matchLabelKeys and mismatchLabelKeys'));
    });
  }
  const topologyKey = str(term.topologyKey);
  if (!topologyKey) causes.push(required(`${path}.topologyKey`, 'can not be empty'));
  causes.push(...validateLabelName(topologyKey, `${path}.topologyKey`));
}

/** validatePodAffinity and validatePodAntiAffinity (the same rules). */
function checkPodAffinity(causes: StatusCause[], pa: KubeObject, path: string): void {
  list(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
    if (isObj(term)) checkPodAffinityTerm(causes, term, `${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`);
  });
  list(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((wt, i) => {
    if (!isObj(wt)) return;
    const at = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    const weight = num(wt.weight) ?? 0;
    if (weight <= 0 || weight > 100) causes.push(invalidValue(`${at}.weight`, weight, WEIGHT_RANGE));
    checkPodAffinityTerm(causes, isObj(wt.podAffinityTerm) ? wt.podAffinityTerm : {}, `${at}.podAffinityTerm`);
  });
}

/** validateAffinity. */
export function validateAffinity(affinity: unknown, path: string, causes: StatusCause[]): void {
  if (!isObj(affinity)) return;
  if (isObj(affinity.nodeAffinity)) checkNodeAffinity(causes, affinity.nodeAffinity, `${path}.nodeAffinity`);
  if (isObj(affinity.podAffinity)) checkPodAffinity(causes, affinity.podAffinity, `${path}.podAffinity`);
  if (isObj(affinity.podAntiAffinity)) checkPodAffinity(causes, affinity.podAntiAffinity, `${path}.podAntiAffinity`);
}

const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

/** validateTopologySpreadConstraints. */
export function validateTopologySpreadConstraints(constraints: unknown, path: string, causes: StatusCause[]): void {
  const all = list(constraints);
  for (let i = 0; i < all.length; i++) {
    const c = all[i];
    if (!isObj(c)) continue;
    const at = `${path}[${i}]`;
    const maxSkew = num(c.maxSkew) ?? 0;
    if (maxSkew <= 0) causes.push(invalidValue(`${at}.maxSkew`, maxSkew, NOT_POSITIVE));
    const topologyKey = str(c.topologyKey);
    if (!topologyKey) causes.push(required(`${at}.topologyKey`, 'can not be empty'));
    const action = str(c.whenUnsatisfiable);
    if (!SCHEDULE_ACTIONS.includes(action)) causes.push(notSupported(`${at}.whenUnsatisfiable`, action, SCHEDULE_ACTIONS));
    // {topologyKey, whenUnsatisfiable} names one kind of constraint
    for (let j = i + 1; j < all.length; j++) {
      const other = all[j];
      if (isObj(other) && str(other.topologyKey) === topologyKey && str(other.whenUnsatisfiable) === action) {
        causes.push(duplicate(`${at}.{topologyKey, whenUnsatisfiable}`, `{${topologyKey}, ${action}}`));
        break;
      }
    }
    const minDomains = num(c.minDomains);
    if (minDomains !== undefined) {
      if (minDomains <= 0) causes.push(invalidValue(`${at}.minDomains`, minDomains, NOT_POSITIVE));
      if (action !== 'DoNotSchedule') causes.push(invalidValue(`${at}.minDomains`, minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = c[policy];
      if (typeof v === 'string' && !NODE_INCLUSION_POLICIES.includes(v)) causes.push(notSupported(`${at}.${policy}`, v, NODE_INCLUSION_POLICIES));
    }
    // validateMatchLabelKeysInTopologySpread
    const selector = selectorOf(c.labelSelector);
    const keys = list(c.matchLabelKeys);
    if (keys.length > 0) {
      const selectorKeys = new Set<string>();
      if (selector) {
        if (isObj(selector.matchLabels)) for (const k of Object.keys(selector.matchLabels)) selectorKeys.add(k);
        for (const e of list(selector.matchExpressions)) if (isObj(e)) selectorKeys.add(str(e.key));
      } else {
        causes.push(forbidden(`${at}.matchLabelKeys`, 'must not be specified when labelSelector is not set'));
      }
      keys.forEach((k, j) => {
        const key = str(k);
        causes.push(...validateLabelName(key, `${at}.matchLabelKeys[${j}]`));
        if (selectorKeys.has(key)) causes.push(invalidValue(`${at}.matchLabelKeys[${j}]`, key, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
    causes.push(...validateLabelSelector(selector, `${at}.labelSelector`));
  }
}
