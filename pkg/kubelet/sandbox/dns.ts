// A pod's DNS, as upstream's kubelet computes it (pkg/kubelet/network/dns/dns.go GetPodDNS) and a runtime writes
// it: ClusterFirst → the cluster DNS servers, searches <ns>.svc.<domain> svc.<domain> <domain> then the host's,
// options ndots:5 (without --cluster-dns it falls back to Default, with a MissingClusterDNS warning);
// Default (and ClusterFirst on the host network) → the host's resolv.conf; None → only spec.dnsConfig, which is
// merged last in every policy; then the resolver's limits cut it, each cut a DNSConfigForming warning. Also the pod's
// /etc/hosts as upstream's kubelet manages it.
import type { DnsConfig, HostsEntries } from '../runtime/types.js';

export interface DnsSettings {
  /** --cluster-dns */
  clusterDns: string[];
  /** --cluster-domain */
  clusterDomain: string;
  /** The host's resolver configuration (--resolv-conf), already parsed. */
  host: DnsConfig;
}

interface PodDnsSpec {
  namespace: string;
  dnsPolicy?: string;
  hostNetwork?: boolean;
  dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: { name: string; value?: string }[] };
}

export const MISSING_CLUSTER_DNS = 'kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.';

// the resolver's limits, which upstream's kubelet applies to what it writes (formDNSConfigFitsLimits): glibc reads 3
// nameservers; 32 searches of 2048 characters in all (ExpandedDNSConfig); a search over 253 characters aborts glibc 2.28
const MAX_NAMESERVERS = 3;
const MAX_SEARCHES = 32;
const MAX_SEARCH_CHARS = 2048;
const MAX_SEARCH_LENGTH = 253;

const unique = (xs: string[]): string[] => [...new Set(xs)];

/** Options by name (what comes before a ':'), a later one taking an earlier one's value in its place. */
const lastByName = (options: string[]): string[] => [...new Map(options.map((o) => [o.split(':')[0]!, o])).values()];

/**
 * nameserver / search / options lines of a resolv.conf, as upstream's parseResolvConf reads them: a line starting
 * with '#' is a comment (no other); nameservers add up; the last search line wins, each search without a trailing
 * dot and "." left out; options add up by name.
 */
export const parseResolvConf = (text: string): DnsConfig => {
  const out: DnsConfig = { servers: [], searches: [], options: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#')) continue;
    const [key, ...fields] = line.split(/\s+/);
    if (key === 'nameserver' && fields[0]) out.servers.push(fields[0]);
    else if (key === 'search') out.searches = fields.filter((f) => f !== '.').map((f) => f.replace(/\.$/, ''));
    else if (key === 'options') out.options = lastByName([...out.options, ...fields]);
  }
  return out;
};

/** Upstream's formDNSNameserversFitsLimits: the first 3, and a warning when there were more. */
const fitNameservers = (servers: string[], limits: string[]): string[] => {
  if (servers.length <= MAX_NAMESERVERS) return servers;
  const kept = servers.slice(0, MAX_NAMESERVERS);
  limits.push(`Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${kept.join(' ')}`);
  return kept;
};

/** Upstream's formDNSSearchFitsLimits: the first 32, without those too long, then cut from the end to 2048 characters. */
const fitSearches = (searches: string[], limits: string[]): string[] => {
  const kept = searches.slice(0, MAX_SEARCHES).filter((s) => s.length <= MAX_SEARCH_LENGTH);
  while (kept.join(' ').length > MAX_SEARCH_CHARS) kept.pop();
  if (kept.length < searches.length) {
    limits.push(`Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${kept.join(' ')}`);
  }
  return kept;
};

export interface PodDns {
  config: DnsConfig;
  /** ClusterFirst without cluster DNS: the MissingClusterDNS warning. */
  warning?: string;
  /** What the resolver's limits cut, each a DNSConfigForming warning. */
  limits: string[];
}

/** The pod's DNS configuration, and the warnings the kubelet records on the pod. */
export const podDnsConfig = (pod: PodDnsSpec, s: DnsSettings): PodDns => {
  const policy = pod.dnsPolicy ?? 'ClusterFirst';
  const cluster = policy === 'ClusterFirstWithHostNet' || (policy === 'ClusterFirst' && !pod.hostNetwork);
  let config: DnsConfig = { servers: [...s.host.servers], searches: [...s.host.searches], options: [...s.host.options] };
  let warning: string | undefined;
  if (policy === 'None') config = { servers: [], searches: [], options: [] };
  else if (cluster && s.clusterDns.length) {
    const domain = s.clusterDomain.replace(/\.$/, '');
    const ours = domain ? [`${pod.namespace}.svc.${domain}`, `svc.${domain}`, domain] : [];
    config = { servers: [...s.clusterDns], searches: unique([...ours, ...s.host.searches]), options: ['ndots:5'] };
  } else if (cluster) warning = MISSING_CLUSTER_DNS;
  const extra = pod.dnsConfig;
  if (extra) {
    config = {
      servers: unique([...config.servers, ...(extra.nameservers ?? [])]),
      searches: unique([...config.searches, ...(extra.searches ?? [])]),
      options: lastByName([...config.options, ...(extra.options ?? []).map((o) => (o.value ? `${o.name}:${o.value}` : o.name))]),
    };
  }
  const limits: string[] = [];
  config = { ...config, servers: fitNameservers(config.servers, limits), searches: fitSearches(config.searches, limits) };
  return { config, ...(warning ? { warning } : {}), limits };
};

/** The resolv.conf a runtime writes for the pod (search, nameservers, options, as containerd orders them). */
export const resolvConf = (c: DnsConfig): string =>
  [
    ...(c.searches.length ? [`search ${c.searches.join(' ')}`] : []),
    ...c.servers.map((s) => `nameserver ${s}`),
    ...(c.options.length ? [`options ${c.options.join(' ')}`] : []),
  ].map((l) => `${l}\n`).join('');

/** The hostAliases block of a managed hosts file: a blank line, a comment, one line per address. */
const aliasLines = (aliases: HostsEntries['hostAliases']): string[] =>
  (aliases?.length ? ['', '# Entries added by HostAliases.', ...aliases.map((a) => [a.ip, ...(a.hostnames ?? [])].join('\t'))] : []);

/** A host-network pod's /etc/hosts (upstream's nodeHostsFileContent): the node's, then the pod's hostAliases. */
export const hostNetworkHostsFile = (nodeHosts: string, aliases: HostsEntries['hostAliases']): string =>
  `# Kubernetes-managed hosts file (host network).\n${nodeHosts}${aliasLines(aliases).map((l) => `${l}\n`).join('')}`;

/**
 * The pod's /etc/hosts (upstream's managed hosts file for a pod with its own network): its FQDN first when it has a
 * subdomain, then its hostAliases, one line per address.
 */
export const hostsFile = (ip: string, hostname: string, extra: HostsEntries = {}): string => [
  '# Kubernetes-managed hosts file.',
  '127.0.0.1\tlocalhost',
  '::1\tlocalhost ip6-localhost ip6-loopback',
  'fe00::0\tip6-localnet',
  'fe00::0\tip6-mcastprefix',
  'fe00::1\tip6-allnodes',
  'fe00::2\tip6-allrouters',
  extra.fqdn ? `${ip}\t${extra.fqdn}\t${extra.hostname ?? hostname}` : `${ip}\t${extra.hostname ?? hostname}`,
  ...aliasLines(extra.hostAliases),
  '',
].join('\n');
