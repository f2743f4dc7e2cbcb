// resourceFieldRef values (the downward API's container resources), shared by env vars and downwardAPI volumes as
// upstream's fieldpath helpers are: the container's limits default to the node's allocatable cpu, memory and
// ephemeral-storage when unset or zero (MergeContainerResourceLimits); the value is divided by the divisor (1 when
// unset) and rounded up, cpu in milli-units and the rest in whole units, as ExtractContainerResourceValue does.
import { parseQuantity, quantityMilliValue, quantityValue } from '../apimachinery/quantity.js';
import type { KubeObject } from '../client/index.js';

export interface ResourceFieldSelector { containerName?: string; resource: string; divisor?: string }
export interface ResourceContainer { name: string; resources?: { limits?: Record<string, string>; requests?: Record<string, string> } }
/** The node's allocatable resources that unset limits default to. */
export interface NodeAllocatable { cpu: string; memory: string; ephemeralStorage?: string }

export class ResourceFieldError extends Error {
  override name = 'ResourceFieldError';
}

const DEFAULTED_LIMITS = ['cpu', 'memory', 'ephemeral-storage'] as const;

const isZero = (q: string | undefined): boolean => q === undefined || parseQuantity(q).nanos === 0n;

/** The container's limits with upstream's defaults from the node's allocatable. */
const mergedLimits = (c: ResourceContainer, node: NodeAllocatable): Record<string, string> => {
  const limits = { ...c.resources?.limits };
  const allocatable: Record<string, string | undefined> = { cpu: node.cpu, memory: node.memory, 'ephemeral-storage': node.ephemeralStorage };
  for (const r of DEFAULTED_LIMITS) if (isZero(limits[r]) && allocatable[r] !== undefined) limits[r] = allocatable[r];
  return limits;
};

const ceilDiv = (a: number, b: number): number => (b <= 0 ? 0 : Math.ceil(a / b));

/** The container a selector names (containers, then init containers), else `fallback` (an env var's own container). */
export const selectedContainer = (pod: KubeObject, ref: ResourceFieldSelector, fallback?: ResourceContainer): ResourceContainer => {
  if (!ref.containerName) {
    if (fallback) return fallback;
    throw new ResourceFieldError('container name is required');
  }
  const all = ['containers', 'initContainers'].flatMap((k) => (pod.spec?.[k] ?? []) as ResourceContainer[]);
  const found = all.find((x) => x.name === ref.containerName);
  if (!found) throw new ResourceFieldError(`container ${ref.containerName} not found`);
  return found;
};

/** The value of `ref` for container `c` on a node with `node` allocatable. */
export const resourceFieldValue = (c: ResourceContainer, ref: ResourceFieldSelector, node: NodeAllocatable): string => {
  const m = /^(limits|requests)\.(.+)$/.exec(ref.resource);
  const res = m?.[2];
  if (!m || !res || !(['cpu', 'memory', 'ephemeral-storage'].includes(res) || res.startsWith('hugepages-'))) {
    throw new ResourceFieldError(`unsupported container resource : ${ref.resource}`);
  }
  const set = m[1] === 'limits' ? mergedLimits(c, node) : c.resources?.requests ?? {};
  const value = parseQuantity(set[res] ?? '0');
  const divisor = parseQuantity(ref.divisor && !isZero(ref.divisor) ? ref.divisor : '1');
  return String(res === 'cpu'
    ? ceilDiv(quantityMilliValue(value), quantityMilliValue(divisor))
    : ceilDiv(quantityValue(value), quantityValue(divisor)));
};
