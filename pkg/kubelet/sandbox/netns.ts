// The node's pod network with iproute2, as CNI's bridge plugin builds it: one Linux bridge per pod range whose address
// is the range's gateway, and per sandbox a named network namespace (ip netns) holding `eth0`, one end of a veth
// pair whose other end is on the bridge, with the pod's address and a default route via the gateway. Bridges of
// several nodes on one machine reach each other through the host's connected routes once it forwards IPv4.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { exists, gone, run } from '../../host/command.js';
import { contains, formatCidr, parseIpv4Cidr, type Ipv4Cidr } from '../../apimachinery/ipv4.js';
import { gatewayOf } from './cidr.js';

/** Several `ip` commands in one process (`ip -batch`, which stops at the first that fails). */
const ipBatch = (lines: string[], netns?: string): Promise<string> =>
  run(['ip', ...(netns ? ['-n', netns] : []), '-batch', '-'], lines.map((l) => `${l}\n`).join(''));

/**
 * The bridge of a pod range, named for the range (mk-0af40000-24 for 10.244.0.0/24): the host has one per range, so
 * nodes given the same range (by clusters on one machine, one after another or at once) share its bridge and its
 * addresses instead of holding one gateway on two links, whose two connected routes made the pods behind the
 * second unreachable.
 */
export const bridgeName = (c: Ipv4Cidr): string => `mk-${c.network.toString(16).padStart(8, '0')}-${c.prefix}`;

/** The named network namespace of a sandbox (a file under /run/netns). */
export const netnsName = (sandboxId: string): string => `mk-${sandboxId.slice(0, 16)}`;

/** The host end of a sandbox's veth pair. */
export const vethName = (sandboxId: string): string => `mkv${sandboxId.slice(0, 12)}`;

/** Two ranges overlap when one holds the other's first address. */
const overlap = (a: Ipv4Cidr, b: Ipv4Cidr): boolean => contains(a, b.network) || contains(b, a.network);

/** Every IPv4 address of the host as `ip -o addr` shows it: the link and the address with its prefix. */
const hostAddresses = async (): Promise<{ link: string; address: string; cidr: Ipv4Cidr }[]> =>
  [...(await run(['ip', '-4', '-o', 'addr', 'show'])).matchAll(/^\d+:\s+([^\s@]+)\S*\s+inet\s+(\S+)/gm)]
    .map((m) => ({ link: m[1]!, address: m[2]!, cidr: parseIpv4Cidr(m[2]!) }));

/** The ports of a bridge; undefined when the link is no bridge. */
const bridgePorts = (link: string): Promise<string[] | undefined> => readdir(`/sys/class/net/${link}/brif`).catch(() => undefined);

export class NodeBridge {
  readonly name: string;
  private readonly gateway: string;
  private readonly own: string;
  private ready?: Promise<void>;

  constructor(private readonly cidr: Ipv4Cidr, private readonly logger?: Logger) {
    this.name = bridgeName(cidr);
    this.gateway = gatewayOf(cidr);
    this.own = `${this.gateway}/${cidr.prefix}`;
  }

  /**
   * Creates the bridge with the gateway address (once; an existing one is adopted) and turns on forwarding. The
   * bridge stays when the kubelet stops, as CNI's bridge plugin leaves it: another kubelet may share it.
   */
  ensure(): Promise<void> {
    this.ready ??= (async () => {
      await run(['ip', 'link', 'add', this.name, 'type', 'bridge']).catch((e: unknown) => { if (!exists(e)) throw e; });
      await run(['ip', 'addr', 'add', this.own, 'dev', this.name]).catch((e: unknown) => { if (!exists(e)) throw e; });
      await this.clearOverlaps();
      await run(['ip', 'link', 'set', this.name, 'up']);
      // what CNI's bridge plugin does for a gateway: pods of other bridges (other nodes here) are routed by the host
      const forward = '/proc/sys/net/ipv4/ip_forward';
      if ((await readFile(forward, 'utf8').catch(() => '1')).trim() !== '1') await writeFile(forward, '1').catch(() => undefined);
    })();
    this.ready.catch(() => { this.ready = undefined; });
    return this.ready;
  }

  /**
   * Another address of the host in this range makes a connected route that may shadow the bridge's own: replies to
   * its pods went out of the other link. A mini-kube bridge with no port left (by a cluster that is gone, or named
   * for its node as bridges were before) loses that address; anything else is the host's, and only said.
   */
  private async clearOverlaps(): Promise<void> {
    for (const a of await hostAddresses()) {
      if ((a.link === this.name && a.address === this.own) || !overlap(a.cidr, this.cidr)) continue;
      const ports = a.link.startsWith('mk') ? await bridgePorts(a.link) : undefined;
      if (a.link !== this.name && ports?.length !== 0) {
        this.logger?.warn({ link: a.link, address: a.address, podCidr: formatCidr(this.cidr) },
          'another link of the host holds an address in this node\'s pod range: its pods may be unreachable from the host until it goes (another cluster on this machine with the same range, or a network of the host\'s)');
        continue;
      }
      await run(['ip', 'addr', 'del', a.address, 'dev', a.link]).catch((e: unknown) => { if (!gone(e)) throw e; });
      this.logger?.info({ link: a.link, address: a.address }, 'removed an address in this node\'s pod range from a bridge nothing uses');
    }
  }

  /** A namespace for the sandbox, wired to the bridge with `ip`; undone if any step fails. */
  async attach(sandboxId: string, ip: string): Promise<string> {
    await this.ensure();
    const ns = netnsName(sandboxId);
    const veth = vethName(sandboxId);
    try {
      // two processes instead of seven: the node's side, then the namespace's
      await ipBatch([`netns add ${ns}`, `link add ${veth} type veth peer name eth0 netns ${ns}`, `link set ${veth} master ${this.name} up`]);
      await ipBatch([`addr add ${ip}/${this.cidr.prefix} dev eth0`, 'link set lo up', 'link set eth0 up', `route add default via ${this.gateway}`], ns);
    } catch (e) {
      await detach(sandboxId).catch(() => undefined);
      throw e;
    }
    return ns;
  }
}

/** Removes a sandbox's namespace and its veth pair (whatever of them exists). */
export const detach = async (sandboxId: string): Promise<void> => {
  await run(['ip', 'link', 'del', vethName(sandboxId)]).catch((e: unknown) => { if (!gone(e)) throw e; });
  await run(['ip', 'netns', 'del', netnsName(sandboxId)]).catch((e: unknown) => { if (!gone(e)) throw e; });
};

/** The processes still in a named namespace. */
export const netnsPids = async (ns: string): Promise<number[]> =>
  (await run(['ip', 'netns', 'pids', ns]).catch(() => '')).split('\n').filter(Boolean).map(Number);
