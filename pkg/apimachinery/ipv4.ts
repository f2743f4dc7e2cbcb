// IPv4 addresses and CIDRs as unsigned 32-bit numbers (shared by the node-ipam controller and the kubelet's IPAM).

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

/** The number of addresses of a /prefix. */
export const cidrSize = (prefix: number): number => 2 ** (32 - prefix);

/** Parses "10.244.0.0/16" as Go's net.ParseCIDR does: the network, host bits dropped (strict: refuses them). */
export const parseIpv4Cidr = (text: string, strict = false): Ipv4Cidr => {
  const m = /^([^/]+)\/(\d{1,2})$/.exec(text.trim());
  if (!m || Number(m[2]) > 32) throw new Error(`invalid CIDR address: ${text}`);
  const prefix = Number(m[2]);
  const addr = ipToInt(m[1]!);
  const network = addr - (addr % cidrSize(prefix));
  if (strict && network !== addr) throw new Error(`invalid CIDR address: ${text} (host bits set)`);
  return { network, prefix };
};

export const formatCidr = (c: Ipv4Cidr): string => `${intToIp(c.network)}/${c.prefix}`;

export const contains = (c: Ipv4Cidr, ip: number): boolean => ip >= c.network && ip < c.network + cidrSize(c.prefix);
