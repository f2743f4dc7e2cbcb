// A pod's DNS, as upstream's kubelet computes it (pkg/kubelet/network/dns/dns.go GetPodDNS) and a runtime writes
// it: ClusterFirst → the cluster DNS servers, searches <ns>.svc.<domain> svc.<domain> <domain> then the host's,
// options ndots:5 (without --cluster-dns it falls back to Default, with a MissingClusterDNS warning);
// Default (and ClusterFirst on the host network) → the host's resolv.conf; None → only spec.dnsConfig, which is
// merged last in every policy. Also the pod's /etc/hosts as upstream's kubelet manages it.
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

// glibc's limits, which upstream's kubelet also applies to the searches it writes
const MAX_SEARCHES = 32;
const MAX_SEARCH_CHARS = 2048;

const unique = (xs: string[]): string[] => [...new Set(xs)];

/** nameserver / search / options lines of a resolv.conf (the last search line wins, as in the resolver). */
export const parseResolvConf = (text: string): DnsConfig => {
  const out: DnsConfig = { servers: [], searches: [], options: [] };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    const [key, ...fields] = line.split(/\s+/);
    if (key === 'nameserver' && fields[0]) out.servers.push(fields[0]);
    else if (key === 'search') out.searches = fields.filter((f) => f !== '.');
    else if (key === 'options') out.options.push(...fields);
  }
  return out;
};

const mergeOptions = (base: string[], extra: { name: string; value?: string }[]): string[] => {
  const byName = new Map<string, string | undefined>();
  for (const o of base) { const i = o.indexOf(':'); byName.set(i < 0 ? o : o.slice(0, i), i < 0 ? undefined : o.slice(i + 1)); }
  for (const o of extra) byName.set(o.name, o.value);
  return [...byName].map(([k, v]) => (v === undefined || v === '' ? k : `${k}:${v}`));
};

const trimSearches = (searches: string[]): string[] => {
  const out: string[] = [];
  let chars = 0;
  for (const s of searches.slice(0, MAX_SEARCHES)) {
    chars += s.length + (out.length ? 1 : 0);
    if (chars > MAX_SEARCH_CHARS) break;
    out.push(s);
  }
  return out;
};

/** The pod's DNS configuration, and the warning the kubelet records when ClusterFirst has no cluster DNS. */
export const podDnsConfig = (pod: PodDnsSpec, s: DnsSettings): { config: DnsConfig; warning?: string } => {
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
      options: mergeOptions(config.options, extra.options ?? []),
    };
  }
  return { config: { ...config, searches: trimSearches(config.searches) }, warning };
};

/** The resolv.conf a runtime writes for the pod (search, nameservers, options, as containerd orders them). */
export const resolvConf = (c: DnsConfig): string =>
  [
    ...(c.searches.length ? [`search ${c.searches.join(' ')}`] : []),
    ...c.servers.map((s) => `nameserver ${s}`),
    ...(c.options.length ? [`options ${c.options.join(' ')}`] : []),
  ].map((l) => `${l}\n`).join('');

/**
 * The pod's /etc/hosts (upstream's managed hosts file for a pod with its own network): its FQDN first when it has a
 * subdomain, then its hostAliases, one line per address.
 */
/** The hostAliases block of a managed hosts file: a blank line, a comment, one line per address. */
const aliasLines = (aliases: HostsEntries['hostAliases']): string[] =>
  (aliases?.length ? ['', '# Entries added by HostAliases.', ...aliases.map((a) => [a.ip, ...(a.hostnames ?? [])].join('\t'))] : []);

/** A host-network pod's /etc/hosts (upstream's nodeHostsFileContent): the node's, then the pod's hostAliases. */
export const hostNetworkHostsFile = (nodeHosts: string, aliases: HostsEntries['hostAliases']): string =>
  `# Kubernetes-managed hosts file (host network).\n${nodeHosts}${aliasLines(aliases).map((l) => `${l}\n`).join('')}`;

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
