// `mini-kube dns`: the cluster DNS (CoreDNS's place: its kubernetes plugin for the cluster domain, its forward plugin
// to the host's resolvers for everything else).
import { readFile } from 'node:fs/promises';
import { pino } from 'pino';
import { parseResolvConf } from '../pkg/kubelet/sandbox/dns.js';
import { flag, parseOrExit } from './flags.js';
import { onShutdownSignal } from './signals.js';

const summary = 'Runs the cluster DNS: Services and their endpoints by name in the cluster domain, other names from the host\'s resolvers.';

const dnsFlags = {
  kubeconfig: flag.string('', 'Path to a kubeconfig for the apiserver (default $KUBECONFIG or ~/.kube/config)'),
  'cluster-domain': flag.string('cluster.local', 'The domain of the cluster: <service>.<namespace>.svc.<domain>'),
  'bind-address': flag.string('0.0.0.0', 'Address to listen on (UDP and TCP)'),
  port: flag.int(53, 'Port to listen on (0: any free port; under 1024 needs root)'),
  'resolv-conf': flag.string('/etc/resolv.conf', 'Resolver configuration whose nameservers answer names outside the cluster domain'),
  v: flag.int(0, 'Log verbosity (4: debug)'),
};

export const main = async (argv: readonly string[]): Promise<void> => {
  const { values: v } = parseOrExit('dns', summary, argv, dnsFlags);
  const logger = pino({ name: 'dns', level: v.v >= 4 ? 'debug' : 'info' }, pino.destination(2));
  const servers = parseResolvConf(await readFile(v['resolv-conf'], 'utf8').catch(() => '')).servers;
  if (!servers.length) logger.warn({ file: v['resolv-conf'] }, 'no nameserver to forward to: names outside the cluster domain will fail');
  const { Client } = await import('../pkg/client/index.js');
  const { startDns } = await import('../pkg/dns/index.js');
  const client = await Client.fromKubeconfig(v.kubeconfig || undefined, { qps: 50, burst: 100, userAgent: 'mini-kube-dns' });
  try {
    const dns = await startDns({
      client, logger, zone: v['cluster-domain'], host: v['bind-address'], port: v.port,
      upstreams: servers.map((host) => ({ host, port: 53 })),
    });
    onShutdownSignal(async () => { await dns.stop(); await client.close(); });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const hint = code === 'EACCES' ? ' (ports under 1024 need root: choose another with --port)' : code === 'EADDRINUSE' ? ' (choose another with --port)' : '';
    logger.error({ err }, `dns could not start${hint}`);
    process.exit(1);
  }
};
