// Usage of a namespace against a quota's hard limits (upstream pkg/quota/v1/evaluator/core, simplified): object
// counts ("pods", "services", "count/deployments.apps", ...), pod compute requests and limits (containers summed,
// init containers as a max, plus overhead) for non-terminal pods, service load balancers and node ports, claimed
// storage; pod scopes Terminating / NotTerminating / BestEffort / NotBestEffort and PriorityClass selectors.
import { isPodTerminal } from '../../../api/core/v1/pod-conditions.js';
import type { KubeObject } from '../../../api/types.js';
import { addQuantity, formatQuantity, parseQuantity, type Quantity } from '../../apimachinery/quantity.js';

const ZERO: Quantity = { nanos: 0n, format: 'DecimalSI' };
type ResourceList = Record<string, string>;

/** Short names that count objects of a core resource. */
export const COUNT_ALIASES: Record<string, string> = {
  pods: 'pods', services: 'services', configmaps: 'configmaps', secrets: 'secrets',
  persistentvolumeclaims: 'persistentvolumeclaims', replicationcontrollers: 'replicationcontrollers', resourcequotas: 'resourcequotas',
};


const sum = (lists: (ResourceList | undefined)[]): Map<string, Quantity> => {
  const out = new Map<string, Quantity>();
  for (const l of lists) for (const [k, v] of Object.entries(l ?? {})) out.set(k, addQuantity(out.get(k) ?? ZERO, parseQuantity(String(v))));
  return out;
};

/** Pod requests or limits: max(sum of containers, each init container) + overhead (upstream PodRequests). */
export function podResources(pod: KubeObject, field: 'requests' | 'limits'): Map<string, Quantity> {
  const containers = (pod.spec?.containers ?? []) as { resources?: Record<string, ResourceList> }[];
  const inits = (pod.spec?.initContainers ?? []) as { resources?: Record<string, ResourceList> }[];
  const total = sum(containers.map((c) => c.resources?.[field]));
  for (const init of inits) {
    for (const [k, v] of sum([init.resources?.[field]])) if ((total.get(k)?.nanos ?? 0n) < v.nanos) total.set(k, v);
  }
  for (const [k, v] of sum([pod.spec?.overhead])) total.set(k, addQuantity(total.get(k) ?? ZERO, v));
  return total;
}

const isBestEffort = (pod: KubeObject): boolean =>
  [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].every((c: { resources?: Record<string, ResourceList> }) =>
    !Object.keys(c.resources?.requests ?? {}).length && !Object.keys(c.resources?.limits ?? {}).length);

/** Whether a pod falls in every scope of the quota. */
export function podInScopes(pod: KubeObject, quota: KubeObject): boolean {
  const scopes: string[] = quota.spec?.scopes ?? [];
  const selectors = (quota.spec?.scopeSelector?.matchExpressions ?? []) as { scopeName: string; operator: string; values?: string[] }[];
  const test = (scope: string, op = 'Exists', values: string[] = []): boolean => {
    switch (scope) {
      case 'Terminating': return pod.spec?.activeDeadlineSeconds != null;
      case 'NotTerminating': return pod.spec?.activeDeadlineSeconds == null;
      case 'BestEffort': return isBestEffort(pod);
      case 'NotBestEffort': return !isBestEffort(pod);
      case 'PriorityClass': {
        const pc = pod.spec?.priorityClassName as string | undefined;
        if (op === 'Exists') return !!pc;
        if (op === 'DoesNotExist') return !pc;
        if (op === 'In') return !!pc && values.includes(pc);
        return !pc || !values.includes(pc);
      }
      default: return true;
    }
  };
  return scopes.every((s) => test(s)) && selectors.every((s) => test(s.scopeName, s.operator, s.values));
}

export interface NamespaceObjects {
  pods: KubeObject[];
  services: KubeObject[];
  claims: KubeObject[];
  /** "configmaps" or "deployments.apps" -> number of objects. */
  counts: Map<string, number>;
}

const fmt = (q: Quantity): string => formatQuantity(q);

/** status.used for the quota's hard keys. */
export function computeUsed(quota: KubeObject, o: NamespaceObjects): ResourceList {
  const hard = (quota.spec?.hard ?? {}) as ResourceList;
  const pods = o.pods.filter((p) => !isPodTerminal(p) && podInScopes(p, quota));
  const requests = sum([]);
  const limits = sum([]);
  for (const p of pods) {
    for (const [k, v] of podResources(p, 'requests')) requests.set(k, addQuantity(requests.get(k) ?? ZERO, v));
    for (const [k, v] of podResources(p, 'limits')) limits.set(k, addQuantity(limits.get(k) ?? ZERO, v));
  }
  const used: ResourceList = {};
  for (const key of Object.keys(hard)) {
    if (key === 'pods' || key === 'count/pods') used[key] = String(pods.length);
    else if (key === 'services' || key === 'count/services') used[key] = String(o.services.length);
    else if (key === 'services.loadbalancers') used[key] = String(o.services.filter((s) => s.spec?.type === 'LoadBalancer').length);
    else if (key === 'services.nodeports') {
      used[key] = String(o.services.filter((s) => s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer')
        .reduce((n, s) => n + ((s.spec?.ports ?? []) as { nodePort?: number }[]).filter((p) => p.nodePort).length, 0));
    } else if (key === 'requests.storage') used[key] = fmt([...o.claims].reduce((q, c) => addQuantity(q, parseQuantity(String(c.spec?.resources?.requests?.storage ?? '0'))), ZERO));
    else if (key === 'persistentvolumeclaims' || key === 'count/persistentvolumeclaims') used[key] = String(o.claims.length);
    else if (key.startsWith('requests.') || key.startsWith('limits.')) {
      const [kind, ...rest] = key.split('.');
      const name = rest.join('.');
      used[key] = fmt((kind === 'requests' ? requests : limits).get(name) ?? ZERO);
    } else if (key === 'cpu' || key === 'memory' || key === 'ephemeral-storage') used[key] = fmt(requests.get(key) ?? ZERO);
    else if (key.startsWith('count/')) used[key] = String(o.counts.get(key.slice('count/'.length)) ?? 0);
    else if (COUNT_ALIASES[key]) used[key] = String(o.counts.get(COUNT_ALIASES[key]) ?? 0);
  }
  return used;
}
