// What one object counts against a ResourceQuota (upstream: pkg/quota/v1/evaluator/core and the
// generic object-count evaluator), and whether a quota's scopes select it.
import type { KubeObject, ResourceType } from '../../api/types.js';
import { podResources, type ResourceList } from './resources.js';

const ONE = { nanos: 1_000_000_000n, format: 'DecimalSI' } as const;
const count = (n: number) => ({ nanos: BigInt(n) * 1_000_000_000n, format: 'DecimalSI' as const });

/** The resources a quota can name that count objects of this kind. */
export const countName = (rt: Pick<ResourceType, 'group' | 'plural'>): string => (rt.group ? `count/${rt.plural}.${rt.group}` : `count/${rt.plural}`);

/** Core kinds also counted under their bare plural ("pods", "services", ...). */
const LEGACY_COUNTED = new Set(['pods', 'services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas']);

const isTerminal = (pod: KubeObject): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** Upstream's QuotaV1Pod: terminal pods, and pods past their deletion deadline, no longer count. */
export function podCounts(pod: KubeObject, now: Date): boolean {
  if (isTerminal(pod)) return false;
  const ts = pod.metadata?.deletionTimestamp;
  return !(ts && Date.parse(ts) <= now.getTime());
}

const NATIVE_PREFIXES = ['cpu', 'memory', 'ephemeral-storage', 'hugepages-'];
const isExtended = (name: string): boolean => name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.');

function podUsage(pod: KubeObject): ResourceList {
  const u: ResourceList = { pods: ONE, 'count/pods': ONE };
  const requests = podResources(pod.spec, 'requests');
  const limits = podResources(pod.spec, 'limits');
  for (const [k, v] of Object.entries(requests)) {
    if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') {
      u[k] = v;
      u[`requests.${k}`] = v;
    } else if (k.startsWith('hugepages-') || isExtended(k)) {
      u[`requests.${k}`] = v;
    }
  }
  for (const [k, v] of Object.entries(limits)) {
    if (NATIVE_PREFIXES.some((p) => k === p || (p.endsWith('-') && k.startsWith(p)))) u[`limits.${k}`] = v;
  }
  return u;
}

function serviceUsage(svc: KubeObject): ResourceList {
  const u: ResourceList = { services: ONE, 'count/services': ONE };
  const type = svc.spec?.type ?? 'ClusterIP';
  const ports = Array.isArray(svc.spec?.ports) ? svc.spec.ports.length : 0;
  if (type === 'LoadBalancer') u['services.loadbalancers'] = ONE;
  if (type === 'NodePort' || type === 'LoadBalancer') u['services.nodeports'] = count(ports);
  return u;
}

function pvcUsage(pvc: KubeObject): ResourceList {
  const u: ResourceList = { persistentvolumeclaims: ONE, 'count/persistentvolumeclaims': ONE };
  const cls: string | undefined = pvc.spec?.storageClassName ?? pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (cls) u[`${cls}.storageclass.storage.k8s.io/persistentvolumeclaims`] = ONE;
  const storage = podResources({ containers: [{ resources: { requests: pvc.spec?.resources?.requests ?? {} } }] }, 'requests').storage;
  if (storage) {
    u['requests.storage'] = storage;
    if (cls) u[`${cls}.storageclass.storage.k8s.io/requests.storage`] = storage;
  }
  return u;
}

/** Everything the object counts for (empty when it counts for nothing, a finished pod). */
export function usageOf(rt: Pick<ResourceType, 'group' | 'plural'>, obj: KubeObject, now: Date): ResourceList {
  if (rt.group === '') {
    if (rt.plural === 'pods') return podCounts(obj, now) ? podUsage(obj) : {};
    if (rt.plural === 'services') return serviceUsage(obj);
    if (rt.plural === 'persistentvolumeclaims') return pvcUsage(obj);
    if (LEGACY_COUNTED.has(rt.plural)) return { [rt.plural]: ONE, [countName(rt)]: ONE };
  }
  return { [countName(rt)]: ONE };
}

type Requirement = { scopeName: string; operator: string; values?: string[] };

const isBestEffort = (pod: KubeObject): boolean =>
  [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].every((c: KubeObject) =>
    Object.keys(c.resources?.requests ?? {}).length === 0 && Object.keys(c.resources?.limits ?? {}).length === 0);

function podMatchesScope(pod: KubeObject, r: Requirement): boolean {
  switch (r.scopeName) {
    case 'Terminating': return typeof pod.spec?.activeDeadlineSeconds === 'number' && pod.spec.activeDeadlineSeconds >= 0;
    case 'NotTerminating': return !(typeof pod.spec?.activeDeadlineSeconds === 'number' && pod.spec.activeDeadlineSeconds >= 0);
    case 'BestEffort': return isBestEffort(pod);
    case 'NotBestEffort': return !isBestEffort(pod);
    case 'PriorityClass': {
      const name: string | undefined = pod.spec?.priorityClassName || undefined;
      switch (r.operator) {
        case 'Exists': return name !== undefined;
        case 'DoesNotExist': return name === undefined;
        case 'In': return name !== undefined && (r.values ?? []).includes(name);
        case 'NotIn': return name === undefined || !(r.values ?? []).includes(name);
        default: return false;
      }
    }
    case 'CrossNamespacePodAffinity': {
      const terms = [
        ...(pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
        ...(pod.spec?.affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w: KubeObject) => w.podAffinityTerm),
        ...(pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
        ...(pod.spec?.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w: KubeObject) => w.podAffinityTerm),
      ] as KubeObject[];
      return terms.some((t) => (t?.namespaces?.length ?? 0) > 0 || t?.namespaceSelector !== undefined);
    }
    default: return false;
  }
}

/** Whether the quota's scopes (and scopeSelector) select the object; scoped quotas select only pods. */
export function quotaSelects(quota: KubeObject, rt: Pick<ResourceType, 'group' | 'plural'>, obj: KubeObject): boolean {
  const reqs: Requirement[] = [
    ...((quota.spec?.scopes ?? []) as string[]).map((s) => ({ scopeName: s, operator: 'Exists' })),
    ...((quota.spec?.scopeSelector?.matchExpressions ?? []) as Requirement[]),
  ];
  if (reqs.length === 0) return true;
  if (rt.group !== '' || rt.plural !== 'pods') return false;
  return reqs.every((r) => {
    const m = podMatchesScope(obj, r);
    return r.scopeName !== 'PriorityClass' && r.operator === 'DoesNotExist' ? !m : m;
  });
}

/** The resources a quota can track for pods whose absence in a container is refused (upstream's validationSet). */
export const POD_REQUIRED = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** Upstream's podEvaluator.Constraints: each container must request what the quota tracks of cpu and memory. */
export function podConstraints(pod: KubeObject, hard: string[]): string | undefined {
  const required = hard.filter((h) => POD_REQUIRED.has(h));
  if (required.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])] as KubeObject[]) {
    const has = new Set<string>();
    for (const k of Object.keys(c.resources?.requests ?? {})) {
      if (k === 'cpu' || k === 'memory') has.add(k).add(`requests.${k}`);
    }
    for (const k of Object.keys(c.resources?.limits ?? {})) {
      if (k === 'cpu' || k === 'memory') has.add(`limits.${k}`);
    }
    for (const r of required) {
      if (!has.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(c.name));
    }
  }
  if (missing.size === 0) return undefined;
  return `must specify ${[...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`).join('; ')}`;
}
