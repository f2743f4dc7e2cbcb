// The node CIDRs of one cluster CIDR (upstream pkg/controller/nodeipam/ipam/cidrset): the cluster range cut into
// blocks of --node-cidr-mask-size, handed out round-robin from after the last one given, so a released block is
// not reused at once.
import { cidrSize, contains, formatCidr, parseIpv4Cidr, type Ipv4Cidr } from '../../apimachinery/ipv4.js';

/** Upstream's clusterSubnetMaxDiff: at most 2^16 node blocks per cluster CIDR. */
const MAX_MASK_DIFF = 16;

export const NO_CIDRS_LEFT = 'CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range';

export class CidrSet {
  readonly cluster: Ipv4Cidr;
  private readonly used: Uint8Array;
  private next = 0;
  private allocated = 0;

  constructor(clusterCidr: string, readonly nodeMaskSize: number) {
    this.cluster = parseIpv4Cidr(clusterCidr);
    if (nodeMaskSize < this.cluster.prefix || nodeMaskSize > 32 || nodeMaskSize - this.cluster.prefix > MAX_MASK_DIFF) {
      throw new Error(`New CIDR set failed; the node CIDR size is too big (cluster CIDR /${this.cluster.prefix}, node CIDR /${nodeMaskSize})`);
    }
    this.used = new Uint8Array(2 ** (nodeMaskSize - this.cluster.prefix));
  }

  /** The next free node block, as "10.244.3.0/24". */
  allocateNext(): string {
    const n = this.used.length;
    if (this.allocated >= n) throw new Error(NO_CIDRS_LEFT);
    for (let i = 0; i < n; i++) {
      const candidate = (this.next + i) % n;
      if (this.used[candidate]) continue;
      this.used[candidate] = 1;
      this.allocated++;
      this.next = (candidate + 1) % n;
      return formatCidr(this.blockAt(candidate));
    }
    throw new Error(NO_CIDRS_LEFT);
  }

  /** Marks every block the CIDR overlaps as used (a node's podCIDR given by someone else). */
  occupy(cidr: string): void { this.mark(cidr, 1); }

  /** Frees every block the CIDR overlaps. */
  release(cidr: string): void { this.mark(cidr, 0); }

  private blockAt(i: number): Ipv4Cidr {
    return { network: this.cluster.network + i * cidrSize(this.nodeMaskSize), prefix: this.nodeMaskSize };
  }

  private mark(cidr: string, value: 0 | 1): void {
    const c = parseIpv4Cidr(cidr);
    const last = c.network + cidrSize(c.prefix) - 1;
    if (!contains(this.cluster, c.network) && !contains(this.cluster, last) && !contains(c, this.cluster.network)) {
      throw new Error(`cidr ${cidr} is out the range of cluster cidr ${formatCidr(this.cluster)}`);
    }
    const block = cidrSize(this.nodeMaskSize);
    const from = Math.max(0, Math.floor((c.network - this.cluster.network) / block));
    const to = Math.min(this.used.length - 1, Math.floor((last - this.cluster.network) / block));
    for (let i = from; i <= to; i++) {
      if (this.used[i] !== value) this.allocated += value ? 1 : -1;
      this.used[i] = value;
    }
  }
}
