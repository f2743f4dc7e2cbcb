// A Service as upstream's ValidateService and ValidateServiceUpdate check it (pkg/apis/core/validation): ports,
// type, session affinity, cluster IPs and IP families, external IPs, load balancer fields and traffic policies.
// It runs before the service's IPs and node ports are allocated (services.ts allocates after validation), so an
// unset clusterIP or nodePort is not an error here; a clusterIP given without clusterIPs counts as
// clusterIPs: [clusterIP], as upstream's normalizeClusterIPs makes it before validating.
//
//   validateService(svc): StatusCause[]
//   validateServiceUpdate(svc, old): StatusCause[]
import type { KubeObject } from '../../../api/types.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { validateLabels } from '../../apimachinery/objectmeta.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../apimachinery/names.js';
import { goQuote, goStringSlice, invalidRendered } from './go-values.js';
import { isIPv6String, isValidPortName, isValidPortNum, validateCIDR, validateIP, validateNonSpecialIP } from './network.js';
import { asObj } from './field-checks.js';

type Obj = Record<string, any>;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((s) => (typeof s === 'string' ? s : '')) : []);
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** sets.List order, as upstream lists supported values. */
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const AFFINITIES = ['ClientIP', 'None'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints';
const SOURCE_RANGES = 'service.beta.kubernetes.io/load-balancer-source-ranges';

/** The clusterIPs the service will have: the plural field, else the singular one (upstream's normalizeClusterIPs). */
export function clusterIPsOf(spec: Obj): string[] {
  const plural = strings(spec.clusterIPs);
  if (plural.length > 0) return plural;
  return typeof spec.clusterIP === 'string' && spec.clusterIP !== '' ? [spec.clusterIP] : [];
}

const isHeadless = (spec: Obj): boolean => {
  const ips = clusterIPsOf(spec);
  return ips.length === 1 && ips[0] === 'None';
};

const externallyAccessible = (spec: Obj): boolean =>
  spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && strings(spec.externalIPs).length > 0);

const needsHealthCheck = (spec: Obj): boolean => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

/** %#v of the core.ServicePort upstream uses as a duplicate key: only protocol and port set. */
const goPortKey = (protocol: string, port: number): string =>
  `core.ServicePort{Name:"", Protocol:${goQuote(protocol)}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;

function validateServicePort(p: Obj, requireName: boolean, names: Set<string>, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = typeof p.name === 'string' ? p.name : '';
  if (requireName && name === '') causes.push(required(`${path}.name`));
  else if (name !== '') {
    causes.push(...isDNS1123Label(name).map((m) => invalidValue(`${path}.name`, name, m)));
    if (names.has(name)) causes.push(duplicate(`${path}.name`, name));
    else names.add(name);
  }
  // a missing port is Go's zero (port has no omitempty), refused by the range check as upstream words it
  const port = typeof p.port === 'number' ? p.port : 0;
  causes.push(...isValidPortNum(port).map((m) => invalidValue(`${path}.port`, port, m)));
  const protocol = p.protocol ?? '';
  if (protocol === '') causes.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(protocol)) causes.push(notSupported(`${path}.protocol`, protocol, PROTOCOLS));
  const target = p.targetPort;
  if (typeof target === 'number') causes.push(...isValidPortNum(target).map((m) => invalidValue(`${path}.targetPort`, target, m)));
  else if (typeof target === 'string') causes.push(...isValidPortName(target).map((m) => invalidValue(`${path}.targetPort`, target, m)));
  if (typeof p.appProtocol === 'string') {
    causes.push(...isQualifiedName(p.appProtocol).map((m) => invalidValue(`${path}.appProtocol`, p.appProtocol, m)));
  }
  return causes;
}

function validateClientIPAffinityConfig(config: Obj | undefined, path: string): StatusCause[] {
  const detail = 'when session affinity type is ClientIP';
  if (!config) return [required(path, detail)];
  const clientIP = asObj(config.clientIP);
  if (!clientIP) return [required(`${path}.clientIP`, detail)];
  const timeout = clientIP.timeoutSeconds;
  if (!isSet(timeout)) return [required(`${path}.clientIP.timeoutSeconds`, detail)];
  if (typeof timeout === 'number' && (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS)) {
    return [invalidValue(`${path}.clientIP.timeoutSeconds`, timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`)];
  }
  return [];
}

/** Upstream's ValidateServiceClusterIPsRelatedFields (also run, alone, before allocation). */
export function validateClusterIPsRelatedFields(spec: Obj): StatusCause[] {
  if (spec.type === 'ExternalName') return [];
  const causes: StatusCause[] = [];
  const ips = clusterIPsOf(spec);
  const clusterIP = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
  if (clusterIP !== '') {
    if (ips.length === 0) causes.push(required('spec.clusterIPs'));
    else if (ips[0] !== clusterIP) causes.push(invalidRendered('spec.clusterIPs', goStringSlice(ips), 'first value must match `clusterIP`'));
  } else if (ips.length > 0) {
    causes.push(invalidRendered('spec.clusterIPs', goStringSlice(ips), 'must be empty when `clusterIP` is not specified'));
  }
  const families = strings(spec.ipFamilies);
  const seen = new Set<string>();
  families.forEach((f, i) => {
    if (!IP_FAMILIES.includes(f)) causes.push(notSupported(`spec.ipFamilies[${i}]`, f, IP_FAMILIES));
    if (seen.has(f)) causes.push(duplicate(`spec.ipFamilies[${i}]`, f));
    seen.add(f);
  });
  if (isSet(spec.ipFamilyPolicy) && !IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) {
    causes.push(notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  }
  let hasInvalid = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        hasInvalid = true;
        causes.push(invalidRendered('spec.clusterIPs', goStringSlice(ips), "'None' must be the first and only value"));
      }
      return;
    }
    const errs = validateIP(ip, `spec.clusterIPs[${i}]`);
    if (errs.length) hasInvalid = true;
    causes.push(...errs);
  });
  if (ips.length > 2) causes.push(invalidRendered('spec.clusterIPs', goStringSlice(ips), 'may only hold up to 2 values'));
  if (hasInvalid) return causes;
  if (ips.length > 1 && !(ips.length === 2 && isIPv6String(ips[0]!) !== isIPv6String(ips[1]!))) {
    causes.push(invalidRendered('spec.clusterIPs', goStringSlice(ips), 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(spec) && ips.length > 0 && families.length > 0) {
    ips.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6String(ip)) causes.push(invalidValue(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !isIPv6String(ip)) causes.push(invalidValue(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return causes;
}

function validateLoadBalancerClass(spec: Obj, oldSpec?: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const cls = spec.loadBalancerClass;
  if (oldSpec && oldSpec.type === 'LoadBalancer' && spec.type === 'LoadBalancer' && (oldSpec.loadBalancerClass ?? null) !== (cls ?? null)) {
    causes.push(invalidValue('spec.loadBalancerClass', cls ?? null, 'may not change once set'));
  }
  if (spec.type === 'LoadBalancer') {
    if (typeof cls === 'string') causes.push(...isQualifiedName(cls).map((m) => invalidValue('spec.loadBalancerClass', cls, m)));
  } else if (isSet(cls)) {
    causes.push(forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  return causes;
}

function validateSpec(svc: KubeObject, spec: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const annotations = asObj(svc.metadata?.annotations) ?? {};
  const mode = annotations[TOPOLOGY_MODE];
  const hints = annotations[TOPOLOGY_HINTS];
  if (typeof mode === 'string' && typeof hints === 'string' && mode !== hints) {
    causes.push(invalidValue(`metadata.annotations[${TOPOLOGY_MODE}]`, mode, `must match annotations[${TOPOLOGY_HINTS}] when both are specified`));
  }
  const ports: unknown[] = Array.isArray(spec.ports) ? spec.ports : [];
  const headless = isHeadless(spec);
  const type = spec.type ?? '';
  if (ports.length === 0 && !headless && type !== 'ExternalName') causes.push(required('spec.ports'));
  const ips = clusterIPsOf(spec);
  if (type === 'LoadBalancer' && headless) causes.push(invalidValue('spec.clusterIPs[0]', ips[0], "may not be set to 'None' for LoadBalancer services"));
  if (type === 'NodePort' && headless) causes.push(invalidValue('spec.clusterIPs[0]', ips[0], "may not be set to 'None' for NodePort services"));
  if (type === 'ExternalName') {
    if (ips.length > 0) causes.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (strings(spec.ipFamilies).length > 0) causes.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (isSet(spec.ipFamilyPolicy)) causes.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    // the name (a CNAME) may end in a dot
    const cname = (typeof spec.externalName === 'string' ? spec.externalName : '').replace(/\.$/, '');
    if (cname.length > 0) causes.push(...isDNS1123Subdomain(cname).map((m) => invalidValue('spec.externalName', cname, m)));
    else causes.push(required('spec.externalName'));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => causes.push(...validateServicePort(asObj(p) ?? {}, ports.length > 1, names, `spec.ports[${i}]`)));
  if (asObj(spec.selector)) causes.push(...validateLabels(spec.selector, 'spec.selector'));
  const affinity = spec.sessionAffinity ?? '';
  if (affinity === '') causes.push(required('spec.sessionAffinity'));
  else if (!AFFINITIES.includes(affinity)) causes.push(notSupported('spec.sessionAffinity', affinity, AFFINITIES));
  if (affinity === 'ClientIP') causes.push(...validateClientIPAffinityConfig(asObj(spec.sessionAffinityConfig), 'spec.sessionAffinityConfig'));
  else if (affinity === 'None' && isSet(spec.sessionAffinityConfig)) {
    causes.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  causes.push(...validateClusterIPsRelatedFields(spec));
  strings(spec.externalIPs).forEach((ip, i) => {
    const errs = validateIP(ip, `spec.externalIPs[${i}]`);
    causes.push(...(errs.length ? errs : validateNonSpecialIP(ip, `spec.externalIPs[${i}]`)));
  });
  if (type === '') causes.push(required('spec.type'));
  else if (!SERVICE_TYPES.includes(type)) causes.push(notSupported('spec.type', type, SERVICE_TYPES));
  const portObjs = ports.map((p) => asObj(p) ?? {});
  if (type === 'ClusterIP') {
    portObjs.forEach((p, i) => {
      if (typeof p.nodePort === 'number' && p.nodePort !== 0) causes.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  portObjs.forEach((p, i) => {
    if (typeof p.nodePort !== 'number' || p.nodePort === 0) return;
    const key = `${p.protocol ?? ''}/${p.nodePort}`;
    if (nodePorts.has(key)) causes.push(duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
    nodePorts.add(key);
  });
  const seenPorts = new Set<string>();
  portObjs.forEach((p, i) => {
    const port = typeof p.port === 'number' ? p.port : 0;
    const protocol = String(p.protocol ?? '');
    const key = `${protocol}/${port}`;
    if (seenPorts.has(key)) causes.push(invalidDuplicate(`spec.ports[${i}]`, goPortKey(protocol, port)));
    seenPorts.add(key);
  });
  const ranges = strings(spec.loadBalancerSourceRanges);
  if (ranges.length > 0) {
    // upstream's path spells the field with a capital L
    const path = 'spec.LoadBalancerSourceRanges';
    if (type !== 'LoadBalancer') causes.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => causes.push(...validateCIDR(r.trim(), `${path}[${i}]`)));
  } else if (typeof annotations[SOURCE_RANGES] === 'string') {
    const path = `metadata.annotations[${SOURCE_RANGES}]`;
    if (type !== 'LoadBalancer') causes.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const value = (annotations[SOURCE_RANGES] as string).trim();
    if (value !== '') for (const r of value.split(',')) causes.push(...validateCIDR(r.trim(), path));
  }
  if (isSet(spec.allocateLoadBalancerNodePorts) && type !== 'LoadBalancer') {
    causes.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  // upstream's path leaves out "spec."
  if (type === 'LoadBalancer' && !isSet(spec.allocateLoadBalancerNodePorts)) causes.push(required('allocateLoadBalancerNodePorts'));
  return causes;
}


/** field.Duplicate with a value already rendered. */
const invalidDuplicate = (path: string, rendered: string): StatusCause => fieldCause('FieldValueDuplicate', path, `Duplicate value: ${rendered}`);

function validateTrafficPolicies(spec: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  const external = spec.externalTrafficPolicy ?? '';
  if (!externallyAccessible(spec)) {
    if (external !== '') causes.push(invalidValue('spec.externalTrafficPolicy', external, 'may only be set for externally-accessible services'));
  } else if (external === '') {
    causes.push(required('spec.externalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(external)) {
    causes.push(notSupported('spec.externalTrafficPolicy', external, TRAFFIC_POLICIES));
  }
  // a LoadBalancer service with the Local policy gets its health check port allocated, which this server does not
  // do: a missing one is not refused
  const hc = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
  if (!needsHealthCheck(spec)) {
    if (hc !== 0) causes.push(invalidValue('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc !== 0) {
    causes.push(...isValidPortNum(hc).map((m) => invalidValue('spec.healthCheckNodePort', hc, m)));
  }
  const internal = spec.internalTrafficPolicy;
  if (!isSet(internal)) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') causes.push(required('spec.internalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(internal)) {
    causes.push(notSupported('spec.internalTrafficPolicy', internal, TRAFFIC_POLICIES));
  }
  if (isSet(spec.trafficDistribution) && spec.trafficDistribution !== 'PreferClose') {
    causes.push(notSupported('spec.trafficDistribution', spec.trafficDistribution, ['PreferClose']));
  }
  return causes;
}

export function validateService(svc: KubeObject, oldSpec?: Obj): StatusCause[] {
  const spec = asObj(svc.spec) ?? {};
  // upstream's allocator validates these alone first, and stops there when they are wrong
  const ipCauses = validateClusterIPsRelatedFields(spec);
  if (ipCauses.length > 0) return ipCauses;
  return [...validateSpec(svc, spec), ...validateLoadBalancerClass(spec, oldSpec), ...validateTrafficPolicies(spec)];
}

function validateUpgradeDowngradeClusterIPs(spec: Obj, oldSpec: Obj): StatusCause[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(oldSpec)) return [];
  const ips = clusterIPsOf(spec);
  const oldIps = clusterIPsOf(oldSpec);
  const rendered = goStringSlice(ips.length ? ips : undefined);
  const causes: StatusCause[] = [];
  if (oldIps.length === ips.length) {
    oldIps.forEach((ip, i) => {
      if (ip !== ips[i]) causes.push(invalidRendered(`spec.clusterIPs[${i}]`, rendered, 'may not change once set'));
    });
  } else if (oldIps.length > ips.length) {
    if (ips.length === 0) causes.push(invalidRendered('spec.clusterIPs[0]', rendered, 'primary clusterIP can not be unset'));
    if (oldIps.length > 0 && ips.length > 0 && ips[0] !== oldIps[0]) causes.push(invalidRendered('spec.clusterIPs[0]', rendered, 'may not change once set'));
    if (ips.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      causes.push(invalidValue('spec.ipFamilyPolicy', spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (oldIps.length > 0 && ips[0] !== oldIps[0]) {
    causes.push(invalidRendered('spec.clusterIPs[0]', rendered, 'may not change once set'));
  }
  return causes;
}

function validateUpgradeDowngradeIPFamilies(spec: Obj, oldSpec: Obj): StatusCause[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  if (isHeadless(spec) !== isHeadless(oldSpec) || isHeadless(spec)) return [];
  const families = strings(spec.ipFamilies);
  const oldFamilies = strings(oldSpec.ipFamilies);
  const renderedFamilies = `[]core.IPFamily{${families.map(goQuote).join(', ')}}`;
  const renderedIps = goStringSlice(clusterIPsOf(spec).length ? clusterIPsOf(spec) : undefined);
  const causes: StatusCause[] = [];
  if (oldFamilies.length === families.length) {
    oldFamilies.forEach((f, i) => {
      if (f !== families[i]) causes.push(invalidRendered('spec.ipFamilies[0]', renderedFamilies, 'may not change once set'));
    });
  } else if (oldFamilies.length > families.length) {
    if (clusterIPsOf(spec).length === 0) causes.push(invalidRendered('spec.ipFamilies[0]', renderedFamilies, 'primary ipFamily can not be unset'));
    if (families.length > 0 && families[0] !== oldFamilies[0]) causes.push(invalidRendered('spec.ipFamilies[0]', renderedIps, 'may not change once set'));
    if (families.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      causes.push(invalidValue('spec.ipFamilyPolicy', spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0]) {
    causes.push(invalidRendered('spec.ipFamilies[0]', renderedIps, 'may not change once set'));
  }
  return causes;
}

export function validateServiceUpdate(svc: KubeObject, old: KubeObject): StatusCause[] {
  const spec = asObj(svc.spec) ?? {};
  const oldSpec = asObj(old.spec) ?? {};
  const ipCauses = validateClusterIPsRelatedFields(spec);
  if (ipCauses.length > 0) return ipCauses;
  const causes = [...validateUpgradeDowngradeClusterIPs(spec, oldSpec), ...validateUpgradeDowngradeIPFamilies(spec, oldSpec)];
  if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && (spec.healthCheckNodePort ?? 0) !== (oldSpec.healthCheckNodePort ?? 0)) {
    causes.push(forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  causes.push(...validateService(svc, oldSpec));
  return causes;
}
