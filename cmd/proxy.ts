// `mini-kube proxy`: the node's service proxy (kube-proxy's place in the cluster, its flags named as that binary's).
import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import { hostname, networkInterfaces } from 'node:os';
import { pino } from 'pino';
import { contains, ipToInt, parseIpv4Cidr } from '../pkg/apimachinery/ipv4.js';
import { exitWithFlagError, flag, FlagError, parseOrExit } from './flags.js';
import { onShutdownSignal } from './signals.js';

const summary = 'Runs the service proxy: ClusterIPs (when root) and NodePorts forwarded to the Services\' ready endpoints.';

const proxyFlags = {
  kubeconfig: flag.string('', 'Path to a kubeconfig for the apiserver (default $KUBECONFIG or ~/.kube/config)'),
  'hostname-override': flag.string('', 'The node this proxy runs for (default: the host name); its endpoints are the Local ones of the traffic policies, but for a connection from another node\'s pod or address, or sent to another node\'s address, which are that node\'s'),
  'nodeport-addresses': flag.list([], 'CIDRs of the host addresses NodePorts listen on (default: every address)'),
  'sync-period': flag.string('30s', 'How often everything is resynced (what failed to open is retried)'),
  v: flag.int(0, 'Log verbosity (4: debug)'),
};

/** The host's IPv4 addresses inside the given CIDRs; none given: the wildcard. */
const nodePortHosts = (cidrs: string[]): string[] => {
  if (!cidrs.length) return ['0.0.0.0'];
  const ranges = cidrs.map((c) => {
    try {
      return parseIpv4Cidr(c);
    } catch {
      throw new FlagError(`invalid argument "${c}" for "--nodeport-addresses" flag: not an IPv4 CIDR`);
    }
  });
  const local = Object.values(networkInterfaces()).flat().flatMap((a) => (a && a.family === 'IPv4' ? [a.address] : []));
  return local.filter((ip) => ranges.some((r) => contains(r, ipToInt(ip))));
};

export const main = async (argv: readonly string[]): Promise<void> => {
  const { values: v } = parseOrExit('proxy', summary, argv, proxyFlags);
  let hosts: string[];
  let syncPeriodMs: number;
  try {
    hosts = nodePortHosts(v['nodeport-addresses']);
    const period = parseGoDurationMs(v['sync-period']);
    if (period === undefined || period <= 0) throw new FlagError(`invalid argument "${v['sync-period']}" for "--sync-period" flag: not a positive duration`);
    syncPeriodMs = period;
  } catch (e) {
    if (e instanceof FlagError) exitWithFlagError('proxy', e);
    throw e;
  }
  const logger = pino({ name: 'proxy', level: v.v >= 4 ? 'debug' : 'info' }, pino.destination(2));
  const { Client } = await import('../pkg/client/index.js');
  const { startProxy } = await import('../pkg/proxy/index.js');
  const client = await Client.fromKubeconfig(v.kubeconfig || undefined, { qps: 50, burst: 100, userAgent: 'mini-kube-proxy' });
  const proxy = await startProxy({
    client, logger, node: v['hostname-override'] || hostname(), nodePortAddresses: hosts, syncPeriodMs,
    bindClusterIPs: process.platform === 'linux' && process.getuid?.() === 0,
  });
  onShutdownSignal(async () => { await proxy.stop(); await client.close(); });
  await proxy.ready;
};
