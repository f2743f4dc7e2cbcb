// Downward API selectors (a fieldRef naming a pod field, a resourceFieldRef naming a container resource), as
// upstream's validateObjectFieldSelector and validateContainerResourceFieldSelector check them. Used by downwardAPI
// volumes (and projections); env valueFrom takes the same selectors with its own set of pod fields.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { canonicalQuantity, parseQuantity } from '../../apimachinery/quantity.js';
import { checkQualifiedName, str } from './field-checks.js';

/** The pod fields a downwardAPI volume may expose (validVolumeDownwardAPIFieldPathExpressions). */
export const VOLUME_FIELD_PATHS: ReadonlySet<string> = new Set(['metadata.name', 'metadata.namespace', 'metadata.labels', 'metadata.annotations', 'metadata.uid']);

/** validContainerResourceFieldPathExpressions. */
export const CONTAINER_RESOURCE_FIELD_PATHS: ReadonlySet<string> = new Set([
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
]);
const HUGEPAGES_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];

/** The pod fields ConvertDownwardAPIFieldLabel knows for v1 (spec.host is the old name of spec.nodeName). */
const CONVERTIBLE = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid',
  'spec.nodeName', 'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName',
  'status.phase', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
]);

const sorted = (s: ReadonlySet<string>): string[] => [...s].sort();

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['app']` -> ['metadata.labels', 'app']. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

/** validateObjectFieldSelector: `fs` at `path` (…fieldRef) naming one of `expressions`. */
export function checkObjectFieldSelector(causes: StatusCause[], fs: KubeObject, expressions: ReadonlySet<string>, path: string): void {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (!apiVersion) {
    causes.push(required(`${path}.apiVersion`));
    return;
  }
  if (!fieldPath) {
    causes.push(required(`${path}.fieldPath`));
    return;
  }
  // ConvertDownwardAPIFieldLabel
  let internal = fieldPath;
  let failure: string | undefined;
  const sub = splitSubscript(fieldPath);
  if (apiVersion !== 'v1') failure = `unsupported pod version: ${apiVersion}`;
  else if (sub) {
    if (sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') failure = `field label does not support subscript: ${fieldPath}`;
  } else if (fieldPath === 'spec.host') internal = 'spec.nodeName';
  else if (!CONVERTIBLE.has(fieldPath)) failure = `field label not supported: ${fieldPath}`;
  if (failure) {
    causes.push(invalidValue(`${path}.fieldPath`, fieldPath, `error converting fieldPath: ${failure}`));
    return;
  }
  if (sub) {
    // annotation keys are matched case-insensitively
    checkQualifiedName(causes, path, sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1]);
  } else if (!expressions.has(internal)) {
    causes.push(notSupported(`${path}.fieldPath`, internal, sorted(expressions)));
  }
}

const DIVISORS_CPU = new Set(['1m', '1']);
const DIVISORS_BYTES = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const BYTES_LIST = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

/** validateContainerResourceDivisor. */
function checkDivisor(causes: StatusCause[], resource: string, divisor: unknown, path: string): void {
  if (typeof divisor !== 'string' && typeof divisor !== 'number') return;
  let canonical: string;
  try {
    const q = parseQuantity(String(divisor));
    if (q.nanos === 0n) return;
    canonical = canonicalQuantity(String(divisor));
  } catch {
    return; // the decoder refuses a malformed quantity
  }
  const at = `${path}.divisor`;
  switch (resource) {
    case 'limits.cpu': case 'requests.cpu':
      if (!DIVISORS_CPU.has(canonical)) causes.push(invalidValue(at, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
      break;
    case 'limits.memory': case 'requests.memory':
      if (!DIVISORS_BYTES.has(canonical)) causes.push(invalidValue(at, resource, `only divisor's values ${BYTES_LIST} are supported with the memory resource`));
      break;
    case 'limits.ephemeral-storage': case 'requests.ephemeral-storage':
      if (!DIVISORS_BYTES.has(canonical)) causes.push(invalidValue(at, resource, `only divisor's values ${BYTES_LIST} are supported with the local ephemeral storage resource`));
      break;
  }
  if (HUGEPAGES_PREFIXES.some((p) => resource.startsWith(p)) && !DIVISORS_BYTES.has(canonical)) {
    causes.push(invalidValue(at, resource, `only divisor's values ${BYTES_LIST} are supported with the hugepages resource`));
  }
}

/**
 * validateContainerResourceFieldSelector with the downward API's hugepages prefixes: `fs` at `path`
 * (…resourceFieldRef); `volume`: a volume file must name its container.
 */
export function checkResourceFieldSelector(causes: StatusCause[], fs: KubeObject, path: string, volume: boolean): void {
  const resource = str(fs.resource);
  if (volume && !str(fs.containerName)) causes.push(required(`${path}.containerName`));
  else if (!resource) causes.push(required(`${path}.resource`));
  else if (!CONTAINER_RESOURCE_FIELD_PATHS.has(resource) && !HUGEPAGES_PREFIXES.some((p) => resource.startsWith(p))) {
    causes.push(notSupported(`${path}.resource`, resource, sorted(CONTAINER_RESOURCE_FIELD_PATHS)));
  }
  checkDivisor(causes, resource, fs.divisor, path);
}
