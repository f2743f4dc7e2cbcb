// `mini-kube metrics-server`: the resource metrics API (metrics.k8s.io/v1beta1, behind an APIService) from every
// kubelet's /metrics/resource, as kubernetes-sigs/metrics-server; its flags are named as that binary's.
import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import { readFile } from 'node:fs/promises';
import { pino } from 'pino';
import { exitWithFlagError, flag, FlagError, parseOrExit } from './flags.js';
import { onShutdownSignal } from './signals.js';

const summary = 'Runs metrics-server: scrapes the kubelets\' resource metrics and serves them as metrics.k8s.io for kubectl top and autoscalers.';

const metricsServerFlags = {
  kubeconfig: flag.string('', 'Path to a kubeconfig for the apiserver and the kubelets (default $KUBECONFIG or ~/.kube/config)'),
  'metric-resolution': flag.string('60s', 'How often the kubelets are scraped; usage is the rate between two scrapes (metrics-server refuses under 10s; mini-kube allows down to 1s)'),
  'secure-port': flag.int(443, 'Port of the HTTPS server (0: any free port)'),
  'bind-address': flag.string('0.0.0.0', 'Address the HTTPS server listens on'),
  'tls-cert-file': flag.string('', 'Serving certificate (PEM, with its chain); default: a self-signed one for localhost'),
  'tls-private-key-file': flag.string('', 'Key of --tls-cert-file'),
  'kubelet-port': flag.int(10250, 'Port of the kubelets'),
  'kubelet-use-node-status-port': flag.bool(false, 'Use the port the Node reports (status.daemonEndpoints); takes precedence over --kubelet-port'),
  'kubelet-preferred-address-types': flag.list(['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'], 'Node address types in order of preference'),
  'kubelet-insecure-tls': flag.bool(false, 'Do not verify the kubelets\' serving certificates (theirs are self-signed unless given)'),
  'kubelet-certificate-authority': flag.string('', 'CA of the kubelets\' serving certificates (default: the kubeconfig\'s CA)'),
  'kubelet-client-certificate': flag.string('', 'Client certificate for the kubelets (default: the kubeconfig\'s credentials)'),
  'kubelet-client-key': flag.string('', 'Key of --kubelet-client-certificate'),
  'kubelet-request-timeout': flag.string('10s', 'Timeout of one request to a kubelet'),
  'node-selector': flag.string('', 'Label selector of the nodes to scrape and serve'),
  v: flag.int(0, 'Log verbosity (4: debug)'),
};

const duration = (name: string, text: string, minMs: number): number => {
  const ms = parseGoDurationMs(text);
  if (ms === undefined) throw new FlagError(`invalid argument "${text}" for "--${name}" flag: not a duration`);
  if (ms < minMs) throw new FlagError(`--${name} should be a time duration at least ${minMs / 1000}s, but value ${text} provided`);
  return ms;
};

export const main = async (argv: readonly string[]): Promise<void> => {
  const { values: v } = parseOrExit('metrics-server', summary, argv, metricsServerFlags);
  let resolutionMs: number;
  let timeoutMs: number;
  try {
    resolutionMs = duration('metric-resolution', v['metric-resolution'], 1000);
    timeoutMs = duration('kubelet-request-timeout', v['kubelet-request-timeout'], 1);
    if (!v['tls-cert-file'] !== !v['tls-private-key-file']) throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
    if (!v['kubelet-client-certificate'] !== !v['kubelet-client-key']) throw new FlagError('--kubelet-client-certificate and --kubelet-client-key must be given together');
    if (v['kubelet-insecure-tls'] && v['kubelet-certificate-authority']) throw new FlagError('cannot use both --kubelet-certificate-authority and --kubelet-insecure-tls');
  } catch (e) {
    if (e instanceof FlagError) exitWithFlagError('metrics-server', e);
    throw e;
  }
  const logger = pino({ name: 'metrics-server', level: v.v >= 4 ? 'debug' : 'info' }, pino.destination(2));
  const { Client } = await import('../pkg/client/index.js');
  const { MetricsServer } = await import('../pkg/metrics-server/index.js');
  const client = await Client.fromKubeconfig(v.kubeconfig || undefined, { qps: 50, burst: 100, userAgent: 'mini-kube-metrics-server' });
  const rest = client.rest.config;
  const [kubeletCert, kubeletKey, kubeletCa] = await Promise.all([
    v['kubelet-client-certificate'] ? readFile(v['kubelet-client-certificate'], 'utf8') : rest.certData,
    v['kubelet-client-key'] ? readFile(v['kubelet-client-key'], 'utf8') : rest.keyData,
    v['kubelet-certificate-authority'] ? readFile(v['kubelet-certificate-authority'], 'utf8') : rest.caData,
  ]);
  const tls = v['tls-cert-file'] ? { cert: await readFile(v['tls-cert-file'], 'utf8'), key: await readFile(v['tls-private-key-file'], 'utf8') } : undefined;
  const server = new MetricsServer({
    client, logger, resolutionMs, bindAddress: v['bind-address'], port: v['secure-port'], ...(tls ? { tls } : {}),
    ...(v['node-selector'] ? { nodeSelector: v['node-selector'] } : {}),
    kubelet: {
      preferredAddressTypes: v['kubelet-preferred-address-types'], port: v['kubelet-port'], useNodeStatusPort: v['kubelet-use-node-status-port'],
      insecure: v['kubelet-insecure-tls'], ...(kubeletCa ? { ca: kubeletCa } : {}), ...(kubeletCert ? { cert: kubeletCert, key: kubeletKey } : {}),
      ...(!kubeletCert && rest.bearerToken ? { bearerToken: rest.bearerToken } : {}), timeoutMs,
    },
  });
  const stop = new AbortController();
  onShutdownSignal(async () => { stop.abort(); await client.close(); });
  try {
    await server.start(stop.signal);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const hint = code === 'EACCES' ? ` (ports under 1024 need root: choose another with --secure-port)` : code === 'EADDRINUSE' ? ' (choose another with --secure-port)' : '';
    logger.error({ err }, `metrics-server could not start${hint}`);
    process.exit(1);
  }
};

