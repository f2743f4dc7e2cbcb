// The node's pod network with iproute2, as CNI's bridge plugin builds it: one Linux bridge per node whose address is
// the podCIDR's gateway, and per sandbox a named network namespace (ip netns) holding `eth0`, one end of a veth
// pair whose other end is on the bridge, with the pod's address and a default route via the gateway. Bridges of
// several nodes on one machine reach each other through the host's connected routes once it forwards IPv4.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { exists, gone, run } from '../../host/command.js';

/** Several `ip` commands in one process (`ip -batch`, which stops at the first that fails). */
const ipBatch = (lines: string[], netns?: string): Promise<string> =>
  run(['ip', ...(netns ? ['-n', netns] : []), '-batch', '-'], lines.map((l) => `${l}\n`).join(''));


const shortHash = (s: string, n: number): string => createHash('sha256').update(s).digest('hex').slice(0, n);

/** The bridge of a node: mk-<node> when that fits a Linux interface name (15 characters), else mk-<hash>. */
export const bridgeName = (node: string): string => (/^[a-z0-9-]{1,12}$/.test(node) ? `mk-${node}` : `mk-${shortHash(node, 12)}`);

/** The named network namespace of a sandbox (a file under /run/netns). */
export const netnsName = (sandboxId: string): string => `mk-${sandboxId.slice(0, 16)}`;

/** The host end of a sandbox's veth pair. */
export const vethName = (sandboxId: string): string => `mkv${sandboxId.slice(0, 12)}`;

export class NodeBridge {
  private ready?: Promise<void>;

  constructor(readonly name: string, private readonly gateway: string, private readonly prefix: number) {}

  /**
   * Creates the bridge with the gateway address (once; an existing one is adopted) and turns on forwarding. The
   * bridge stays when the kubelet stops, as CNI's bridge plugin leaves it: another kubelet may share it.
   */
  ensure(): Promise<void> {
    this.ready ??= (async () => {
      await run(['ip', 'link', 'add', this.name, 'type', 'bridge']).catch((e: unknown) => { if (!exists(e)) throw e; });
      await run(['ip', 'addr', 'add', `${this.gateway}/${this.prefix}`, 'dev', this.name]).catch((e: unknown) => { if (!exists(e)) throw e; });
      // A bridge left by an earlier cluster whose node of this name had another podCIDR keeps that gateway, and with
      // it a connected route to that range which shadows the bridge now holding it: pods there became unreachable.
      const own = `${this.gateway}/${this.prefix}`;
      const stale = [...(await run(['ip', '-4', '-o', 'addr', 'show', 'dev', this.name])).matchAll(/\binet (\S+)/g)].map((m) => m[1]!).filter((a) => a !== own);
      for (const a of stale) await run(['ip', 'addr', 'del', a, 'dev', this.name]).catch((e: unknown) => { if (!gone(e)) throw e; });
      await run(['ip', 'link', 'set', this.name, 'up']);
      // what CNI's bridge plugin does for a gateway: pods of other bridges (other nodes here) are routed by the host
      const forward = '/proc/sys/net/ipv4/ip_forward';
      if ((await readFile(forward, 'utf8').catch(() => '1')).trim() !== '1') await writeFile(forward, '1').catch(() => undefined);
    })();
    this.ready.catch(() => { this.ready = undefined; });
    return this.ready;
  }

  /** A namespace for the sandbox, wired to the bridge with `ip`; undone if any step fails. */
  async attach(sandboxId: string, ip: string): Promise<string> {
    await this.ensure();
    const ns = netnsName(sandboxId);
    const veth = vethName(sandboxId);
    try {
      // two processes instead of seven: the node's side, then the namespace's
      await ipBatch([`netns add ${ns}`, `link add ${veth} type veth peer name eth0 netns ${ns}`, `link set ${veth} master ${this.name} up`]);
      await ipBatch([`addr add ${ip}/${this.prefix} dev eth0`, 'link set lo up', 'link set eth0 up', `route add default via ${this.gateway}`], ns);
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
