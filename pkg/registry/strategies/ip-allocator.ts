// ClusterIP allocation from the service CIDR (upstream: registry/core/service/ipallocator). The
// network address, the broadcast address and the first address (the kubernetes service) are
// never handed out at random.
import { badRequest } from '../../apimachinery/errors.js';

const toInt = (ip: string): number => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
const toIp = (n: number): string => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');

export class IpAllocator {
  private readonly base: number;
  private readonly size: number;
  private readonly used = new Set<number>();
  private next = 0;

  constructor(readonly cidr: string) {
    const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cidr);
    if (!m || Number(m[2]) < 8 || Number(m[2]) > 30) throw new Error(`--service-cluster-ip-range ${cidr}: want an IPv4 CIDR between /8 and /30`);
    const bits = 32 - Number(m[2]);
    this.size = 2 ** bits;
    this.base = Math.floor(toInt(m[1]!) / this.size) * this.size;
  }

  /** The address of the kubernetes service: the first usable one. */
  first(): string {
    return toIp(this.base + 1);
  }

  contains(ip: string): boolean {
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return false;
    const n = toInt(ip);
    return n > this.base && n < this.base + this.size - 1;
  }

  /** Takes a specific address (a client-chosen clusterIP, or one found at start-up). */
  allocate(ip: string): void {
    if (!this.contains(ip)) throw badRequest(`failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr}`);
    const n = toInt(ip) - this.base;
    if (this.used.has(n)) throw new AllocatedError(ip);
    this.used.add(n);
  }

  allocateNext(): string {
    for (let i = 0; i < this.size - 3; i++) {
      const n = 2 + ((this.next + i) % (this.size - 3));
      if (!this.used.has(n)) {
        this.used.add(n);
        this.next = n - 1;
        return toIp(this.base + n);
      }
    }
    throw badRequest(`failed to allocate a serviceIP: range is full`);
  }

  release(ip: string): void {
    if (this.contains(ip)) this.used.delete(toInt(ip) - this.base);
  }
}

export class AllocatedError extends Error {
  constructor(readonly ip: string) {
    super(`provided IP is already allocated`);
  }
}

/** NodePorts from 30000-32767, the same way. */
export class PortAllocator {
  private readonly used = new Set<number>();
  private next = 0;
  constructor(readonly min = 30000, readonly max = 32767) {}

  allocate(port: number): void {
    if (port < this.min || port > this.max) throw new RangeError(`provided port is not in the valid range. The range of valid ports is ${this.min}-${this.max}`);
    if (this.used.has(port)) throw new AllocatedError(String(port));
    this.used.add(port);
  }

  allocateNext(): number {
    const span = this.max - this.min + 1;
    for (let i = 0; i < span; i++) {
      const p = this.min + ((this.next + i) % span);
      if (!this.used.has(p)) {
        this.used.add(p);
        this.next = p - this.min + 1;
        return p;
      }
    }
    throw badRequest('failed to allocate a nodePort: range is full');
  }

  release(port: number): void {
    this.used.delete(port);
  }
}
