// LimitRanges and ResourceQuotas.
import { arr, enumStr, kind, listKind, mapOf, obj, ref, str, type Definitions } from '../../schema.js';
import { QUANTITY, core, v1 } from './names.js';

export const quotaDefinitions: Definitions = {
  [core('LimitRange')]: kind(v1('LimitRange'), {
    spec: ref(core('LimitRangeSpec'), 'Limits enforced.'),
  }, 'Resource usage limits per kind of resource in a namespace.'),
  [core('LimitRangeList')]: listKind(v1('LimitRangeList'), core('LimitRange')),
  [core('LimitRangeSpec')]: obj({
    limits: arr(ref(core('LimitRangeItem')), 'Limit items enforced.'),
  }, 'Limits enforced for kinds of resources.', { required: ['limits'] }),
  [core('LimitRangeItem')]: obj({
    default: mapOf(ref(QUANTITY), 'Default limit of each resource.'),
    defaultRequest: mapOf(ref(QUANTITY), 'Default request of each resource.'),
    max: mapOf(ref(QUANTITY), 'Maximum usage of each resource.'),
    maxLimitRequestRatio: mapOf(ref(QUANTITY), 'Largest allowed ratio of limit to request for each resource.'),
    min: mapOf(ref(QUANTITY), 'Minimum usage of each resource.'),
    type: str('Kind of object limited: Pod, Container or PersistentVolumeClaim.'),
  }, 'Min/max and default usage limits for one kind of object.', { required: ['type'] }),
  [core('ResourceQuota')]: kind(v1('ResourceQuota'), {
    spec: ref(core('ResourceQuotaSpec'), 'Desired quota.'),
    status: ref(core('ResourceQuotaStatus'), 'Actual enforced quota and its current usage.'),
  }, 'Aggregate quota per namespace.'),
  [core('ResourceQuotaList')]: listKind(v1('ResourceQuotaList'), core('ResourceQuota')),
  [core('ResourceQuotaSpec')]: obj({
    hard: mapOf(ref(QUANTITY), 'Hard limit of each named resource.'),
    scopeSelector: ref(core('ScopeSelector'), 'Scopes, with operator and values, that tracked objects must match.'),
    scopes: arr(enumStr(['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating']), 'Scopes that tracked objects must all match.'),
  }, 'Hard limits to enforce for a quota.'),
  [core('ResourceQuotaStatus')]: obj({
    hard: mapOf(ref(QUANTITY), 'Enforced hard limit of each named resource.'),
    used: mapOf(ref(QUANTITY), 'Current observed use of each resource in the namespace.'),
  }, 'Enforced hard limits and observed use.'),
  [core('ScopeSelector')]: obj({
    matchExpressions: arr(ref(core('ScopedResourceSelectorRequirement')), 'Requirements on the resource scopes.'),
  }, 'Scope selector requirements, ANDed together.', { 'x-kubernetes-map-type': 'atomic' }),
  [core('ScopedResourceSelectorRequirement')]: obj({
    operator: enumStr(['DoesNotExist', 'Exists', 'In', 'NotIn'], 'Relation of scope and values: In, NotIn, Exists or DoesNotExist.'),
    scopeName: enumStr(['BestEffort', 'CrossNamespacePodAffinity', 'NotBestEffort', 'NotTerminating', 'PriorityClass', 'Terminating'], 'Name of the scope the selector applies to.'),
    values: arr(str(), 'Values to compare against; empty for Exists and DoesNotExist.'),
  }, 'A scope name, operator and values.', { required: ['scopeName', 'operator'] }),
};
