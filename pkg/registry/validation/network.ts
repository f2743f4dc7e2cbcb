// Ports and IP addresses as upstream's k8s.io/apimachinery/pkg/util/validation checks them, and the core
// validation's ValidateNonSpecialIP.
//
//   isValidPortNum(n): string[]          // 1-65535
//   isValidPortName(s): string[]         // an IANA_SVC_NAME: at most 15 of [-a-z0-9], a letter, no '--', no edge '-'
//   parseIP(s): number[] | undefined     // netutils.ParseIPSloppy: 4 bytes (IPv4, leading zeros taken) or 16
//   validateIP(s, path), validateCIDR(s, path): StatusCause[]
//   validateNonSpecialIP(s, path, allowLoopback?): StatusCause[]   // not unspecified, loopback or link-local
//   parseCIDR(s), cidrContains(net, ip)  // ParseCIDRSloppy and IPNet.Contains
import { isIPv6 } from 'node:net';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { maxLenError } from '../../apimachinery/names.js';

export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

export const isValidPortNum = (port: number): string[] => (port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)]);

const PORT_NAME_CHARSET = /^[-a-z0-9]+$/;
const ONE_LETTER = /[a-z]/;

export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!PORT_NAME_CHARSET.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!ONE_LETTER.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

const parseIPv4 = (s: string): number[] | undefined => {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,8}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    bytes.push(n);
  }
  return bytes;
};

const parseIPv6 = (s: string): number[] | undefined => {
  if (s.includes('%') || !isIPv6(s)) return undefined;
  let text = s;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = v4;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (g: string): string[] => (g === '' ? [] : g.split(':'));
  const hi = groups(head);
  const lo = rest === undefined ? [] : groups(rest);
  const fill = rest === undefined ? 0 : 8 - hi.length - lo.length;
  const all = [...hi, ...Array<string>(fill).fill('0'), ...lo];
  if (all.length !== 8) return undefined;
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
};

export const parseIP = (s: string): number[] | undefined => (s.includes(':') ? parseIPv6(s) : parseIPv4(s));

export const isIPv6String = (s: string): boolean => {
  const b = parseIP(s);
  return b !== undefined && b.length === 16 && !isV4Mapped(b);
};

const isV4Mapped = (b: number[]): boolean => b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255;

/** The bytes of an IPv4 address, also when written IPv4-mapped (Go's To4). */
const to4 = (b: number[]): number[] | undefined => (b.length === 4 ? b : isV4Mapped(b) ? b.slice(12) : undefined);

export const validateIP = (s: string, path: string): StatusCause[] =>
  (parseIP(s) ? [] : [invalidValue(path, s, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')]);

export const isValidCIDR = (s: string): boolean => {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = parseIP(s.slice(0, slash));
  const len = s.slice(slash + 1);
  if (!ip || !/^\d{1,3}$/.test(len)) return false;
  const bits = s.slice(0, slash).includes(':') ? 128 : 32;
  return Number(len) <= bits;
};

export const validateCIDR = (s: string, path: string): StatusCause[] =>
  (isValidCIDR(s) ? [] : [invalidValue(path, s, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')]);

/** Upstream's ValidateNonSpecialIP (external IPs, endpoints). */
export function validateNonSpecialIP(s: string, path: string, allowLoopback = false): StatusCause[] {
  const b = parseIP(s);
  if (!b) return [invalidValue(path, s, 'must be a valid IP address')];
  const causes: StatusCause[] = [];
  const v4 = to4(b);
  const unspecified = v4 ? v4.every((x) => x === 0) : b.every((x) => x === 0);
  const loopback = v4 ? v4[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  const linkLocalUnicast = v4 ? v4[0] === 169 && v4[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
  const linkLocalMulticast = v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02;
  if (unspecified) causes.push(invalidValue(path, s, `may not be unspecified (${s})`));
  if (loopback && !allowLoopback) causes.push(invalidValue(path, s, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (linkLocalUnicast) causes.push(invalidValue(path, s, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (linkLocalMulticast) causes.push(invalidValue(path, s, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return causes;
}

/** netutils.ParseCIDRSloppy: the network's bytes (4 for IPv4 text, 16 for IPv6) masked to its prefix, or undefined. */
export function parseCIDR(s: string): { ip: number[]; bits: number } | undefined {
  if (!isValidCIDR(s)) return undefined;
  const slash = s.indexOf('/');
  const ip = parseIP(s.slice(0, slash))!;
  const bits = Number(s.slice(slash + 1));
  return { ip: ip.map((b, i) => (i * 8 >= bits ? 0 : i * 8 + 8 <= bits ? b : b & (0xff << (8 - (bits - i * 8))) & 0xff)), bits };
}

/** Go's IPNet.Contains for networks of one family (an IPv4 network never holds an IPv6 address, nor the reverse). */
export function cidrContains(net: { ip: number[]; bits: number }, ip: number[]): boolean {
  if (net.ip.length !== ip.length) return false;
  for (let bit = 0; bit < net.bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((net.ip[byte]! & mask) !== (ip[byte]! & mask)) return false;
  }
  return true;
}
