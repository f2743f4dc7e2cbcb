// A pod's name resolution: its DNS policy and DNS config (upstream's validateDNSPolicy and validatePodDNSConfig,
// with libc's limits: 3 name servers, 32 search domains of 2048 characters in all) and its host aliases
// (ValidateHostAliases).
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { checkDNSSubdomain, isObj, list, str } from './field-checks.js';
import { checkIP } from './ip.js';

export const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const MAX_NAMESERVERS = 3;
const MAX_SEARCH_PATHS = 32;
const MAX_SEARCH_LIST_CHARS = 2048;

export function validateDNSPolicy(policy: unknown, path: string, causes: StatusCause[]): void {
  const p = str(policy);
  if (!p) causes.push(required(path));
  else if (!DNS_POLICIES.includes(p)) causes.push(notSupported(path, p, DNS_POLICIES));
}

const strings = (v: unknown): string[] => list(v).map(str);

export function validateDNSConfig(config: unknown, policy: unknown, path: string, causes: StatusCause[]): void {
  const dnsConfig = isObj(config) ? config : undefined;
  if (policy === 'None') {
    if (!dnsConfig) {
      causes.push(required(path, 'must provide `dnsConfig` when `dnsPolicy` is None'));
      return;
    }
    if (list(dnsConfig.nameservers).length === 0) {
      causes.push(required(`${path}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None'));
      return;
    }
  }
  if (!dnsConfig) return;
  const nameservers = strings(dnsConfig.nameservers);
  if (nameservers.length > MAX_NAMESERVERS) causes.push(invalidValue(`${path}.nameservers`, nameservers, `must not have more than ${MAX_NAMESERVERS} nameservers`));
  nameservers.forEach((ns, i) => checkIP(causes, `${path}.nameservers[${i}]`, ns));
  const searches = strings(dnsConfig.searches);
  if (searches.length > MAX_SEARCH_PATHS) causes.push(invalidValue(`${path}.searches`, searches, `must not have more than ${MAX_SEARCH_PATHS} search paths`));
  if (searches.join(' ').length > MAX_SEARCH_LIST_CHARS) {
    causes.push(invalidValue(`${path}.searches`, searches, `must not have more than ${MAX_SEARCH_LIST_CHARS} characters (including spaces) in the search list`));
  }
  // a fully qualified search domain (a trailing dot) is checked without its dot
  searches.forEach((s, i) => checkDNSSubdomain(causes, `${path}.searches[${i}]`, s.endsWith('.') ? s.slice(0, -1) : s));
  list(dnsConfig.options).forEach((o, i) => {
    if (!isObj(o) || !str(o.name)) causes.push(required(`${path}.options[${i}]`, 'must not be empty'));
  });
}

export function validateHostAliases(aliases: unknown, path: string, causes: StatusCause[]): void {
  list(aliases).forEach((a, i) => {
    const alias = isObj(a) ? a : {};
    checkIP(causes, `${path}[${i}].ip`, str(alias.ip));
    list(alias.hostnames).forEach((h, j) => checkDNSSubdomain(causes, `${path}[${i}].hostnames[${j}]`, str(h)));
  });
}
