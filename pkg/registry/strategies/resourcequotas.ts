// ResourceQuotas (upstream: ValidateResourceQuota, ValidateResourceQuotaUpdate and ValidateResourceQuotaStatusUpdate in
// pkg/apis/core/validation): hard (and, through /status, used) resource names a quota can track, quantities not
// negative and whole for countable resources, scopes known, applicable to the tracked resources and not conflicting,
// the scope selector's operators and values, and scopes that never change.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, required } from '../../apimachinery/field.js';
import { formatQuantity } from '../../apimachinery/quantity.js';
import type { Strategy } from '../strategy.js';
import { invalidRaw, isObj, list, str } from '../validation/field-checks.js';
import { goQuantity, goQuote, goStringSlice } from '../validation/go-values.js';
import { isIntegerResourceName, quantityOf, validateResourceName } from '../validation/resources.js';

const QUOTA_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);
const STANDARD_SCOPES = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity']);
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);
const EXISTS_ONLY_SCOPES = new Set(['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity']);
const CONFLICTS: readonly [string, string][] = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']];
const INVALID_QUOTA_RESOURCE = 'must be a standard resource for quota';
const EXISTS_ONLY = 'must be \'Exists\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, '
  + 'ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity';

const isStandardQuotaResourceName = (name: string): boolean =>
  QUOTA_RESOURCES.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');

/** helper.IsResourceQuotaScopeValidForResource. */
function scopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating': case 'NotTerminating': case 'NotBestEffort': case 'PriorityClass': case 'CrossNamespacePodAffinity':
      return resource === 'pods' || POD_COMPUTE.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    default:
      return true;
  }
}

/** %#v of []core.ResourceQuotaScope. */
const goScopes = (v: unknown): string =>
  (Array.isArray(v) ? `[]core.ResourceQuotaScope{${v.map((s) => goQuote(String(s ?? ''))).join(', ')}}` : '[]core.ResourceQuotaScope(nil)');

/** %#v of the *core.ScopeSelector (dereferenced). */
const goScopeSelector = (sel: KubeObject): string => {
  const exprs = sel.matchExpressions;
  const rendered = Array.isArray(exprs)
    ? `[]core.ScopedResourceSelectorRequirement{${exprs.map((e) => {
      const r = isObj(e) ? e : {};
      return `core.ScopedResourceSelectorRequirement{ScopeName:${goQuote(str(r.scopeName))}, Operator:${goQuote(str(r.operator))}, Values:${goStringSlice(r.values)}}`;
    }).join(', ')}}`
    : '[]core.ScopedResourceSelectorRequirement(nil)';
  return `core.ScopeSelector{MatchExpressions:${rendered}}`;
};

/** Quantity.MilliValue() % 1000 != 0, MilliValue rounding up away from zero. */
const notWhole = (nanos: bigint): boolean => {
  let milli = nanos / 1_000_000n;
  if (milli * 1_000_000n !== nanos) milli += nanos < 0n ? -1n : 1n;
  return milli % 1000n !== 0n;
};

/** ValidateResourceQuotaResourceName and ValidateResourceQuantityValue over one resource list. */
function validateResourceList(list: unknown, path: string, causes: StatusCause[]): void {
  if (!isObj(list)) return;
  for (const name of Object.keys(list)) {
    const at = `${path}[${name}]`;
    validateResourceName(name, at, causes);
    if (!name.includes('/') && !isStandardQuotaResourceName(name)) causes.push(invalidRaw(at, name, INVALID_QUOTA_RESOURCE));
    const raw = list[name];
    const q = quantityOf(raw);
    if (!q) continue;
    if (q.nanos < 0n) causes.push(invalidValue(at, formatQuantity(q), 'must be greater than or equal to 0'));
    if (isIntegerResourceName(name) && notWhole(q.nanos)) causes.push(invalidRaw(at, goQuantity(raw), 'must be an integer'));
  }
}

function validateScopes(spec: KubeObject, hardNames: string[], causes: StatusCause[]): void {
  const scopes = list(spec.scopes);
  if (scopes.length === 0) return;
  const rendered = goScopes(spec.scopes);
  const seen = new Set<string>();
  for (const s of scopes) {
    const scope = str(s);
    if (!STANDARD_SCOPES.has(scope)) causes.push(invalidRaw('spec.scopes', rendered, 'unsupported scope'));
    for (const k of hardNames) {
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k)) causes.push(invalidRaw('spec.scopes', rendered, 'unsupported scope applied to resource'));
    }
    seen.add(scope);
  }
  for (const [a, b] of CONFLICTS) if (seen.has(a) && seen.has(b)) causes.push(invalidRaw('spec.scopes', rendered, 'conflicting scopes'));
}

function validateScopeSelector(spec: KubeObject, hardNames: string[], causes: StatusCause[]): void {
  const sel = spec.scopeSelector;
  if (!isObj(sel)) return;
  const path = 'spec.scopeSelector.matchExpressions';
  const seen = new Set<string>();
  for (const e of list(sel.matchExpressions)) {
    const req = isObj(e) ? e : {};
    const scope = str(req.scopeName);
    const op = str(req.operator);
    const values = list(req.values);
    if (!STANDARD_SCOPES.has(scope)) causes.push(invalidValue(`${path}.scopeName`, scope, 'unsupported scope'));
    for (const k of hardNames) {
      if (isStandardQuotaResourceName(k) && !scopeValidForResource(scope, k)) causes.push(invalidRaw(path, goScopeSelector(sel), 'unsupported scope applied to resource'));
    }
    if (EXISTS_ONLY_SCOPES.has(scope) && op !== 'Exists') causes.push(invalidValue(`${path}.operator`, op, EXISTS_ONLY));
    switch (op) {
      case 'In': case 'NotIn':
        if (values.length === 0) causes.push(required(`${path}.values`, 'must be at least one value when `operator` is \'In\' or \'NotIn\' for scope selector'));
        break;
      case 'Exists': case 'DoesNotExist':
        if (values.length !== 0) causes.push(invalidRaw(`${path}.values`, goStringSlice(req.values), 'must be no value when `operator` is \'Exist\' or \'DoesNotExist\' for scope selector'));
        break;
      default:
        causes.push(invalidValue(`${path}.operator`, op, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  for (const [a, b] of CONFLICTS) if (seen.has(a) && seen.has(b)) causes.push(invalidRaw(path, goScopes(spec.scopes), 'conflicting scopes'));
}

/** ValidateResourceQuotaSpec. */
export function validateResourceQuotaSpec(specValue: unknown): StatusCause[] {
  const spec = isObj(specValue) ? specValue : {};
  const causes: StatusCause[] = [];
  validateResourceList(spec.hard, 'spec.hard', causes);
  const hardNames = isObj(spec.hard) ? Object.keys(spec.hard).sort() : [];
  validateScopes(spec, hardNames, causes);
  validateScopeSelector(spec, hardNames, causes);
  return causes;
}

const scopeSet = (v: unknown): Set<string> => new Set(list(v).map((s) => str(s)));

export const resourceQuotaStrategy: Strategy = {
  validate: (rq) => validateResourceQuotaSpec(rq.spec),
  validateUpdate(rq, old) {
    const next = scopeSet(rq.spec?.scopes);
    const prev = scopeSet(old.spec?.scopes);
    const same = next.size === prev.size && [...next].every((s) => prev.has(s));
    return same ? [] : [invalidRaw('spec.scopes', goScopes(rq.spec?.scopes), 'field is immutable')];
  },
  validateSubresource(rq, _old, _ctx, subresource) {
    if (subresource !== 'status') return [];
    const causes: StatusCause[] = [];
    validateResourceList(rq.status?.hard, 'status.hard', causes);
    validateResourceList(rq.status?.used, 'status.used', causes);
    return causes;
  },
};
