// The node's podCIDR for pods: which addresses a pod may get, and the gateway (the first one).
import { cidrSize, intToIp, parseIpv4Cidr, type Ipv4Cidr } from '../../apimachinery/ipv4.js';

export { contains, intToIp, ipToInt, type Ipv4Cidr } from '../../apimachinery/ipv4.js';

/** Parses "10.244.1.0/24"; host bits must be zero, and the range must leave room for a gateway and a pod. */
export const parseCidr = (text: string): Ipv4Cidr => {
  const c = parseIpv4Cidr(text, true);
  if (c.prefix > 30) throw new Error(`CIDR ${text} is too small for pods (at most /30)`);
  return c;
};

/** The bridge's address: the first host of the range (as CNI's bridge plugin with isGateway). */
export const gatewayOf = (c: Ipv4Cidr): string => intToIp(c.network + 1);

/** Addresses pods may get: after the gateway, before the broadcast address. */
export const podRange = (c: Ipv4Cidr): { first: number; last: number } =>
  ({ first: c.network + 2, last: c.network + cidrSize(c.prefix) - 2 });
