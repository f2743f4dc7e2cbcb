// The warnings upstream 1.32 gives on a Service's create and update (pkg/api/service/warnings.go): a deprecated
// annotation, addresses its validation takes but net/netip would not, and fields its type ignores.
import type { KubeObject } from '../../../api/types.js';
import { list, str } from '../validation/field-checks.js';
import { goQuote } from '../validation/go-values.js';
import { cidrWarnings, ipWarnings } from '../validation/netip.js';

const TOPOLOGY_AWARE_HINTS = 'service.kubernetes.io/topology-aware-hints';
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';

export function serviceWarnings(svc: KubeObject): string[] {
  const spec = (svc.spec ?? {}) as Record<string, unknown>;
  const warnings: string[] = [];
  if (svc.metadata?.annotations?.[TOPOLOGY_AWARE_HINTS] !== undefined) {
    warnings.push(`annotation ${TOPOLOGY_AWARE_HINTS} is deprecated, please use ${TOPOLOGY_MODE} instead`);
  }
  const clusterIP = str(spec.clusterIP);
  if (clusterIP && clusterIP !== 'None') list(spec.clusterIPs).forEach((ip, i) => warnings.push(...ipWarnings(`spec.clusterIPs[${i}]`, str(ip))));
  const externalIPs = list(spec.externalIPs);
  externalIPs.forEach((ip, i) => warnings.push(...ipWarnings(`spec.externalIPs[${i}]`, str(ip))));
  const loadBalancerIP = str(spec.loadBalancerIP);
  if (loadBalancerIP) warnings.push(...ipWarnings('spec.loadBalancerIP', loadBalancerIP));
  list(spec.loadBalancerSourceRanges).forEach((cidr, i) => warnings.push(...cidrWarnings(`spec.loadBalancerSourceRanges[${i}]`, str(cidr))));
  if (spec.type === 'ExternalName' && externalIPs.length > 0) warnings.push(`spec.externalIPs is ignored when spec.type is ${goQuote('ExternalName')}`);
  if (spec.type !== 'ExternalName' && str(spec.externalName) !== '') warnings.push(`spec.externalName is ignored when spec.type is not ${goQuote('ExternalName')}`);
  return warnings;
}
