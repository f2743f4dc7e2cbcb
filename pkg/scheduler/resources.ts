// Resource arithmetic as upstream's scheduler framework.Resource: cpu in millicores, everything else in its base
// unit (bytes, counts). A pod's request follows resourcehelper.PodRequests: the sum of its containers, raised to any
// init container's (restartable sidecars accumulate), plus pod overhead; pod-level resources win when set.
import { parseQuantity, quantityMilliValue, quantityValue } from '../apimachinery/quantity.js';
import type { Node, Pod } from './types.js';

export type Resources = Record<string, number>;

export const CPU = 'cpu';
export const MEMORY = 'memory';
export const PODS = 'pods';
/** Upstream's non-zero defaults, used for scoring pods that request nothing (100m cpu, 200 MiB). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

const quantity = (name: string, raw: unknown): number => {
  try {
    const q = parseQuantity(String(raw));
    return name === CPU ? quantityMilliValue(q) : quantityValue(q);
  } catch {
    return 0;
  }
};

export const toResources = (list: Record<string, unknown> | undefined): Resources => {
  const out: Resources = {};
  for (const [k, v] of Object.entries(list ?? {})) out[k] = quantity(k, v);
  return out;
};

const addInto = (into: Resources, r: Resources): void => {
  for (const [k, v] of Object.entries(r)) into[k] = (into[k] ?? 0) + v;
};

const maxInto = (into: Resources, r: Resources): void => {
  for (const [k, v] of Object.entries(r)) if (v > (into[k] ?? 0)) into[k] = v;
};

const requestsOf = (c: { resources?: { requests?: Record<string, unknown> } }): Resources => toResources(c.resources?.requests);

const cache = new WeakMap<object, Resources>();

/** The pod's effective request (what NodeResourcesFit counts). Cached per pod object (informer objects are immutable). */
export const podRequests = (pod: Pod): Resources => {
  const hit = cache.get(pod);
  if (hit) return hit;
  const spec = pod.spec ?? {};
  let reqs: Resources = {};
  if (spec.resources?.requests && Object.keys(spec.resources.requests).length) {
    reqs = toResources(spec.resources.requests);
  } else {
    for (const c of spec.containers ?? []) addInto(reqs, requestsOf(c));
    // init containers: each regular one must fit together with the sidecars started before it
    const sidecars: Resources = {};
    const initMax: Resources = {};
    for (const c of spec.initContainers ?? []) {
      const r = requestsOf(c);
      if (c.restartPolicy === 'Always') {
        addInto(sidecars, r);
        const withSidecars = { ...sidecars };
        maxInto(initMax, withSidecars);
      } else {
        const step = { ...sidecars };
        addInto(step, r);
        maxInto(initMax, step);
      }
    }
    addInto(reqs, sidecars);
    maxInto(reqs, initMax);
  }
  addInto(reqs, toResources(spec.overhead));
  cache.set(pod, reqs);
  return reqs;
};

/** cpu and memory with upstream's non-zero defaults per container (for scoring). */
const nonZeroCache = new WeakMap<object, { cpu: number; memory: number }>();

export const nonZeroRequests = (pod: Pod): { cpu: number; memory: number } => {
  const hit = nonZeroCache.get(pod);
  if (hit) return hit;
  const r = podRequests(pod);
  const hasCpu = CPU in r;
  const hasMem = MEMORY in r;
  const containers = (pod.spec?.containers ?? []) as { resources?: { requests?: Record<string, unknown> } }[];
  let cpu = hasCpu ? r[CPU]! : 0;
  let memory = hasMem ? r[MEMORY]! : 0;
  if (!hasCpu) cpu = containers.length * DEFAULT_MILLI_CPU_REQUEST;
  if (!hasMem) memory = containers.length * DEFAULT_MEMORY_REQUEST;
  const out = { cpu, memory };
  nonZeroCache.set(pod, out);
  return out;
};

const allocCache = new WeakMap<object, Resources>();

/** status.allocatable (capacity when absent), cached per node object. */
export const nodeAllocatable = (node: Node): Resources => {
  const hit = allocCache.get(node);
  if (hit) return hit;
  const r = toResources(node.status?.allocatable ?? node.status?.capacity);
  allocCache.set(node, r);
  return r;
};

