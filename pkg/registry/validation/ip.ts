// IP addresses as upstream 1.32's validation.IsValidIP reads them: k8s.io/utils/net.ParseIPSloppy, Go 1.16's
// net.ParseIP, which takes IPv4 octets with leading zeros ("010.0.0.1") and no IPv6 zone ("fe80::1%eth0").
import { isIPv6 } from 'node:net';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';

export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

const IPV4_SLOPPY = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;

function isIPv4Sloppy(s: string): boolean {
  const m = IPV4_SLOPPY.exec(s);
  if (!m) return false;
  for (let i = 1; i <= 4; i++) if (Number(m[i]) > 255) return false;
  return true;
}

/** Whether ParseIPSloppy parses `s`. */
export function isIPSloppy(s: string): boolean {
  if (s.includes(':')) return !s.includes('%') && isIPv6(s);
  return isIPv4Sloppy(s);
}

/** validation.IsValidIP. */
export function checkIP(causes: StatusCause[], path: string, value: string): void {
  if (!isIPSloppy(value)) causes.push(invalidValue(path, value, INVALID_IP));
}
