// NetworkPolicies: upstream's ValidateNetworkPolicySpec (pkg/apis/networking/validation): the selectors valid;
// ingress and egress ports with a TCP, UDP or SCTP protocol, a port number (1-65535) or IANA name, an endPort only
// after a numeric port and not below it; peers naming a pod or namespace selector, or an ipBlock alone, whose cidr
// is valid and whose excepts lie strictly inside it; at most two policyTypes, each Ingress or Egress. An update may
// keep invalid label values when the stored podSelector is invalid; upstream's update validates the spec twice
// (ValidateNetworkPolicy and ValidateNetworkPolicyUpdate), so its errors come twice, as here.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { type LabelSelector, validateLabelSelector } from '../../apimachinery/labels.js';
import type { Strategy } from '../strategy.js';
import { goQuote, invalidRendered } from '../validation/go-values.js';
import { cidrContains, isValidPortName, isValidPortNum, parseCIDR, validateCIDR } from '../validation/network.js';
import { allowingInvalidSelectorValues } from './poddisruptionbudgets.js';
import { asObj } from '../validation/field-checks.js';

type Obj = Record<string, any>;

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const present = (v: unknown): boolean => v !== undefined && v !== null;

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

function validatePort(port: Obj, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (present(port.protocol) && !PROTOCOLS.includes(port.protocol)) causes.push(notSupported(`${path}.protocol`, port.protocol, PROTOCOLS));
  const endPort = port.endPort;
  if (typeof port.port === 'number') {
    for (const m of isValidPortNum(port.port)) causes.push(invalidValue(`${path}.port`, port.port, m));
    if (typeof endPort === 'number') {
      // upstream reports the port here, not the endPort
      if (endPort < port.port) causes.push(invalidValue(`${path}.endPort`, port.port, 'must be greater than or equal to `port`'));
      for (const m of isValidPortNum(endPort)) causes.push(invalidValue(`${path}.endPort`, endPort, m));
    }
  } else if (typeof port.port === 'string') {
    if (present(endPort)) causes.push(invalidValue(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
    for (const m of isValidPortName(port.port)) causes.push(invalidValue(`${path}.port`, port.port, m));
  } else if (present(endPort)) {
    causes.push(invalidValue(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  }
  return causes;
}

function validateIPBlock(block: Obj, path: string): StatusCause[] {
  const cidr = typeof block.cidr === 'string' ? block.cidr : '';
  if (cidr === '') return [required(`${path}.cidr`)];
  const causes = validateCIDR(cidr, `${path}.cidr`);
  const net = parseCIDR(cidr);
  if (!net) return causes;
  arr(block.except).forEach((e, i) => {
    const except = typeof e === 'string' ? e : '';
    const exceptPath = `${path}.except[${i}]`;
    causes.push(...validateCIDR(except, exceptPath));
    const exceptNet = parseCIDR(except);
    if (!exceptNet) return;
    if (!cidrContains(net, exceptNet.ip) || net.bits >= exceptNet.bits) causes.push(invalidValue(exceptPath, except, 'must be a strict subset of `cidr`'));
  });
  return causes;
}

const selector = (v: unknown): LabelSelector | undefined => asObj(v) as LabelSelector | undefined;

function validatePeer(peer: Obj, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  let peers = 0;
  if (present(peer.podSelector)) {
    peers++;
    causes.push(...validateLabelSelector(selector(peer.podSelector), `${path}.podSelector`));
  }
  if (present(peer.namespaceSelector)) {
    peers++;
    causes.push(...validateLabelSelector(selector(peer.namespaceSelector), `${path}.namespaceSelector`));
  }
  const ipBlock = asObj(peer.ipBlock);
  if (ipBlock) {
    peers++;
    causes.push(...validateIPBlock(ipBlock, `${path}.ipBlock`));
  }
  if (peers === 0) causes.push(required(path, 'must specify a peer'));
  else if (peers > 1 && ipBlock) causes.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return causes;
}

export function validateNetworkPolicySpec(obj: KubeObject, allowInvalidLabelValueInSelector = false): StatusCause[] {
  const spec = asObj(obj.spec) ?? {};
  const causes = validateLabelSelector(selector(spec.podSelector), 'spec.podSelector');
  for (const [direction, peersKey] of [['ingress', 'from'], ['egress', 'to']] as const) {
    arr(spec[direction]).forEach((r, i) => {
      const rule = asObj(r) ?? {};
      const rulePath = `spec.${direction}[${i}]`;
      arr(rule.ports).forEach((p, j) => causes.push(...validatePort(asObj(p) ?? {}, `${rulePath}.ports[${j}]`)));
      arr(rule[peersKey]).forEach((p, j) => causes.push(...validatePeer(asObj(p) ?? {}, `${rulePath}.${peersKey}[${j}]`)));
    });
  }
  const policyTypes = arr(spec.policyTypes);
  if (policyTypes.length > POLICY_TYPES.length) {
    causes.push(invalidRendered('spec.policyTypes', `[]networking.PolicyType{${policyTypes.map((t) => goQuote(String(t))).join(', ')}}`,
      'may not specify more than two policyTypes'));
  } else {
    policyTypes.forEach((t, i) => {
      if (!POLICY_TYPES.includes(t as string)) causes.push(notSupported(`spec.policyTypes[${i}]`, t, POLICY_TYPES));
    });
  }
  return allowingInvalidSelectorValues(causes, allowInvalidLabelValueInSelector);
}

export const networkPolicyStrategy: Strategy = {
  validate: (obj) => validateNetworkPolicySpec(obj),
  validateUpdate: (obj, old) => {
    const allow = validateLabelSelector(selector(old.spec?.podSelector), 'spec.podSelector').length > 0;
    const causes = validateNetworkPolicySpec(obj, allow);
    return [...causes, ...causes];
  },
  updateValidationIsComplete: true,
};
