// Pod addresses of one simulated node, in memory: host-local IPAM's allocation order (round the range from the last
// address handed out, so a just-released address is not reused at once) without its files, for the fake runtime.
import { intToIp, ipToInt, parseCidr, podRange } from '../sandbox/cidr.js';

export class IpPool {
  private readonly first: number;
  private readonly last: number;
  private readonly held = new Set<number>();
  private cursor: number;

  constructor(readonly cidr: string) {
    ({ first: this.first, last: this.last } = podRange(parseCidr(cidr)));
    this.cursor = this.last;
  }

  /** The next free address; CNI host-local's error when the range is full. */
  allocate(): string {
    const size = this.last - this.first + 1;
    for (let i = 1; i <= size; i++) {
      const n = this.first + ((this.cursor - this.first + i) % size);
      if (this.held.has(n)) continue;
      this.held.add(n);
      this.cursor = n;
      return intToIp(n);
    }
    throw new Error(`no IP addresses available in range set: ${intToIp(this.first)}-${intToIp(this.last)}`);
  }

  release(ip: string): void {
    this.held.delete(ipToInt(ip));
  }
}
