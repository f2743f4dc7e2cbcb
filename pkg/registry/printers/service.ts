// Services (TYPE CLUSTER-IP EXTERNAL-IP PORT(S), wide SELECTOR), endpoints and endpoint slices.
import type { KubeObject } from '../../../api/types.js';
import { ageColumn, column, nameColumn, type Printer, simplePrinter, wideColumn } from './types.js';
import { formatLabels, joinHostPort, listWithMore } from './format.js';
import { age } from './duration.js';

/** IPs (else hostnames) of load-balancer ingress points, sorted and de-duplicated. */
export function loadBalancerAddresses(status: { ingress?: { ip?: string; hostname?: string }[] } | undefined): string {
  const set = new Set<string>();
  for (const ing of status?.ingress ?? []) {
    const value = ing.ip || ing.hostname;
    if (value) set.add(value);
  }
  return [...set].sort().join(',');
}

export function serviceExternalIP(svc: KubeObject): string {
  const spec = svc.spec ?? {};
  const externalIPs: string[] = spec.externalIPs ?? [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(svc.status?.loadBalancer);
      const all = [...(lb ? lb.split(',') : []), ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

export function servicePorts(svc: KubeObject): string {
  const ports: { port: number; nodePort?: number; protocol?: string }[] = svc.spec?.ports ?? [];
  const text = ports
    .map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`))
    .join(',');
  return text || '<none>';
}

export const servicePrinter: Printer = {
  columns: [
    nameColumn,
    column('Type', 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.'),
    column('Cluster-IP', 'The virtual IP of the service inside the cluster.'),
    column('External-IP', 'Addresses the service is reachable at from outside the cluster.'),
    column('Port(s)', 'The ports the service exposes.'),
    ageColumn,
    wideColumn('Selector', 'The labels of the pods that back the service.'),
  ],
  cells: (svc, now) => [
    svc.metadata?.name ?? '',
    svc.spec?.type ?? '',
    // a v1 clusterIP alone converts to clusterIPs[0]
    svc.spec?.clusterIPs?.[0] ?? (svc.spec?.clusterIP || '<none>'),
    serviceExternalIP(svc),
    servicePorts(svc),
    age(svc, now),
    formatLabels(svc.spec?.selector),
  ],
};

interface Subset {
  addresses?: { ip: string }[];
  ports?: { port: number }[];
}

/** Up to three "ip:port" endpoints (bare IPs for port-less subsets), then " + N more...". */
export function formatEndpoints(subsets: Subset[] | undefined): string {
  if (!subsets || subsets.length === 0) return '<none>';
  const list: string[] = [];
  let total = 0;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    if (ports.length === 0) {
      total += addresses.length;
      list.push(...addresses.map((a) => a.ip));
      continue;
    }
    for (const port of ports) {
      total += addresses.length;
      list.push(...addresses.map((a) => joinHostPort(a.ip, port.port)));
    }
  }
  return listWithMore(list, 3, total);
}

export const endpointsPrinter = simplePrinter(
  [column('Endpoints', 'The addresses and ports the service routes to.')],
  (obj) => [formatEndpoints(obj.subsets)],
);

const orUnset = (s: string): string => s || '<unset>';

export const endpointSlicePrinter = simplePrinter(
  [
    column('AddressType', 'The type of the addresses in this slice: IPv4, IPv6 or FQDN.'),
    column('Ports', 'The ports of the endpoints in this slice.'),
    column('Endpoints', 'The addresses of the endpoints in this slice.'),
  ],
  (obj) => {
    const ports: { port?: number; name?: string }[] = obj.ports ?? [];
    const portTexts = ports.map((p) => (p.port !== undefined && p.port !== null ? String(p.port) : p.name ?? '*'));
    const endpoints: { addresses?: string[] }[] = obj.endpoints ?? [];
    const addresses = endpoints.flatMap((e) => e.addresses ?? []);
    return [obj.addressType ?? '', orUnset(listWithMore(portTexts, 3)), orUnset(listWithMore(addresses, 3))];
  },
);
