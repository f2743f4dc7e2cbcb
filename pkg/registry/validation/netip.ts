// What Go's net/netip says of an address or prefix that validation took (it parses them sloppily, as Go 1.16's
// net.ParseIP did): netip refuses IPv4 octets with leading zeros, and prints IPv6 in RFC 5952's canonical form.
// Upstream warns with both (pkg/api/service/warnings.go).
import { goQuote } from './go-values.js';
import { parseIP } from './network.js';

/** netip.Addr.String of an address's bytes: dotted IPv4, IPv4-mapped IPv6 as ::ffff:a.b.c.d, else RFC 5952. */
export function netipString(b: number[]): string {
  if (b.length === 4) return b.join('.');
  if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return `::ffff:${b.slice(12).join('.')}`;
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  // the longest run of two or more zero groups (the first of equal ones) becomes ::
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (gs: number[]): string => gs.map((g) => g.toString(16)).join(':');
  return best < 0 ? hex(groups) : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}

/** netip.ParseAddr's error for an address ParseIPSloppy took, if any. */
function parseAddrError(s: string): string | undefined {
  if (s.includes(':')) return undefined;
  return s.split('.').some((octet) => octet.length > 1 && octet.startsWith('0'))
    ? `ParseAddr(${goQuote(s)}): IPv4 field has octet with leading zero`
    : undefined;
}

/** Upstream's getWarningsForIP, for an address validation took. */
export function ipWarnings(path: string, address: string): string[] {
  const err = parseAddrError(address);
  if (err) return [`${path}: IP address was accepted, but will be invalid in a future Kubernetes release: ${err}`];
  const b = parseIP(address);
  if (b?.length === 16 && netipString(b) !== address) {
    return [`${path}: IPv6 address ${goQuote(address)} is not in RFC 5952 canonical format (${goQuote(netipString(b))}), which may cause controller apply-loops`];
  }
  return [];
}

/** Upstream's getWarningsForCIDR, for a prefix validation took (netip.ParsePrefix's checks, in its order). */
export function cidrWarnings(path: string, cidr: string): string[] {
  const slash = cidr.lastIndexOf('/');
  const addr = cidr.slice(0, slash);
  const bits = cidr.slice(slash + 1);
  const addrErr = parseAddrError(addr);
  const err = addrErr ?? (bits.length > 1 && bits.startsWith('0') ? `bad bits after slash: ${goQuote(bits)}` : undefined);
  if (err) return [`${path}: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix(${goQuote(cidr)}): ${err}`];
  const b = parseIP(addr);
  const canonical = b?.length === 16 ? `${netipString(b)}/${Number(bits)}` : cidr;
  if (canonical !== cidr) {
    return [`${path}: IPv6 prefix ${goQuote(cidr)} is not in RFC 5952 canonical format (${goQuote(canonical)}), which may cause controller apply-loops`];
  }
  return [];
}
