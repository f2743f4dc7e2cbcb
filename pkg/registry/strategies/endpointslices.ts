// EndpointSlices (upstream: pkg/apis/discovery/validation): an addressType of IPv4, IPv6 or FQDN (the deprecated IP
// too on updates, and never changed), at most 1000 endpoints of 1 to 100 addresses valid for the type, endpoint
// hostnames that are DNS labels, and at most 100 ports with distinct DNS-label names, TCP/UDP/SCTP protocols and
// qualified-name appProtocols. The endpoints controller writes slices often: one pass, no copies. (Topology labels
// and nodeName are not checked.)
//
// One deliberate difference: upstream's ValidateNonSpecialIP also refuses loopback addresses. Here the whole cluster
// runs on loopback: the apiserver's `kubernetes` endpoints are 127.0.0.1 for an advertise address of 127.0.0.1, and a
// Service may front a local process (a webhook's, an aggregated API's, a developer's). Loopback is taken; link-local,
// link-local multicast and unspecified addresses are refused as upstream.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';
import { tooMany } from '../validation/go-values.js';
import { isIPSloppy } from '../validation/ip.js';
import { isIPv6String, parseIP, validateNonSpecialIP } from '../validation/network.js';

const CREATE_ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const UPDATE_ADDRESS_TYPES = ['FQDN', 'IP', 'IPv4', 'IPv6'];
export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 100;
export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** validation.IsFullyQualifiedDomainName. */
function checkFQDN(causes: StatusCause[], path: string, value: string): void {
  if (value.length === 0) {
    causes.push(required(path));
    return;
  }
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const errs = isDNS1123Subdomain(name);
  if (errs.length) {
    causes.push(invalidValue(path, name, errs.join(',')));
    return;
  }
  const labels = name.split('.');
  if (labels.length < 2) {
    causes.push(invalidValue(path, name, 'should be a domain with at least two segments separated by dots'));
    return;
  }
  for (const label of labels) {
    const labelErrs = isDNS1123Label(label);
    if (labelErrs.length) {
      causes.push(invalidValue(path, label, labelErrs.join(',')));
      return;
    }
  }
}

/** Upstream's ValidateNonSpecialIP but for loopback (see the header). */
export function checkNonSpecialIP(causes: StatusCause[], path: string, address: string): void {
  causes.push(...validateNonSpecialIP(address, path, true));
}

function checkAddress(causes: StatusCause[], path: string, address: string, type: string): void {
  switch (type) {
    case 'IP':
      if (!isIPSloppy(address)) causes.push(invalidValue(path, address, INVALID_IP));
      break;
    case 'IPv4':
      if (!parseIP(address) || isIPv6String(address)) causes.push(invalidValue(path, address, 'must be a valid IPv4 address'));
      checkNonSpecialIP(causes, path, address);
      break;
    case 'IPv6':
      if (!isIPv6String(address)) causes.push(invalidValue(path, address, 'must be a valid IPv6 address'));
      checkNonSpecialIP(causes, path, address);
      break;
    case 'FQDN':
      checkFQDN(causes, path, address);
      break;
    default: // unknown types are refused by addressType; their addresses are not checked
  }
}

function validateEndpoints(causes: StatusCause[], endpoints: unknown, type: string): void {
  if (!Array.isArray(endpoints)) return;
  if (endpoints.length > MAX_ENDPOINTS) {
    causes.push(tooMany('endpoints', endpoints.length, MAX_ENDPOINTS));
    return;
  }
  for (let i = 0; i < endpoints.length; i++) {
    const ep = endpoints[i] as KubeObject | null;
    if (ep === null || typeof ep !== 'object') continue;
    const addresses: unknown = ep.addresses;
    const count = Array.isArray(addresses) ? addresses.length : 0;
    if (count === 0) causes.push(required(`endpoints[${i}].addresses`, 'must contain at least 1 address'));
    else if (count > MAX_ADDRESSES) causes.push(tooMany(`endpoints[${i}].addresses`, count, MAX_ADDRESSES));
    for (let j = 0; j < count; j++) {
      const address = (addresses as unknown[])[j];
      checkAddress(causes, `endpoints[${i}].addresses[${j}]`, typeof address === 'string' ? address : '', type);
    }
    if (typeof ep.hostname === 'string') {
      for (const m of isDNS1123Label(ep.hostname)) causes.push(invalidValue(`endpoints[${i}].hostname`, ep.hostname, m));
    }
  }
}

function validatePorts(causes: StatusCause[], ports: unknown): void {
  if (!Array.isArray(ports)) return;
  if (ports.length > MAX_PORTS) {
    causes.push(tooMany('ports', ports.length, MAX_PORTS));
    return;
  }
  const names = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    const port = ports[i] as KubeObject | null;
    if (port === null || typeof port !== 'object') continue;
    const name = typeof port.name === 'string' ? port.name : '';
    if (name.length > 0) for (const m of isDNS1123Label(name)) causes.push(invalidValue(`ports[${i}].name`, name, m));
    if (names.has(name)) causes.push(duplicate(`ports[${i}].name`, name));
    else names.add(name);
    const protocol = port.protocol;
    if (protocol === undefined || protocol === null) causes.push(required(`ports[${i}].protocol`));
    else if (!PROTOCOLS.includes(protocol)) causes.push(notSupported(`ports[${i}].protocol`, protocol, PROTOCOLS));
    if (typeof port.appProtocol === 'string') {
      for (const m of isQualifiedName(port.appProtocol)) causes.push(invalidValue(`ports[${i}].appProtocol`, port.appProtocol, m));
    }
  }
}

function validateEndpointSlice(slice: KubeObject, addressTypes: string[]): StatusCause[] {
  const causes: StatusCause[] = [];
  const type = typeof slice.addressType === 'string' ? slice.addressType : '';
  if (type === '') causes.push(required('addressType'));
  else if (!addressTypes.includes(type)) causes.push(notSupported('addressType', type, addressTypes));
  validateEndpoints(causes, slice.endpoints, type);
  validatePorts(causes, slice.ports);
  return causes;
}

export const endpointSliceStrategy: Strategy = {
  validate: (slice) => validateEndpointSlice(slice, CREATE_ADDRESS_TYPES),
  updateValidationIsComplete: true,
  validateUpdate(slice, old) {
    const causes = validateEndpointSlice(slice, UPDATE_ADDRESS_TYPES);
    if (slice.addressType !== old.addressType) causes.push(invalidValue('addressType', slice.addressType ?? '', 'field is immutable'));
    return causes;
  },
};
