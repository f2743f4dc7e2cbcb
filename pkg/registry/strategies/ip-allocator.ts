// ClusterIP and NodePort allocation (upstream: registry/core/service/ipallocator and portallocator). As upstream's
// bitmap allocators with a reserved lower band (ServiceIPStaticSubrange, ServiceNodePortStaticSubrange): a dynamic
// allocation takes a random free value of the upper band first, and the lower band, meant for values users choose,
// only once the upper one is full. The network and broadcast addresses are never handed out. A dry run (upstream's
// dryRunRange and PortAllocationOperation) reserves nothing.
import { randomInt } from 'node:crypto';

/**
 * Upstream's calculateRangeOffset: the size of the lower band, `size / step` clamped to [min, max] (none below
 * `min` values).
 */
const lowerBand = (size: number, min: number, max: number, step: number): number => (size < min ? 0 : Math.min(max, Math.max(min, Math.floor(size / step))));

/** A random free index of [0, max): from a random start in the upper band [offset, max), then in [0, offset). */
const randomFree = (max: number, offset: number, used: (i: number) => boolean): number | undefined => {
  const upper = max - offset;
  const start = upper > 0 ? randomInt(upper) : 0;
  for (let i = 0; i < upper; i++) {
    const at = offset + ((start + i) % upper);
    if (!used(at)) return at;
  }
  const low = offset > 0 ? randomInt(offset) : 0;
  for (let i = 0; i < offset; i++) {
    const at = (low + i) % offset;
    if (!used(at)) return at;
  }
  return undefined;
};

const toInt = (ip: string): number => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
const toIp = (n: number): string => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');

export class IpAllocator {
  /** The one family a cluster of this server serves (its service range is IPv4). */
  readonly family = 'IPv4';
  private readonly base: number;
  private readonly size: number;
  private readonly used = new Set<number>();

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

  /**
   * Takes a specific address (a client-chosen clusterIP, or one found at start-up): upstream's ErrNotInRange is a
   * RangeError, its ErrAllocated an AllocatedError, for the caller to name the field. A dry run checks the range
   * alone: upstream does not look whether the address is free.
   */
  allocate(ip: string, dryRun = false): void {
    if (!this.contains(ip)) throw new RangeError(`the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr}`);
    if (dryRun) return;
    const n = toInt(ip) - this.base;
    if (this.used.has(n)) throw new AllocatedError(ip);
    this.used.add(n);
  }

  /** A free address; a dry run answers the network's own address without looking, as upstream's. */
  allocateNext(dryRun = false): string {
    if (dryRun) return toIp(this.base);
    // index i is address base + 1 + i: the network and broadcast addresses are outside the bitmap
    const max = this.size - 2;
    const i = randomFree(max, lowerBand(max, 16, 256, 16), (at) => this.used.has(at + 1));
    if (i === undefined) throw new RangeFullError();
    this.used.add(i + 1);
    return toIp(this.base + 1 + i);
  }

  release(ip: string): void {
    if (this.contains(ip)) this.used.delete(toInt(ip) - this.base);
  }
}

/** Upstream's ErrAllocated of the IP and port allocators. */
export class AllocatedError extends Error {
  constructor(readonly value: string, what: 'IP' | 'port' = 'IP') {
    super(`provided ${what} is already allocated`);
  }
}

/** Upstream's ErrFull, which each caller words in its own internal error. */
export class RangeFullError extends Error {
  constructor() {
    super('range is full');
  }
}

/** NodePorts from 30000-32767, the same way. */
export class PortAllocator {
  private readonly used = new Set<number>();
  constructor(readonly min = 30000, readonly max = 32767) {}

  allocate(port: number): void {
    if (port < this.min || port > this.max) throw new RangeError(`provided port is not in the valid range. The range of valid ports is ${this.min}-${this.max}`);
    if (this.used.has(port)) throw new AllocatedError(String(port), 'port');
    this.used.add(port);
  }

  allocateNext(): number {
    const span = this.max - this.min + 1;
    const i = randomFree(span, lowerBand(span, 16, 128, 32), (at) => this.used.has(this.min + at));
    if (i === undefined) throw new RangeFullError();
    this.used.add(this.min + i);
    return this.min + i;
  }

  /** Whether the port is taken (false outside the range, as upstream's Has). */
  has(port: number): boolean {
    return this.used.has(port);
  }

  release(port: number): void {
    this.used.delete(port);
  }
}

/** Upstream's dry-run AllocateNext starts past this placeholder when the operation took nothing yet. */
const DRY_RUN_FIRST_GUESS = 32768;

/**
 * Upstream's PortAllocationOperation: ports are taken at once and given back by rollback(); releases wait for
 * commit(), once the owner is stored. A dry run takes and gives back nothing: a requested port is refused only when
 * it is held already (outside the range it is not), and a dynamic one is a placeholder after the highest this
 * operation handed out (32769 first).
 */
export class PortOperation {
  private readonly allocated: number[] = [];
  private readonly deferred: number[] = [];

  constructor(private readonly ports: PortAllocator, readonly dryRun: boolean) {}

  allocate(port: number): void {
    if (this.dryRun) {
      if (!this.free(port)) throw new AllocatedError(String(port), 'port');
    } else {
      this.ports.allocate(port);
    }
    this.allocated.push(port);
  }

  allocateNext(): number {
    if (!this.dryRun) {
      const port = this.ports.allocateNext();
      this.allocated.push(port);
      return port;
    }
    const last = this.allocated.length ? Math.max(...this.allocated) : DRY_RUN_FIRST_GUESS;
    // upstream searches below 100 only: a dry run that took a port under 99 gets the next free one
    for (let port = last + 1; port < 100; port++) {
      if (this.free(port)) {
        this.allocated.push(port);
        return port;
      }
    }
    this.allocated.push(last + 1);
    return last + 1;
  }

  releaseDeferred(port: number): void {
    this.deferred.push(port);
  }

  commit(): void {
    if (!this.dryRun) for (const port of this.deferred) this.ports.release(port);
  }

  rollback(): void {
    if (!this.dryRun) for (const port of this.allocated) this.ports.release(port);
  }

  private free(port: number): boolean {
    return !this.ports.has(port) && !this.allocated.includes(port);
  }
}
