// Which node a connection is "local" to. Upstream runs a kube-proxy on every node, which calls an endpoint local when
// its nodeName is that node's. `mini-kube up` runs all its nodes' kubelets on one host, and one proxy for all of them:
// the ClusterIPs are one set of host addresses, which one process per node could not each listen on. So the proxy
// works out, per connection, the node whose kube-proxy would have handled it: a pod's connection its node's (the
// node whose podCIDR holds the pod's address), one sent to a node's address (its NodePort, a load balancer IP, which
// ServiceLB takes from the nodes' addresses) that node's; what neither tells apart goes by the proxy's own node.
import { networkInterfaces } from 'node:os';
import { contains, ipToInt, parseIpv4Cidr, type Ipv4Cidr } from '../apimachinery/ipv4.js';
import type { KubeObject } from '../../api/types.js';

interface NodeFields {
  spec?: { podCIDR?: string; podCIDRs?: string[] };
  status?: { addresses?: { type?: string; address?: string }[] };
}

const toInt = (ip: string): number | undefined => {
  try {
    return ipToInt(ip.startsWith('::ffff:') ? ip.slice(7) : ip);
  } catch {
    return undefined;
  }
};

const fieldsOf = (node: KubeObject): { ranges: string[]; addresses: string[] } => {
  const n = node as NodeFields;
  return {
    ranges: n.spec?.podCIDRs ?? (n.spec?.podCIDR ? [n.spec.podCIDR] : []),
    addresses: (n.status?.addresses ?? []).flatMap((a) => ((a.type === 'InternalIP' || a.type === 'ExternalIP') && a.address ? [a.address] : [])),
  };
};

/** What of a Node the topology reads: its pod ranges and addresses (a change in them calls for a sync). */
export const placementOf = (node: KubeObject): string => JSON.stringify(fieldsOf(node));

/** The host's own IPv4 addresses (iptables' src-type LOCAL; all of 127.0.0.0/8 is, whatever lo lists). */
export const hostAddresses = (): string[] =>
  Object.values(networkInterfaces()).flat().flatMap((a) => (a && a.family === 'IPv4' ? [a.address] : []));

export class NodeTopology {
  private readonly podRanges: { range: Ipv4Cidr; node: string }[] = [];
  /** By IPv4 address as a number: the nodes that report it (InternalIP, ExternalIP); several share one when bound alike. */
  private readonly byAddress = new Map<number, string[]>();
  private readonly host: Set<number>;

  /** `self`: the proxy's own node (--hostname-override). */
  constructor(nodes: KubeObject[], readonly self: string, host: Iterable<string>) {
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      const { ranges, addresses } = fieldsOf(node);
      for (const r of ranges) {
        try {
          this.podRanges.push({ range: parseIpv4Cidr(r), node: name });
        } catch { /* an IPv6 range: pods of that family are not proxied */ }
      }
      for (const a of addresses) {
        const n = toInt(a);
        if (n === undefined) continue;
        const at = this.byAddress.get(n);
        if (!at) this.byAddress.set(n, [name]); else if (!at.includes(name)) at.push(name);
      }
    }
    this.host = new Set([...host].flatMap((a) => toInt(a) ?? []));
  }

  /** The node of the pod at `ip` (its podCIDR holds it), if it is a pod's address. */
  podNode(ip: string): string | undefined {
    const n = toInt(ip);
    return n === undefined ? undefined : this.podRanges.find((p) => contains(p.range, n))?.node;
  }

  /** The nodes that have `ip` as an address. */
  nodesAt(ip: string): string[] {
    const n = toInt(ip);
    return (n !== undefined && this.byAddress.get(n)) || [];
  }

  /** The nodes traffic sent to `destination` arrived at: those with that address, else (or unknown) the proxy's own. */
  receivers(destination: string | undefined): string[] {
    const at = destination === undefined ? [] : this.nodesAt(destination);
    return at.length ? at : [this.self];
  }

  private isHostAddress(ip: string): boolean {
    const n = toInt(ip);
    return n !== undefined && (Math.floor(n / 2 ** 24) === 127 || this.host.has(n));
  }

  /**
   * The nodes whose endpoints a connection from `source` to a ClusterIP may use under internalTrafficPolicy Local: a
   * pod's node; for the host's own traffic, the node with that address, else the proxy's own.
   */
  internal(source: string): string[] {
    const pod = this.podNode(source);
    if (pod) return [pod];
    const at = this.nodesAt(source);
    return at.length ? at : [this.self];
  }

  /**
   * The nodes whose endpoints a connection from `source` to a NodePort or load balancer IP at `destination` (unknown
   * for UDP to the wildcard address) may use under externalTrafficPolicy Local; undefined: any endpoint. As kube-proxy:
   * a pod's traffic, and the node's own (source on the node receiving it), go to any endpoint; anything else stays on
   * the node it arrived at. A host address that is no node's is every node's own; one node's address sending to
   * another's is, as between two machines, that other node's external traffic.
   */
  external(source: string, destination: string | undefined): string[] | undefined {
    if (this.podNode(source)) return undefined;
    const to = this.receivers(destination);
    if (this.isHostAddress(source)) {
      const from = this.nodesAt(source);
      if (!from.length || from.some((n) => to.includes(n))) return undefined;
    }
    return to;
  }
}
