// ClusterIPs made addresses of the host, as kube-proxy's IPVS mode binds them to its dummy interface kube-ipvs0: a
// dummy link holds each as a /32, so the proxy listens on them, and traffic from the host and from pods (routed out
// of their network namespace through the bridge's gateway, which is the host) reaches it. Needs root and iproute2.
import { createHash } from 'node:crypto';
import { exists, gone, run } from '../host/command.js';

/** One link per apiserver, so that two clusters on one machine do not take each other's addresses away. */
export const serviceLinkName = (apiserverUrl: string): string => `mks-${createHash('sha256').update(apiserverUrl).digest('hex').slice(0, 10)}`;

export class ServiceAddresses {
  private constructor(readonly link: string) {}

  /** Creates the link, or takes over (and empties) the one a previous run left. */
  static async open(link: string): Promise<ServiceAddresses> {
    // a kernel without the dummy driver (gVisor, some containers) holds them on an empty bridge just as well
    const add = (type: string): Promise<unknown> => run(['ip', 'link', 'add', link, 'type', type]).catch((e: unknown) => { if (!exists(e)) throw e; });
    await add('dummy').catch(() => add('bridge'));
    await run(['ip', 'addr', 'flush', 'dev', link]);
    await run(['ip', 'link', 'set', link, 'up']);
    return new ServiceAddresses(link);
  }

  async add(ip: string): Promise<void> {
    await run(['ip', 'addr', 'add', `${ip}/32`, 'dev', this.link]).catch((e: unknown) => { if (!exists(e)) throw e; });
  }

  async remove(ip: string): Promise<void> {
    await run(['ip', 'addr', 'del', `${ip}/32`, 'dev', this.link]).catch((e: unknown) => { if (!gone(e)) throw e; });
  }

  async close(): Promise<void> {
    await run(['ip', 'link', 'del', this.link]).catch((e: unknown) => { if (!gone(e)) throw e; });
  }
}
