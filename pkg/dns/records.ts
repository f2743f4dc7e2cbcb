// The cluster's names, as the Kubernetes DNS specification (kubernetes/dns docs/specification.md) and CoreDNS's
// kubernetes plugin give them, answered from Services and EndpointSlices:
//   <svc>.<ns>.svc.<zone>               A: the ClusterIP; headless: every ready endpoint; ExternalName: a CNAME
//                                       and, for A/AAAA, the target's records (in the zone: ours; else upstream's)
//   <host>.<svc>.<ns>.svc.<zone>        A: a ready endpoint of the service (headless or not) by its hostname
//                                       (StatefulSet pods) or dashed IP
//   _<port>._<proto>.<svc>.<ns>.svc.<zone>  A: as the bare name, of the ports of that name and protocol (the
//                                       underscores optional, as CoreDNS's parseRequest reads them)
//   SRV of each of these names          one per port that matches (the bare name: every port, named or not): the
//                                       service's name at the Service's port; headless (or an endpoint's name), each
//                                       endpoint's name at its slice's port; the weight 100 shared out among them
//   <a-b-c-d>.<ns>.pod.<zone>           A: a.b.c.d (CoreDNS's "pods insecure")
//   <d.c.b.a>.in-addr.arpa              PTR: the service with that ClusterIP; else, for each Service with a ready
//                                       endpoint of that address, <hostname or dashed IP>.<svc>.<ns>.svc.<zone>
//                                       (CoreDNS's serviceRecordForIP)
//   <zone>                              SOA; NS: the Services whose endpoints are this server, with their
//                                       addresses as glue (else ns.dns.<zone> at our own addresses)
//   ns.dns.<zone>                       A: those name servers' addresses (the SOA names it)
//   dns-version.<zone>                  TXT: the schema version the records follow
// A name in the zone that does not exist is NXDOMAIN, as is any name in a namespace that does not exist (CoreDNS's
// namespaceExposed); one that exists without the asked type, an empty answer.
import type { Answer } from 'dns-packet';
import { LABEL_SERVICE_NAME } from '../../api/discovery/v1/index.js';
import type { KubeObject } from '../../api/types.js';

/** CoreDNS's kubernetes plugin answers with a TTL of 5 s. */
export const TTL = 5;

export interface Lookup {
  /** false: NXDOMAIN. */
  exists: boolean;
  answers: Answer[];
  additionals?: Answer[];
  /**
   * An ExternalName's target outside the zone whose records of the asked type (A, AAAA) the answer goes on with, as
   * the host's resolvers give them; without them the answer is empty (CoreDNS's upstream lookup of the CNAME target).
   */
  external?: string;
}

export interface ClusterView {
  service(namespace: string, name: string): KubeObject | undefined;
  /** The EndpointSlices of a service. */
  slices(namespace: string, service: string): KubeObject[];
  /** The Services with this ClusterIP (for PTR). */
  servicesByIP(ip: string): KubeObject[];
  /** The EndpointSlices with a ready endpoint of this address (for PTR). */
  slicesByAddress(ip: string): KubeObject[];
  /** Whether the namespace exists. */
  namespace(name: string): boolean;
  /**
   * The DNS server's own IPv4 addresses (CoreDNS's localIPs) and port: which Services are the cluster's name servers.
   * The port tells them apart where several Services have endpoints at one address (loopback ones, here).
   */
  self(): { addresses: string[]; port: number };
}

interface Endpoint { addresses?: string[]; hostname?: string; conditions?: { ready?: boolean } }
interface Port { name?: string; port?: number; protocol?: string }

const NOWHERE: Lookup = { exists: false, answers: [] };
const dashed = (ip: string): string => ip.replace(/\./g, '-');
const isIpv4 = (s: string): boolean => /^(\d{1,3})(\.\d{1,3}){3}$/.test(s) && s.split('.').every((o) => Number(o) < 256);
/** CoreDNS publishes an endpoint while it is ready, or says nothing of it. */
const isReady = (e: Endpoint): boolean => e.conditions?.ready !== false;

/** The addresses of a slice's ready endpoints: what slicesByAddress indexes. */
export const readyAddresses = (slice: KubeObject): string[] =>
  slice.addressType === 'IPv4' ? ((slice.endpoints ?? []) as Endpoint[]).filter(isReady).flatMap((e) => e.addresses ?? []) : [];

/** A ready endpoint: its address, its name under the service, and its slice's ports. */
interface Ready { ip: string; host: string; ports: Port[] }

const readyEndpoints = (slices: KubeObject[]): Ready[] => {
  const out: Ready[] = [];
  for (const slice of slices) {
    if (slice.addressType !== 'IPv4') continue;
    const ports = (slice.ports ?? []) as Port[];
    for (const e of (slice.endpoints ?? []) as Endpoint[]) {
      const ip = e.addresses?.[0];
      if (ip && isReady(e)) out.push({ ip, host: e.hostname ?? dashed(ip), ports });
    }
  }
  return out;
};

const a = (name: string, ip: string): Answer => ({ type: 'A', name, ttl: TTL, class: 'IN', data: ip });

/** The Kubernetes DNS specification's version that CoreDNS says it follows, at dns-version.<zone> (TTL 8 h). */
const SCHEMA_VERSION = '1.1.0';
const SCHEMA_VERSION_TTL = 28_800;

/** The zone's SOA, as CoreDNS's: its name server ns.dns.<zone>, a TTL and minimum of 5 s. */
export const soa = (zone: string): Answer => ({
  type: 'SOA', name: zone, ttl: TTL, class: 'IN',
  data: { mname: `ns.dns.${zone}`, rname: `hostmaster.${zone}`, serial: Math.floor(Date.now() / 1000), refresh: 7200, retry: 1800, expire: 86_400, minimum: TTL },
});

/** A Service's IPv4 ClusterIPs (none when headless). */
export const clusterIPs = (svc: KubeObject): string[] =>
  ((svc.spec?.clusterIPs as string[] | undefined) ?? [svc.spec?.clusterIP as string | undefined]).filter((ip): ip is string => !!ip && isIpv4(ip));

/** CoreDNS follows at most 8 CNAMEs within the zone. */
const MAX_CNAMES = 8;

/** The records of `name` (lower case, no trailing dot) of `type`, when it is in `zone` or a reverse name; undefined: not ours. */
export function lookup(view: ClusterView, zone: string, name: string, type: string, chain: Answer[] = []): Lookup | undefined {
  if (name.endsWith('.in-addr.arpa')) {
    const ip = name.slice(0, -'.in-addr.arpa'.length).split('.').reverse().join('.');
    const targets = isIpv4(ip) ? reverseNames(view, zone, ip) : [];
    if (!targets.length) return undefined; // not a cluster address: the host's resolvers answer
    return { exists: true, answers: type === 'PTR' ? targets.map((data) => ({ type: 'PTR', name, ttl: TTL, class: 'IN', data })) : [] };
  }
  if (name !== zone && !name.endsWith(`.${zone}`)) return undefined;
  const labels = name === zone ? [] : name.slice(0, -zone.length - 1).split('.');
  if (labels.length === 0) return apex(view, zone, name, type);
  if (labels.length === 1 && labels[0] === 'dns-version' && type === 'TXT') {
    return { exists: true, answers: [{ type: 'TXT', name, ttl: SCHEMA_VERSION_TTL, class: 'IN', data: SCHEMA_VERSION }] };
  }
  if (name === `ns.dns.${zone}`) {
    const ips = [...new Set(nameServers(view, zone).map((n) => n.ip))];
    return { exists: true, answers: type === 'A' ? ips.map((ip) => a(name, ip)) : [] };
  }
  const kind = labels[labels.length - 1];
  if ((kind === 'pod' || kind === 'svc') && labels.length >= 2 && !view.namespace(labels[labels.length - 2]!)) return NOWHERE;
  if (kind === 'pod') {
    if (labels.length !== 3) return labels.length < 3 ? { exists: true, answers: [] } : NOWHERE; // pod.<zone>, <ns>.pod.<zone>
    const ip = labels[0]!.replace(/-/g, '.');
    if (!isIpv4(ip)) return NOWHERE;
    return { exists: true, answers: type === 'A' ? [a(name, ip)] : [] };
  }
  if (kind !== 'svc') return NOWHERE;
  if (labels.length < 3) return { exists: true, answers: [] }; // svc.<zone>, <ns>.svc.<zone>
  const [ns, svcName] = [labels[labels.length - 2]!, labels[labels.length - 3]!];
  const svc = view.service(ns, svcName);
  if (!svc) return NOWHERE;
  const spec = (svc.spec ?? {}) as { type?: string; externalName?: string };
  const prefix = labels.slice(0, -3);
  if (spec.type === 'ExternalName') {
    return prefix.length ? NOWHERE : externalName(view, zone, name, type, (spec.externalName ?? '').replace(/\.$/, ''), chain);
  }
  if (prefix.length > 2) return NOWHERE;
  const unscored = (label: string): string => label.replace(/^_/, '');
  const selector: Selector = prefix.length === 1 ? { endpoint: prefix[0], port: '', protocol: '' } : { port: unscored(prefix[0] ?? ''), protocol: unscored(prefix[1] ?? '') };
  const found = backends(svc, view.slices(ns, svcName), `${svcName}.${ns}.svc.${zone}`, selector);
  if (!found) return NOWHERE;
  if (type === 'SRV') return srv(name, found);
  return { exists: true, answers: type === 'A' ? [...new Set(found.map((b) => b.ip))].map((ip) => a(name, ip)) : [] };
}

/** What a name under a Service asks for, as CoreDNS's parseRequest reads it: an endpoint, or a port and protocol ('': any). */
interface Selector { endpoint?: string; port: string; protocol: string }

/** One of CoreDNS's records of a Service (msg.Service): an address, the name it has, a port (-1: none declared). */
interface Backend { name: string; ip: string; port: number }

/** CoreDNS's matchPortAndProtocol: a port or protocol asked for matches its own name; an empty one matches any. */
const matches = (want: string, have: string): boolean => want === '' || want === have.toLowerCase();

/**
 * CoreDNS's findServices: a ClusterIP service's ClusterIPs at each of its ports that match; a headless one's ready
 * endpoints (or, for an endpoint's name, that endpoint of any service) at each port of their slice that matches, a
 * slice without ports giving port -1 (CoreDNS's sentinel: an address without SRV). Undefined (NXDOMAIN): nothing
 * matched.
 */
function backends(svc: KubeObject, slices: KubeObject[], base: string, selector: Selector): Backend[] | undefined {
  const fits = (p: Port): boolean => matches(selector.port, p.name ?? '') && matches(selector.protocol, p.protocol ?? 'TCP');
  if (svc.spec?.clusterIP !== 'None' && selector.endpoint === undefined) {
    const ports = ((svc.spec?.ports ?? []) as Port[]).filter(fits);
    return ports.length ? ports.flatMap((p) => clusterIPs(svc).map((ip) => ({ name: base, ip, port: p.port ?? 0 }))) : undefined;
  }
  const out: Backend[] = [];
  for (const e of readyEndpoints(slices)) {
    if (selector.endpoint !== undefined && e.host !== selector.endpoint) continue;
    for (const p of e.ports.length ? e.ports : [{ port: -1, protocol: '' }]) {
      if (fits(p)) out.push({ name: `${e.host}.${base}`, ip: e.ip, port: p.port ?? 0 });
    }
  }
  return out.length ? out : undefined;
}

/** The apex: its SOA, its name servers (with their addresses as additionals), nothing of other types. */
function apex(view: ClusterView, zone: string, name: string, type: string): Lookup {
  if (type === 'SOA') return { exists: true, answers: [soa(zone)] };
  if (type !== 'NS') return { exists: true, answers: [] };
  const servers = nameServers(view, zone);
  const names = [...new Set(servers.map((n) => n.name))];
  return { exists: true, answers: names.map((data) => ({ type: 'NS', name, ttl: TTL, class: 'IN', data })), additionals: servers.map((n) => a(n.name, n.ip)) };
}

/**
 * The cluster's name servers (CoreDNS's nsAddrs): every Service with a ready endpoint at one of our own addresses
 * (and a port that is ours), by name at its ClusterIPs (headless: each of its endpoints by name); without one,
 * ns.dns.<zone> at our own addresses.
 */
function nameServers(view: ClusterView, zone: string): { name: string; ip: string }[] {
  const out = new Map<string, { name: string; ip: string }>();
  const add = (name: string, ip: string): void => { out.set(`${name} ${ip}`, { name, ip }); };
  const self = view.self();
  for (const own of self.addresses) {
    for (const slice of view.slicesByAddress(own)) {
      if (!((slice.ports ?? []) as Port[]).some((p) => p.port === self.port)) continue;
      const [ns, svcName] = [slice.metadata?.namespace ?? '', slice.metadata?.labels?.[LABEL_SERVICE_NAME] ?? ''];
      const svc = view.service(ns, svcName);
      if (!svc) continue;
      const base = `${svcName}.${ns}.svc.${zone}`;
      if (svc.spec?.clusterIP !== 'None') { for (const ip of clusterIPs(svc)) add(base, ip); continue; }
      for (const e of readyEndpoints([slice])) add(`${e.host}.${base}`, e.ip);
    }
  }
  if (!out.size) for (const ip of self.addresses) add(`ns.dns.${zone}`, ip);
  return [...out.values()];
}

/**
 * The names of an address: a Service's by its ClusterIP; else one per Service with a ready endpoint of that address
 * (any Service, not only headless ones), the endpoint named by its hostname or dashed address.
 */
function reverseNames(view: ClusterView, zone: string, ip: string): string[] {
  const svc = view.servicesByIP(ip)[0];
  if (svc) return [`${svc.metadata?.name}.${svc.metadata?.namespace}.svc.${zone}`];
  const names = new Set<string>();
  for (const slice of view.slicesByAddress(ip)) {
    const service = slice.metadata?.labels?.[LABEL_SERVICE_NAME];
    if (!service) continue;
    for (const e of (slice.endpoints ?? []) as Endpoint[]) {
      if (isReady(e) && e.addresses?.includes(ip)) names.add(`${e.hostname ?? dashed(ip)}.${service}.${slice.metadata?.namespace}.svc.${zone}`);
    }
  }
  return [...names];
}

/**
 * An ExternalName service: its CNAME, and for an address query the target's addresses too (CoreDNS's backend A and
 * AAAA), as the zone gives them for a target in it (nothing when it has none, a loop or past MAX_CNAMES) and as the
 * host's resolvers do for one outside it.
 */
function externalName(view: ClusterView, zone: string, name: string, type: string, target: string, chain: Answer[]): Lookup {
  const cname: Answer = { type: 'CNAME', name, ttl: TTL, class: 'IN', data: target };
  if (type !== 'A' && type !== 'AAAA') return { exists: true, answers: [cname] };
  const lower = target.toLowerCase();
  const loops = lower === name || chain.some((c) => c.name === lower);
  if (loops || chain.length >= MAX_CNAMES) return { exists: true, answers: [] };
  if (lower !== zone && !lower.endsWith(`.${zone}`)) return { exists: true, answers: [cname], external: lower };
  const next = lookup(view, zone, lower, type, [...chain, cname]);
  if (!next?.answers.length) return { exists: true, answers: [] };
  return { exists: true, answers: [cname, ...next.answers], ...(next.external ? { external: next.external } : {}) };
}

/**
 * CoreDNS's SRV of the records found: each at its name and port once (none for port -1), weighted 100 shared out
 * among them all (as Go computes it), and each name's address once as an additional.
 */
function srv(name: string, found: Backend[]): Lookup {
  const weight = Math.floor((100 / (100 * found.length)) * 100);
  const answers = new Map<string, Answer>();
  const additionals = new Map<string, Answer>();
  for (const b of found) {
    if (b.port === -1) continue;
    if (!answers.has(`${b.name} ${b.port}`)) answers.set(`${b.name} ${b.port}`, { type: 'SRV', name, ttl: TTL, class: 'IN', data: { priority: 0, weight, port: b.port, target: b.name } });
    if (!additionals.has(`${b.name} ${b.ip}`)) additionals.set(`${b.name} ${b.ip}`, a(b.name, b.ip));
  }
  return { exists: true, answers: [...answers.values()], additionals: [...additionals.values()] };
}
