// Host-local IPAM, as CNI's host-local plugin: one file per allocated address under DIR (named by the address,
// holding the owner's id), created exclusively so no address is handed out twice, and `last_reserved_ip` so
// allocation goes round the range instead of reusing a just-released address at once. The files outlive the
// kubelet, so a restarted kubelet never hands out an address a surviving sandbox still holds, and kubelets sharing
// a range share the directory.
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contains, gatewayOf, intToIp, ipToInt, parseCidr, podRange, type Ipv4Cidr } from './cidr.js';

const LAST = 'last_reserved_ip';

export class HostLocalIpam {
  readonly cidr: Ipv4Cidr;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dir: string, cidr: string) {
    this.cidr = parseCidr(cidr);
  }

  get gateway(): string { return gatewayOf(this.cidr); }

  /** Reserves the next free address for `id` (an id that already holds one gets it again). */
  allocate(id: string): Promise<string> {
    return this.serial(async () => {
      await mkdir(this.dir, { recursive: true });
      const held = await this.list();
      const mine = [...held].find(([, owner]) => owner === id);
      if (mine) return mine[0];
      const { first, last } = podRange(this.cidr);
      const lastReserved = await readFile(join(this.dir, LAST), 'utf8').then((t) => ipToInt(t.trim())).catch(() => last);
      const start = lastReserved >= first && lastReserved <= last ? lastReserved : last;
      const size = last - first + 1;
      for (let i = 1; i <= size; i++) {
        const ip = intToIp(first + ((start - first + i) % size));
        if (held.has(ip)) continue;
        try {
          await writeFile(join(this.dir, ip), id, { flag: 'wx' });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw e;
        }
        await writeFile(join(this.dir, LAST), ip);
        return ip;
      }
      throw new Error(`no IP addresses available in range set: ${intToIp(first)}-${intToIp(last)}`);
    });
  }

  /** Frees whatever `id` holds. */
  release(id: string): Promise<void> {
    return this.serial(async () => {
      for (const [ip, owner] of await this.list()) if (owner === id) await rm(join(this.dir, ip), { force: true });
    });
  }

  /** Address → owner id of every reservation in this range. */
  async list(): Promise<Map<string, string>> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const out = new Map<string, string>();
    for (const name of names) {
      let n: number;
      try { n = ipToInt(name); } catch { continue; }
      if (!contains(this.cidr, n)) continue;
      const owner = await readFile(join(this.dir, name), 'utf8').catch(() => undefined);
      if (owner !== undefined) out.set(name, owner.trim());
    }
    return out;
  }

  /** When an address was reserved (ms since the epoch), if it is. */
  async reservedAt(ip: string): Promise<number | undefined> {
    return (await stat(join(this.dir, ip)).catch(() => undefined))?.mtimeMs;
  }

  /** One allocation at a time within this process (the files guard against other processes). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
