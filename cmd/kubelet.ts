// `mini-kube kubelet`: the node agent. Flags named as upstream's kubelet where they exist; `--runtime fake
// --nodes N` simulates N nodes (<node-name>-1 .. -N) in this one process, as kwok does.
import { parseQuantity, quantityValue } from '../pkg/apimachinery/quantity.js';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import { exitWithFlagError, flag, FlagError, parseOrExit } from './flags.js';
import { applyConfigFile, configz } from './kubelet-config.js';
import { packageRoot } from './package-info.js';
import { startHeapReclaimer } from './heap-reclaimer.js';
import { onShutdownSignal } from './signals.js';

const summary = 'Runs a node agent: registers the node, heartbeats, and runs the pods bound to it on a container runtime.';

export const kubeletFlags = {
  config: flag.string('', 'KubeletConfiguration file (kubelet.config.k8s.io/v1beta1, YAML or JSON); flags given on the command line override its fields'),
  kubeconfig: flag.string('', 'Path to a kubeconfig file with the node\'s credentials (default $KUBECONFIG or ~/.kube/config); with --bootstrap-kubeconfig, written there when missing or without a valid client certificate'),
  'bootstrap-kubeconfig': flag.string('', 'Kubeconfig (e.g. a bootstrap token) used to request the node\'s client certificate when --kubeconfig is missing or holds no valid one: a CertificateSigningRequest for system:node:<node-name>, approved and signed by the controller-manager, written to --cert-dir, and --kubeconfig written naming it'),
  'cert-dir': flag.string('', 'Directory of the kubelet\'s certificates (default <root-dir>/pki): its self-signed serving pair (kubelet.crt, kubelet.key, made at the first start) and, when bootstrapping, its client certificate (kubelet-client-current.pem)'),
  'node-name': flag.string('', 'Name of the node (default: the host name); with --nodes N, the prefix of <name>-1..<name>-N'),
  runtime: flag.string('process', 'Container runtime: real local processes, or simulated containers', ['process', 'fake']),
  'image-catalog': flag.string('', 'Image catalog of the process runtime (default config/images.json)'),
  'unknown-images': flag.string('simulate', 'Process runtime, an image not in the catalog: pulled as a stand-in that runs the pod\'s command or idles, with an ImageSimulated event (simulate), or not found: ErrImagePull, then ImagePullBackOff (fail)', ['simulate', 'fail']),
  'root-dir': flag.string('./.mini-kube/kubelet', 'Directory of the kubelet\'s files (pods, logs)'),
  port: flag.int(10250, 'Port of the kubelet\'s HTTPS server (containerLogs); 0: any free port, reported in the Node\'s daemonEndpoints'),
  address: flag.string('0.0.0.0', 'Address the kubelet\'s HTTPS server listens on'),
  'read-only-port': flag.int(0, 'The read-only port: not served, must be 0'),
  'client-ca-file': flag.string('', 'CA bundle that client certificates of the kubelet\'s server must chain to (default: the kubeconfig\'s CA)'),
  'authorization-mode': flag.string('Webhook', 'Authorization of the kubelet\'s server: SubjectAccessReview (Webhook) or every authenticated client (AlwaysAllow)', ['Webhook', 'AlwaysAllow']),
  'authorization-webhook-cache-authorized-ttl': flag.string('5m', 'How long an allowed SubjectAccessReview answer is kept'),
  'authentication-token-webhook': flag.bool(false, 'Bearer tokens to the kubelet\'s server are checked with a TokenReview against the apiserver'),
  'authentication-token-webhook-cache-ttl': flag.string('2m0s', 'How long a TokenReview answer is kept'),
  'anonymous-auth': flag.bool(true, 'Requests to the kubelet\'s server without credentials are system:anonymous (group system:unauthenticated), then authorized'),
  'authorization-webhook-cache-unauthorized-ttl': flag.string('30s', 'How long a denied SubjectAccessReview answer is kept'),
  'register-node': flag.bool(true, 'Create the Node in the API (false: it must exist; the kubelet only posts its status)'),
  'serialize-image-pulls': flag.bool(true, 'Pull one image at a time'),
  nodes: flag.int(1, "Number of nodes to simulate in this process (fake runtime only); more than one skip, as kwok's do, the node events and the ContainerCreating status a single kubelet writes"),
  'node-ip': flag.string('', 'InternalIP of the node (default: the machine\'s first address); simulated nodes get this address + i when it is a loopback one (default 127.0.0.1, or --address), each served at its own, else all this one'),
  'node-labels': flag.list([], 'Extra labels of the node, key=value'),
  'max-pods': flag.int(110, 'Pod capacity of the node'),
  cpu: flag.string('', 'CPU capacity (default: the machine\'s)'),
  memory: flag.string('', 'Memory capacity (default: the machine\'s)'),
  'node-status-update-frequency': flag.string('10s', 'How often the node status is computed and posted when changed'),
  'node-status-report-frequency': flag.string('5m', 'How often the node status is posted when unchanged'),
  'node-lease-duration-seconds': flag.int(40, 'Duration of the node Lease; renewed every quarter of it'),
  'pod-manifest-path': flag.string('', 'Directory of static pod manifests (YAML or JSON Pods) this kubelet runs without the apiserver, mirrored in the API'),
  'file-check-frequency': flag.string('20s', 'How often the static pod directory is re-read (changes are also watched)'),
  'eviction-hard': flag.string('memory.available<100Mi,nodefs.available<10%', 'Hard eviction thresholds (memory.available, nodefs.available; quantity or percentage); pods are evicted, BestEffort first, when one is crossed (process runtime; "" disables)'),
  'container-log-max-size': flag.string('10Mi', 'A running container\'s log is rotated once it reaches this size (a quantity; negative: never)'),
  'container-log-max-files': flag.int(5, 'Log files kept per container, the live one included (at least 2)'),
  'container-log-monitor-interval': flag.string('10s', 'How often the containers\' log sizes are checked'),
  'sync-frequency': flag.string('1m', 'Longest time between syncs of a running pod (and refreshes of its configMap/secret volumes; changes seen by the watch apply at once)'),
  'pod-sandbox': flag.string('auto', 'Process runtime: a network namespace, address from the podCIDR and PID/IPC/UTS namespaces per pod (netns; needs root on Linux, iproute2, util-linux), pods on the host network (host), or netns when possible (auto)', ['auto', 'netns', 'host']),
  'pod-cidr': flag.string('', 'The node\'s pod range (e.g. 10.244.1.0/24): pods\' addresses, registered as the Node\'s spec.podCIDR (default: the spec.podCIDR the controller-manager\'s node-ipam gives the Node)'),
  'cluster-dns': flag.list([], 'DNS server IPs of the cluster, written to the resolv.conf of ClusterFirst pods'),
  'cluster-domain': flag.string('', 'Domain of the cluster (e.g. cluster.local): pods\' DNS searches <ns>.svc.<domain> svc.<domain> <domain>'),
  'resolv-conf': flag.string('/etc/resolv.conf', 'The host\'s resolver configuration, the base of pods\' DNS'),
  'fake-start-latency': flag.string('0s', 'Fake runtime: time from StartContainer to running'),
  'stop-containers-on-exit': flag.bool(false, 'Process runtime: stop every container when the kubelet stops (mini-kube up does: its cluster goes away); otherwise they keep running, as upstream\'s do, and the next kubelet on this --root-dir adopts them'),
  'kube-api-qps': flag.int(50, 'Client requests per second (0 with --nodes > 1: unlimited)'),
  'kube-api-burst': flag.int(100, 'Client burst'),
  'event-qps': flag.int(50, 'Event writes per second of this process (0: no limit); past 1,000 waiting, events are dropped'),
  'event-burst': flag.int(100, 'Burst of event writes'),
  v: flag.int(0, 'Log verbosity (4: debug)'),
};

const duration = (name: string, text: string): number => {
  const ms = parseGoDurationMs(text);
  if (ms === undefined) throw new FlagError(`invalid argument "${text}" for "--${name}" flag: not a duration`);
  return ms;
};

/** The log rotation settings, checked as upstream's NewContainerLogManager checks them. */
const containerLogOptions = (maxSize: string, maxFiles: number, monitorMs: number) => {
  let bytes: number;
  try { bytes = quantityValue(parseQuantity(maxSize)); } catch { throw new FlagError(`invalid argument "${maxSize}" for "--container-log-max-size" flag: failed to parse container log max size "${maxSize}"`); }
  if (maxFiles <= 1) throw new FlagError(`invalid argument "${maxFiles}" for "--container-log-max-files" flag: invalid MaxFiles ${maxFiles}, must be > 1`);
  return { containerLogMaxSizeBytes: bytes, containerLogMaxFiles: maxFiles, containerLogMonitorMs: monitorMs };
};

export const main = async (argv: readonly string[]): Promise<void> => {
  const { values: v, given } = parseOrExit('kubelet', summary, argv, kubeletFlags);
  let warnings: string[] = [];
  if (v.config) {
    try { warnings = await applyConfigFile(v.config, v, given); } catch (e) { if (e instanceof FlagError) exitWithFlagError('kubelet', e); throw e; }
  }
  const { defaultHostname, KubeletHost, simulatedNodeIp, ProcessRuntime, loadImageCatalog, PodSandboxes, choosePodSandboxes, parseResolvConf, parseThresholds } = await import('../pkg/kubelet/index.js');
  let timings;
  try {
    if (v.nodes < 1) throw new FlagError(`--nodes ${v.nodes} must be at least 1`);
    if (v['read-only-port'] !== 0) throw new FlagError(`--read-only-port ${v['read-only-port']}: the read-only port is not served (0 only)`);
    if (v['event-qps'] < 0 || v['event-burst'] < 0) throw new FlagError('--event-qps and --event-burst must not be negative');
    if (v.nodes > 1 && v.runtime !== 'fake') throw new FlagError('--nodes > 1 needs --runtime fake');
    if (v.nodes > 1 && v['pod-manifest-path']) throw new FlagError('--pod-manifest-path needs a single node (--nodes 1)');
    // simulated nodes share one client: a certificate of one node could not speak for the others
    if (v.nodes > 1 && v['bootstrap-kubeconfig']) throw new FlagError('--bootstrap-kubeconfig needs a single node (--nodes 1): simulated nodes share one identity');
    if (v['bootstrap-kubeconfig'] && !v.kubeconfig) throw new FlagError('--bootstrap-kubeconfig needs --kubeconfig: the file the kubelet writes its credentials to');
    for (const l of v['node-labels']) if (!l.includes('=')) throw new FlagError(`invalid argument "${l}" for "--node-labels" flag: not key=value`);
    timings = {
      statusUpdateMs: duration('node-status-update-frequency', v['node-status-update-frequency']),
      statusReportMs: duration('node-status-report-frequency', v['node-status-report-frequency']),
      fakeStartLatencyMs: duration('fake-start-latency', v['fake-start-latency']),
      syncFrequencyMs: duration('sync-frequency', v['sync-frequency']),
      fileCheckFrequencyMs: duration('file-check-frequency', v['file-check-frequency']),
      ...containerLogOptions(v['container-log-max-size'], v['container-log-max-files'], duration('container-log-monitor-interval', v['container-log-monitor-interval'])),
      evictionHard: (() => {
        try { return parseThresholds(v['eviction-hard']); } catch (e) { throw new FlagError(`invalid argument "${v['eviction-hard']}" for "--eviction-hard" flag: ${(e as Error).message}`); }
      })(),
      ...(v['pod-manifest-path'] ? { staticPodPath: resolve(v['pod-manifest-path']) } : {}),
      leaseDurationSeconds: v['node-lease-duration-seconds'],
      leaseRenewMs: v['node-lease-duration-seconds'] * 250,
      cacheAuthorizedMs: duration('authorization-webhook-cache-authorized-ttl', v['authorization-webhook-cache-authorized-ttl']),
      cacheUnauthorizedMs: duration('authorization-webhook-cache-unauthorized-ttl', v['authorization-webhook-cache-unauthorized-ttl']),
      tokenCacheMs: duration('authentication-token-webhook-cache-ttl', v['authentication-token-webhook-cache-ttl']),
    };
  } catch (e) {
    if (e instanceof FlagError) exitWithFlagError('kubelet', e);
    throw e;
  }
  const logger = pino({ name: 'kubelet', level: v.v >= 4 ? 'debug' : 'info' }, pino.destination(2));
  for (const w of warnings) logger.warn({ config: v.config }, w);
  const { Client, componentUserAgent, loadKubeconfig } = await import('../pkg/client/index.js');
  const base = v['node-name'] || defaultHostname();
  const nodeNames = v.nodes === 1 ? [base] : Array.from({ length: v.nodes }, (_, i) => `${base}-${i + 1}`);
  await mkdir(resolve(v['root-dir']), { recursive: true });
  const certDir = resolve(v['cert-dir'] || join(v['root-dir'], 'pki'));
  if (v['bootstrap-kubeconfig']) {
    const { loadClientCert } = await import('../pkg/kubelet/certificate/bootstrap.js');
    // a stop while waiting for the certificate just ends the process (nothing runs yet)
    const stopWaiting = (): void => process.exit(0);
    process.once('SIGINT', stopWaiting).once('SIGTERM', stopWaiting);
    await loadClientCert({
      kubeconfigPath: resolve(v.kubeconfig), bootstrapKubeconfigPath: resolve(v['bootstrap-kubeconfig']),
      certDir, nodeName: base, logger, userAgent: componentUserAgent('kubelet', base),
    }).catch((err: unknown) => {
      logger.fatal({ err }, `failed to run Kubelet: ${(err as Error).message}`);
      logger.flush();
      process.exit(1);
    });
    process.off('SIGINT', stopWaiting).off('SIGTERM', stopWaiting);
  }
  const { namespace: _ns, ...restConfig } = await loadKubeconfig(v.kubeconfig || undefined);
  // Simulated nodes stand for as many kubelets, each with a connection of its own: up to 256 (the default is 64), so
  // that their status writes get the share of a loaded apiserver a fleet of kubelets would (with 64, pods of 1,000
  // nodes waited ~10 s to be reported Running while the controller-manager's creates kept the apiserver busy).
  const client = new Client({
    ...restConfig, ...(v.nodes > 1 ? { maxConnections: Math.min(v.nodes, 256) } : {}), qps: v.nodes > 1 ? 0 : v['kube-api-qps'], burst: v['kube-api-burst'], userAgent: componentUserAgent('kubelet', base),
  });
  const rootDir = resolve(v['root-dir']);
  // The shipped catalog sits at the package root, wherever the running code (sources, dist/ or the bundle) is.
  const shipped = join(packageRoot, 'config', 'images.json');
  const catalog = v.runtime === 'process' ? loadImageCatalog(v['image-catalog'] || (existsSync(shipped) ? shipped : undefined)) : undefined;
  let sandboxing: Awaited<ReturnType<typeof choosePodSandboxes>>;
  try {
    sandboxing = v.runtime === 'process' ? await choosePodSandboxes(v['pod-sandbox'] as 'auto' | 'netns' | 'host', v['pod-cidr'], logger) : undefined;
  } catch (e) {
    exitWithFlagError('kubelet', new FlagError((e as Error).message));
  }
  const dns = sandboxing && {
    clusterDns: v['cluster-dns'], clusterDomain: v['cluster-domain'],
    host: parseResolvConf(await readFile(v['resolv-conf'], 'utf8').catch(() => '')),
  };
  // without --pod-cidr, sandboxes take the Node's spec.podCIDR once the controller-manager's node-ipam sets it
  const sandboxes = new Map<string, InstanceType<typeof PodSandboxes>>();
  const { cacheAuthorizedMs, cacheUnauthorizedMs, tokenCacheMs, ...kubeletTimings } = timings;
  const clientCa = v['client-ca-file']
    ? await readFile(v['client-ca-file'], 'utf8').catch((e: Error) => exitWithFlagError('kubelet', new FlagError(`--client-ca-file: ${e.message}`)))
    : restConfig.caData;
  const host = new KubeletHost({
    client, nodeNames, logger, ...kubeletTimings, eventQps: v['event-qps'], eventBurst: v['event-burst'],
    registerNode: v['register-node'], serializeImagePulls: v['serialize-image-pulls'],
    ...(v.runtime === 'process' ? {
      runtimeFor: (_i: number, nodeName: string, hostIp: string) => {
        const sb = sandboxing && new PodSandboxes({ podCidr: v['pod-cidr'] || undefined, logger, cgroups: sandboxing.cgroups });
        if (sb) sandboxes.set(nodeName, sb);
        return new ProcessRuntime({ rootDir, hostIp, catalog, sandboxes: sb, logger, stopContainersOnClose: v['stop-containers-on-exit'], unknownImages: v['unknown-images'] as 'simulate' | 'fail' });
      },
    } : {}),
    ...(v['pod-cidr'] && v.nodes === 1 ? { podCidr: v['pod-cidr'] } : {}),
    ...(sandboxing && !v['pod-cidr'] ? { onPodCidr: (node: string, cidr: string) => sandboxes.get(node)?.setPodCidr(cidr) } : {}),
    dns,
    resources: { ...(v.cpu ? { cpu: v.cpu } : {}), ...(v.memory ? { memory: v.memory } : {}), pods: v['max-pods'] },
    labels: Object.fromEntries(v['node-labels'].map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])),
    // simulated nodes: --node-ip + i when it is a loopback address (default 127.0.0.1 unless the server listens on
    // one other address), where the apiserver reaches each of them on their one server; else all report it
    ...(v['node-ip'] || v.nodes > 1 ? {
      nodeIpFor: (i: number) => simulatedNodeIp(i, v['node-ip'] || (v.address === '0.0.0.0' ? '127.0.0.1' : v.address)),
    } : {}),
    ...(clientCa ? {
      server: {
        clientCa, port: v.port, address: v.address, authorizationMode: v['authorization-mode'] as 'Webhook' | 'AlwaysAllow',
        tokenWebhook: v['authentication-token-webhook'], tokenCacheMs,
        anonymous: v['anonymous-auth'], certDir,
        cacheAuthorizedMs, cacheUnauthorizedMs, configz: () => configz(v),
      },
    } : {}),
  });
  const stop = new AbortController();
  const done = host.run(stop.signal);
  void host.whenRegistered().then(() => logger.info({ nodes: nodeNames.length }, 'nodes registered'));
  startHeapReclaimer({ logger });
  onShutdownSignal(async () => {
    stop.abort();
    await done.catch(() => undefined); // what it was doing ends with the abort (reported, when not, below)
    // requests in flight get a second; one still connecting to an apiserver that does not answer would hold the
    // close for undici's 10 s connect timeout
    await Promise.race([client.close(), new Promise((r) => setTimeout(r, 1_000).unref())]);
  });
  await done.catch((err: unknown) => {
    if (stop.signal.aborted) return; // stopped while it was still registering: the shutdown handler exits
    logger.error({ err }, 'kubelet failed');
    process.exit(1);
  });
};
