// IPv4 CIDR arithmetic for the node's podCIDR: which addresses a pod may get, and the gateway (the first one).

export interface Ipv4Cidr {
  /** The network address as an unsigned 32-bit number. */
  network: number;
  prefix: number;
}

export const ipToInt = (ip: string): number => {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) throw new Error(`"${ip}" is not an IPv4 address`);
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
};

export const intToIp = (n: number): string => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** Parses "10.244.1.0/24"; host bits must be zero, and the range must leave room for a gateway and a pod. */
export const parseCidr = (text: string): Ipv4Cidr => {
  const m = /^([^/]+)\/(\d{1,2})$/.exec(text.trim());
  if (!m) throw new Error(`invalid CIDR address: ${text}`);
  const prefix = Number(m[2]);
  const addr = ipToInt(m[1]!);
  if (prefix > 30) throw new Error(`CIDR ${text} is too small for pods (at most /30)`);
  const size = 2 ** (32 - prefix);
  if (addr % size !== 0) throw new Error(`invalid CIDR address: ${text} (host bits set)`);
  return { network: addr, prefix };
};

export const formatCidr = (c: Ipv4Cidr): string => `${intToIp(c.network)}/${c.prefix}`;

/** The bridge's address: the first host of the range (as CNI's bridge plugin with isGateway). */
export const gatewayOf = (c: Ipv4Cidr): string => intToIp(c.network + 1);

/** Addresses pods may get: after the gateway, before the broadcast address. */
export const podRange = (c: Ipv4Cidr): { first: number; last: number } =>
  ({ first: c.network + 2, last: c.network + 2 ** (32 - c.prefix) - 2 });

export const contains = (c: Ipv4Cidr, ip: number): boolean => ip >= c.network && ip < c.network + 2 ** (32 - c.prefix);
