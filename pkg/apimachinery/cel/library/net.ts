// Kubernetes' ip and cidr libraries (upstream: apiserver/pkg/cel/library/ip.go, cidr.go, after Go's netip):
// addresses in canonical form, no IPv4-mapped IPv6 addresses and no zones.
import { celFunc, celMethod, type CelFunc } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { isIP } from 'node:net';
import { BOOL, CIDR_TYPE, INT, IP_TYPE, STRING } from './types.js';

interface Addr {
  family: 4 | 6;
  /** The address as an unsigned integer of 32 or 128 bits. */
  value: bigint;
}

const bits = (a: Addr): number => (a.family === 4 ? 32 : 128);

function parseAddr(s: string): Addr {
  if (s.includes('%')) throw new Error('IP address with zone value is not allowed');
  const family = isIP(s);
  if (family === 4) {
    if (s.split('.').some((o) => o.length > 1 && o.startsWith('0'))) throw new Error(`ParseAddr(${JSON.stringify(s)}): IPv4 field has octet with leading zero`);
    return { family: 4, value: s.split('.').reduce((v, o) => (v << 8n) | BigInt(o), 0n) };
  }
  if (family !== 6) throw new Error(`ParseAddr(${JSON.stringify(s)}): unable to parse IP`);
  let text = s;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = parseAddr(v4[1]!).value;
    text = `${text.slice(0, -v4[1]!.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  const value = groups.reduce((v, g) => (v << 16n) | BigInt(parseInt(g, 16)), 0n);
  if (value >> 32n === 0xffffn) throw new Error('IPv4-mapped IPv6 address is not allowed');
  return { family: 6, value };
}

/** Go's netip String(): dotted IPv4; IPv6 in lower case with the longest run of zero groups (two or more) as "::". */
function formatAddr(a: Addr): string {
  if (a.family === 4) return [24n, 16n, 8n, 0n].map((sh) => ((a.value >> sh) & 0xffn).toString()).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((a.value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

interface Prefix {
  addr: Addr;
  length: number;
}

function parsePrefix(s: string): Prefix {
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw new Error(`netip.ParsePrefix(${JSON.stringify(s)}): no '/'`);
  const addr = parseAddr(s.slice(0, slash));
  const lenText = s.slice(slash + 1);
  const length = Number(lenText);
  if (!/^\d+$/.test(lenText) || (lenText.length > 1 && lenText.startsWith('0')) || length > bits(addr)) {
    throw new Error(`netip.ParsePrefix(${JSON.stringify(s)}): bad bits after slash: ${JSON.stringify(lenText)}`);
  }
  return { addr, length };
}

const mask = (p: Prefix): bigint => {
  const total = BigInt(bits(p.addr));
  return ((1n << total) - 1n) ^ ((1n << (total - BigInt(p.length))) - 1n);
};
const masked = (p: Prefix): Prefix => ({ addr: { family: p.addr.family, value: p.addr.value & mask(p) }, length: p.length });
const containsAddr = (p: Prefix, a: Addr): boolean => p.addr.family === a.family && (a.value & mask(p)) === (p.addr.value & mask(p));

const ipOf = (v: ReflectMessage): Addr => parseAddr(IP_TYPE.text(v));
const cidrOf = (v: ReflectMessage): Prefix => parsePrefix(CIDR_TYPE.text(v));
const newIP = (a: Addr) => IP_TYPE.of(formatAddr(a));
const newCIDR = (p: Prefix) => CIDR_TYPE.of(`${formatAddr(p.addr)}/${p.length}`);

const succeeds = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

const inRange = (a: Addr, prefix: string): boolean => {
  const p = parsePrefix(prefix);
  return containsAddr(p, a);
};

const IP = IP_TYPE.type;
const CIDR = CIDR_TYPE.type;

export const netFuncs: CelFunc[] = [
  celFunc('ip', [STRING], IP, (s) => {
    try {
      return newIP(parseAddr(s));
    } catch (err) {
      throw new Error(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ${(err as Error).message}`);
    }
  }),
  celFunc('isIP', [STRING], BOOL, (s) => succeeds(() => parseAddr(s))),
  celFunc('ip.isCanonical', [STRING], BOOL, (s) => {
    const a = parseAddr(s);
    return formatAddr(a) === s;
  }),
  celFunc('string', [IP], STRING, (v) => IP_TYPE.text(v)),
  celMethod('family', IP, [], INT, function () { return BigInt(ipOf(this).family); }),
  celMethod('isUnspecified', IP, [], BOOL, function () { return ipOf(this).value === 0n; }),
  celMethod('isLoopback', IP, [], BOOL, function () { const a = ipOf(this); return a.family === 4 ? inRange(a, '127.0.0.0/8') : a.value === 1n; }),
  celMethod('isLinkLocalMulticast', IP, [], BOOL, function () { const a = ipOf(this); return inRange(a, a.family === 4 ? '224.0.0.0/24' : 'ff02::/16'); }),
  celMethod('isLinkLocalUnicast', IP, [], BOOL, function () { const a = ipOf(this); return inRange(a, a.family === 4 ? '169.254.0.0/16' : 'fe80::/10'); }),
  celMethod('isGlobalUnicast', IP, [], BOOL, function () {
    const a = ipOf(this);
    const special = a.family === 4 ? ['0.0.0.0/32', '127.0.0.0/8', '224.0.0.0/4', '169.254.0.0/16', '255.255.255.255/32'] : ['::/128', '::1/128', 'ff00::/8', 'fe80::/10'];
    return !special.some((p) => inRange(a, p));
  }),
  celFunc('cidr', [STRING], CIDR, (s) => {
    try {
      return newCIDR(parsePrefix(s));
    } catch (err) {
      throw new Error(`network address ${JSON.stringify(s)} parse error during conversion from string: ${(err as Error).message}`);
    }
  }),
  celFunc('isCIDR', [STRING], BOOL, (s) => succeeds(() => parsePrefix(s))),
  celFunc('string', [CIDR], STRING, (v) => CIDR_TYPE.text(v)),
  celMethod('containsIP', CIDR, [IP], BOOL, function (ip) { return containsAddr(cidrOf(this), ipOf(ip)); }),
  celMethod('containsIP', CIDR, [STRING], BOOL, function (s) { return containsAddr(cidrOf(this), parseAddr(s)); }),
  celMethod('containsCIDR', CIDR, [CIDR], BOOL, function (c) {
    const p = cidrOf(this);
    const o = cidrOf(c);
    return o.length >= p.length && containsAddr(p, o.addr);
  }),
  celMethod('containsCIDR', CIDR, [STRING], BOOL, function (s) {
    const p = cidrOf(this);
    const o = parsePrefix(s);
    return o.length >= p.length && containsAddr(p, o.addr);
  }),
  celMethod('ip', CIDR, [], IP, function () { return newIP(cidrOf(this).addr); }),
  celMethod('masked', CIDR, [], CIDR, function () { return newCIDR(masked(cidrOf(this))); }),
  celMethod('prefixLength', CIDR, [], INT, function () { return BigInt(cidrOf(this).length); }),
];
