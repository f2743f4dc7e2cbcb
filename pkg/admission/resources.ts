// Resource lists (name -> quantity string) as the quota and limit plugins read them (upstream:
// core ResourceList and resourcehelper.PodRequests/PodLimits).
import type { KubeObject } from '../../api/types.js';
import { addQuantity, compareQuantity, formatQuantity, parseQuantity, type Quantity } from '../apimachinery/quantity.js';

export type ResourceList = Record<string, Quantity>;

export const ZERO: Quantity = { nanos: 0n, format: 'DecimalSI' };

export function parseList(list: Record<string, unknown> | undefined): ResourceList {
  const out: ResourceList = {};
  for (const [k, v] of Object.entries(list ?? {})) {
    try {
      out[k] = parseQuantity(String(v));
    } catch {
      // Validation refuses malformed quantities; nothing to count here.
    }
  }
  return out;
}

export const q2s = (q: Quantity): string => formatQuantity(q);

export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = out[k] ? addQuantity(out[k], v) : v;
  return out;
}

function maxLists(a: ResourceList, b: ResourceList): ResourceList {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) if (!out[k] || compareQuantity(v, out[k]) > 0) out[k] = v;
  return out;
}

/** `k=v,k=v`, sorted by name (upstream's prettyPrint of a ResourceList). */
export const prettyPrint = (l: ResourceList): string =>
  Object.keys(l).sort().map((k) => `${k}=${q2s(l[k]!)}`).join(',');

const isSidecar = (c: KubeObject): boolean => c.restartPolicy === 'Always';

/**
 * What a pod asks for, as the scheduler sees it: the sum over its containers (and sidecars), at least
 * the largest init container with the sidecars started before it, plus the overhead.
 */
export function podResources(spec: KubeObject | undefined, which: 'requests' | 'limits'): ResourceList {
  let sum: ResourceList = {};
  for (const c of (spec?.containers ?? []) as KubeObject[]) sum = addLists(sum, parseList(c.resources?.[which]));
  let sidecars: ResourceList = {};
  let initMax: ResourceList = {};
  for (const c of (spec?.initContainers ?? []) as KubeObject[]) {
    const own = parseList(c.resources?.[which]);
    if (isSidecar(c)) {
      sidecars = addLists(sidecars, own);
      sum = addLists(sum, own);
      initMax = maxLists(initMax, sidecars);
    } else {
      initMax = maxLists(initMax, addLists(sidecars, own));
    }
  }
  return addLists(maxLists(sum, initMax), parseList(spec?.overhead));
}
