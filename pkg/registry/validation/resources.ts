// A container's compute resources, as upstream's ValidateContainerResourceRequirements (validateResourceRequirements
// with validateContainerResourceName), ValidateResourceQuantityValue and the hugepage rules check them. Quantities are
// shown as Go's Quantity.String() shows them: in canonical form. Claims are DynamicResourceAllocation's, off in 1.32
// (where upstream drops them before validation): not checked.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, required } from '../../apimachinery/field.js';
import { isQualifiedName } from '../../apimachinery/names.js';
import { compareQuantity, formatQuantity, parseQuantity, type Quantity } from '../../apimachinery/quantity.js';
import { invalidRaw, isObj } from './field-checks.js';
import { goQuantity } from './go-values.js';

const HUGEPAGES_PREFIX = 'hugepages-';
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const INTEGER_RESOURCES = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);
const NANO = 1_000_000_000n;
const MILLI_NANOS = 1_000_000n;

export const isHugePageResourceName = (name: string): boolean => name.startsWith(HUGEPAGES_PREFIX);

/** In the kubernetes.io namespace: unprefixed, or prefixed with something ending in kubernetes.io/. */
export const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');

/** Native and not hugepages: a request may be below its limit. */
export const isOvercommitAllowed = (name: string): boolean => isNativeResource(name) && !isHugePageResourceName(name);

export const isExtendedResourceName = (name: string): boolean =>
  !isNativeResource(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;

export const isStandardResourceName = (name: string): boolean =>
  STANDARD_RESOURCES.has(name) || name.startsWith(HUGEPAGES_PREFIX) || name.startsWith(`requests.${HUGEPAGES_PREFIX}`);

export const isIntegerResourceName = (name: string): boolean => INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);

/** A quantity as decoded (a string, or a JSON number), or undefined if it is not one (the decoder refuses those). */
export const quantityOf = (raw: unknown): Quantity | undefined => {
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  try {
    return parseQuantity(String(raw)); // which remembers what it parsed
  } catch {
    return undefined;
  }
};

/** value / unit, rounded away from zero (Quantity.Value() and MilliValue()). */
const scaledUp = (nanos: bigint, unit: bigint): bigint => {
  const q = nanos / unit;
  if (q * unit === nanos) return q;
  return nanos < 0n ? q - 1n : q + 1n;
};

/**
 * A ResourceName value in an error: Go's core.ResourceName has a String() method, so upstream's field error prints it
 * bare, not quoted. Likewise a resource.Quantity passed whole prints its String().
 */
const invalidBare = invalidRaw;

/** validateResourceName: a qualified name, and a standard resource when unprefixed. Whether it passed. */
export function validateResourceName(name: string, path: string, out: StatusCause[]): boolean {
  const msgs = isQualifiedName(name);
  for (const m of msgs) out.push(invalidBare(path, name, m));
  if (msgs.length) return false;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    out.push(invalidBare(path, name, 'must be a standard resource type or fully qualified'));
    return false;
  }
  return true;
}

/** validateContainerResourceName: a standard container resource (cpu, memory, ephemeral-storage, hugepages-*), or a
 * qualified name outside kubernetes.io that makes an extended resource. */
export function validateContainerResourceName(name: string, path: string, out: StatusCause[]): void {
  const msgs = isQualifiedName(name);
  for (const m of msgs) out.push(invalidBare(path, name, m));
  const unprefixed = !name.includes('/');
  if (msgs.length === 0 && unprefixed && !isStandardResourceName(name)) {
    out.push(invalidBare(path, name, 'must be a standard resource type or fully qualified'));
  }
  if (unprefixed) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePageResourceName(name)) out.push(invalidBare(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    out.push(invalidBare(path, name, "doesn't follow extended resource name standard"));
  }
}

/**
 * ValidateResourceQuantityValue: not negative, and whole for integer (extended) resources. `raw` is the quantity as
 * sent: upstream quotes it as Go's %#v of a resource.Quantity in the "must be an integer" error.
 */
export function validateResourceQuantityValue(name: string, q: Quantity, raw: unknown, path: string, out: StatusCause[]): void {
  if (q.nanos < 0n) out.push(invalidValue(path, formatQuantity(q), 'must be greater than or equal to 0'));
  if (isIntegerResourceName(name) && scaledUp(q.nanos, MILLI_NANOS) % 1000n !== 0n) out.push(invalidBare(path, goQuantity(raw), 'must be an integer'));
}

/** IsHugePageResourceValueDivisible: a whole number of pages of the size the name gives. */
const isHugePageValueDivisible = (name: string, q: Quantity): boolean => {
  const pageSize = quantityOf(name.slice(HUGEPAGES_PREFIX.length));
  if (!pageSize || pageSize.nanos <= 0n || scaledUp(pageSize.nanos, MILLI_NANOS) % 1000n !== 0n) return false;
  return scaledUp(q.nanos, NANO) % scaledUp(pageSize.nanos, NANO) === 0n;
};

function validateHugePageValue(name: string, q: Quantity, path: string, out: StatusCause[]): void {
  if (isHugePageValueDivisible(name, q)) return;
  const shown = formatQuantity(q);
  out.push(invalidValue(path, shown, `${shown} is not positive integer multiple of ${name}`));
}

/**
 * `resources` of a container at `path` (".../resources"): resource names, quantities, each request within its limit
 * (equal to it for resources that cannot be overcommitted, which need a limit), and hugepages only next to cpu or
 * memory. Also what upstream checks a pod's `overhead` with, as `{limits: overhead}`.
 */
export function validateContainerResources(resources: unknown, path: string, out: StatusCause[]): void {
  if (!isObj(resources)) return;
  const limits: KubeObject | undefined = isObj(resources.limits) ? resources.limits : undefined;
  const requests: KubeObject | undefined = isObj(resources.requests) ? resources.requests : undefined;
  if (!limits && !requests) return;
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  let cpuOrMemory = false;
  let hugePages = false;
  if (limits) {
    for (const name of Object.keys(limits)) {
      const at = `${limPath}[${name}]`;
      validateContainerResourceName(name, at, out);
      const q = quantityOf(limits[name]);
      if (q) validateResourceQuantityValue(name, q, limits[name], at, out);
      if (isHugePageResourceName(name)) {
        hugePages = true;
        if (q) validateHugePageValue(name, q, at, out);
      }
      if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    }
  }
  if (requests) {
    for (const name of Object.keys(requests)) {
      const at = `${reqPath}[${name}]`;
      validateContainerResourceName(name, at, out);
      const q = quantityOf(requests[name]);
      if (q) validateResourceQuantityValue(name, q, requests[name], at, out);
      if (limits && Object.hasOwn(limits, name)) {
        const limit = quantityOf(limits[name]);
        if (q && limit) {
          const cmp = compareQuantity(q, limit);
          if (cmp !== 0 && !isOvercommitAllowed(name)) {
            out.push(invalidValue(reqPath, formatQuantity(q), `must be equal to ${name} limit of ${formatQuantity(limit)}`));
          } else if (cmp > 0) {
            out.push(invalidValue(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`));
          }
        }
      } else if (!isOvercommitAllowed(name)) {
        out.push(required(limPath, 'Limit must be set for non overcommitable resources'));
      }
      if (isHugePageResourceName(name)) {
        hugePages = true;
        if (q) validateHugePageValue(name, q, at, out);
      }
      if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    }
  }
  if (hugePages && !cpuOrMemory) out.push(forbidden(path, 'HugePages require cpu or memory'));
}
