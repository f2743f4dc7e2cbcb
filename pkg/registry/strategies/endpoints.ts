// Endpoints (upstream: ValidateEndpoints in pkg/apis/core/validation): each subset has addresses or notReadyAddresses,
// each address a valid IP (not link-local or unspecified; loopback taken, as for EndpointSlices: see endpointslices.ts), a DNS-label hostname and a node name; each port a DNS-label name (required
// when the subset has several), a number 1-65535, a TCP/UDP/SCTP protocol and a qualified-name appProtocol.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';
import { isObj } from '../validation/field-checks.js';
import { isIPSloppy } from '../validation/ip.js';
import { isValidPortNum } from '../validation/network.js';
import { checkNonSpecialIP, INVALID_IP, PROTOCOLS } from './endpointslices.js';

function validateAddress(causes: StatusCause[], a: KubeObject, path: string): void {
  const ip = typeof a.ip === 'string' ? a.ip : '';
  if (!isIPSloppy(ip)) causes.push(invalidValue(`${path}.ip`, ip, INVALID_IP));
  if (typeof a.hostname === 'string' && a.hostname) {
    for (const m of isDNS1123Label(a.hostname)) causes.push(invalidValue(`${path}.hostname`, a.hostname, m));
  }
  if (typeof a.nodeName === 'string') for (const m of isDNS1123Subdomain(a.nodeName)) causes.push(invalidValue(`${path}.nodeName`, a.nodeName, m));
  checkNonSpecialIP(causes, `${path}.ip`, ip);
}

function validatePort(causes: StatusCause[], p: KubeObject, requireName: boolean, path: string): void {
  const name = typeof p.name === 'string' ? p.name : '';
  if (requireName && !name) causes.push(required(`${path}.name`));
  else if (name) for (const m of isDNS1123Label(name)) causes.push(invalidValue(`${path}.name`, name, m));
  const port = typeof p.port === 'number' ? p.port : 0;
  for (const m of isValidPortNum(port)) causes.push(invalidValue(`${path}.port`, port, m));
  if (!p.protocol) causes.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(p.protocol)) causes.push(notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  if (typeof p.appProtocol === 'string') for (const m of isQualifiedName(p.appProtocol)) causes.push(invalidValue(`${path}.appProtocol`, p.appProtocol, m));
}

function validateEndpoints(ep: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!Array.isArray(ep.subsets)) return causes;
  ep.subsets.forEach((ss: unknown, i: number) => {
    if (!isObj(ss)) return;
    const at = `subsets[${i}]`;
    const addresses = Array.isArray(ss.addresses) ? ss.addresses : [];
    const notReady = Array.isArray(ss.notReadyAddresses) ? ss.notReadyAddresses : [];
    if (!addresses.length && !notReady.length) causes.push(required(at, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a: unknown, j: number) => { if (isObj(a)) validateAddress(causes, a, `${at}.addresses[${j}]`); });
    notReady.forEach((a: unknown, j: number) => { if (isObj(a)) validateAddress(causes, a, `${at}.notReadyAddresses[${j}]`); });
    const ports = Array.isArray(ss.ports) ? ss.ports : [];
    ports.forEach((p: unknown, j: number) => { if (isObj(p)) validatePort(causes, p, ports.length > 1, `${at}.ports[${j}]`); });
  });
  return causes;
}

export const endpointsStrategy: Strategy = { validate: (ep) => validateEndpoints(ep) };
