// `mini-kube controller-manager`: kube-controller-manager's flags in, runControllerManager out, until SIGINT/SIGTERM
// (which stops every controller and releases the leader lease).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pino } from 'pino';
import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import type { ClusterControllerConfig } from '../pkg/controller/shared/cluster-context.js';
import { checkSecureServingFlags, secureServingFlags, startComponentServing } from './component-serving.js';
import { controllerManagerConfigz } from './controller-manager-configz.js';
import { KNOWN_FEATURE_GATES } from './feature-gates.js';
import { exitWithFlagError, flag, FlagError, parseOrExit, type FlagValues } from './flags.js';
import { startHeapReclaimer } from './heap-reclaimer.js';
import { onShutdownSignal } from './signals.js';

/** The self-signed serving pair's name in --cert-dir, as upstream's. */
const SERVING_PAIR = 'kube-controller-manager';

const summary = 'Runs the controllers (garbage collector, namespace, node lifecycle, endpoints, workloads, ...) against an apiserver.';

const duration = (def: string, help: string) => flag.string(def, `${help} (a Go duration)`);

export const controllerManagerFlags = {
  kubeconfig: flag.string('', 'Path to a kubeconfig with the apiserver and this controller-manager\'s credentials (required)'),
  controllers: flag.list(['*'], 'Controllers to enable: "*" for all on by default, "foo" to enable, "-foo" to disable'),
  'leader-elect': flag.bool(true, 'Run only while holding the Lease kube-system/kube-controller-manager'),
  'leader-elect-lease-duration': duration('15s', 'How long a leader lease lasts without renewal'),
  'leader-elect-renew-deadline': duration('10s', 'How long the leader keeps retrying a renewal before giving up'),
  'leader-elect-retry-period': duration('2s', 'Wait between attempts to acquire or renew the lease'),
  'use-service-account-credentials': flag.bool(false, 'Run each controller with its own service account (kube-system/<controller>) credentials'),
  'root-ca-file': flag.string('', 'CA published as kube-root-ca.crt in every namespace (default: the kubeconfig\'s certificate authority)'),
  'service-account-private-key-file': flag.string('', 'PEM private key that signs the legacy tokens of kubernetes.io/service-account-token Secrets (without it the tokens controller is off)'),
  'node-monitor-period': duration('5s', 'How often node health is checked'),
  'node-monitor-grace-period': duration('50s', 'How long a node may stop heartbeating before it is marked Unknown'),
  'node-startup-grace-period': duration('1m0s', 'How long a new node may go without heartbeat before it is marked Unknown'),
  'node-eviction-rate': flag.float32(0.1, 'Nodes per second whose pods are evicted (NoExecute-tainted) after they fail, in a healthy zone (see --unhealthy-zone-threshold); without zones, the cluster is one'),
  'secondary-node-eviction-rate': flag.float32(0.01, 'Nodes per second whose pods are evicted after they fail, in an unhealthy zone; taken as 0 in a zone of --large-cluster-size-threshold nodes or fewer'),
  'large-cluster-size-threshold': flag.int(50, 'The number of nodes a zone must exceed for --secondary-node-eviction-rate to apply to it; an unhealthy zone no larger evicts nothing'),
  'unhealthy-zone-threshold': flag.float32(0.55, 'The share of a zone\'s nodes that, when not Ready (and 3 at least), makes the zone unhealthy'),
  'terminated-pod-gc-threshold': flag.int(12500, 'Terminated pods kept before the oldest are deleted (0 disables)'),
  'resource-quota-sync-period': duration('5m0s', 'Period of a full recomputation of quota usage'),
  'namespace-sync-period': duration('5m0s', 'Period of re-syncing namespaces'),
  'allocate-node-cidrs': flag.bool(false, 'Give each Node without one a spec.podCIDR from --cluster-cidr (node-ipam-controller)'),
  'cluster-cidr': flag.string('', 'CIDR range of pods in the cluster (IPv4), cut into node CIDRs when --allocate-node-cidrs'),
  'node-cidr-mask-size': flag.int(24, 'Prefix length of each node\'s CIDR in --cluster-cidr'),
  'service-cluster-ip-range': flag.string('', 'CIDR range of services, never given to a node'),
  'cluster-signing-cert-file': flag.string('', 'PEM CA certificate that signs approved CertificateSigningRequests (csrsigning)'),
  'cluster-signing-key-file': flag.string('', 'PEM private key of --cluster-signing-cert-file'),
  'cluster-signing-duration': duration('8760h0m0s', 'The longest validity of a signed certificate'),
  'pvclaimbinder-sync-period': duration('15s', 'The period for syncing persistent volumes and persistent volume claims'),
  'hostpath-provisioner-dir': flag.string('/tmp/hostpath-provisioner', 'Directory under which the mini-kube.io/hostpath provisioner creates volumes'),
  'horizontal-pod-autoscaler-sync-period': duration('15s', 'How often each HorizontalPodAutoscaler is reconciled'),
  'horizontal-pod-autoscaler-downscale-stabilization': duration('5m0s', 'How far back the highest recommendation holds a scale-down (autoscalers without behavior)'),
  'horizontal-pod-autoscaler-tolerance': flag.string('0.1', 'The least change of the usage ratio (desired to actual) that rescales'),
  'horizontal-pod-autoscaler-cpu-initialization-period': duration('5m0s', 'After a pod starts, CPU samples taken before it was ready for a full metric window are skipped'),
  'horizontal-pod-autoscaler-initial-readiness-delay': duration('30s', 'After a pod starts, how long it may turn unready before it is taken as having been ready'),
  'concurrent-gc-syncs': flag.int(20, 'Garbage collector workers'),
  'concurrent-namespace-syncs': flag.int(10, 'Namespace workers'),
  'concurrent-endpoint-syncs': flag.int(5, 'Endpoints workers'),
  'concurrent-service-endpoint-syncs': flag.int(5, 'EndpointSlice workers'),
  'mirroring-concurrent-service-endpoint-syncs': flag.int(5, 'EndpointSlice mirroring workers'),
  'concurrent-resource-quota-syncs': flag.int(5, 'Resource quota workers'),
  'concurrent-deployment-syncs': flag.int(5, 'Deployment workers'),
  'concurrent-replicaset-syncs': flag.int(5, 'ReplicaSet workers'),
  'concurrent-rc-syncs': flag.int(5, 'ReplicationController workers'),
  'concurrent-job-syncs': flag.int(5, 'Job workers'),
  'concurrent-cron-job-syncs': flag.int(5, 'CronJob workers'),
  'concurrent-daemonset-syncs': flag.int(2, 'DaemonSet workers'),
  'concurrent-statefulset-syncs': flag.int(5, 'StatefulSet workers'),
  'concurrent-ttl-after-finished-syncs': flag.int(5, 'TTL-after-finished workers'),
  'concurrent-service-syncs': flag.int(1, 'LoadBalancer Service workers'),
  'feature-gates': flag.featureGates('Feature gates, key=true|false pairs: Kubernetes 1.32\'s names (unknown ones are refused); MaxUnavailableStatefulSet (alpha, off) acts here', KNOWN_FEATURE_GATES),
  'kube-api-qps': flag.int(20, 'Requests per second to the apiserver'),
  'kube-api-burst': flag.int(30, 'Burst of requests to the apiserver'),
  // as upstream's kube-controller-manager: /healthz alone of the health endpoints
  ...secureServingFlags(10257, '/healthz, /metrics, /configz, /debug/controllers/...', SERVING_PAIR),
  v: flag.int(0, 'Log verbosity: 4 and up adds debug, 6 and up trace'),
};

/** A rate, which upstream takes negative too and mini-kube does not. */
const rate = (name: string, x: number): number => {
  if (x < 0) throw new FlagError(`invalid argument "${x}" for "--${name}" flag: must not be negative`);
  return x;
};

/** The node lifecycle controller's eviction settings (upstream NodeLifecycleControllerOptions; rates may not be negative). */
export const nodeLifecycleConfig = (v: FlagValues<typeof controllerManagerFlags>): Pick<ClusterControllerConfig,
  'nodeEvictionRate' | 'secondaryNodeEvictionRate' | 'largeClusterSizeThreshold' | 'unhealthyZoneThreshold'> => {
  const size = v['large-cluster-size-threshold'];
  if (size < -(2 ** 31) || size >= 2 ** 31) throw new FlagError(`invalid argument "${size}" for "--large-cluster-size-threshold" flag: value out of range`);
  return {
    nodeEvictionRate: rate('node-eviction-rate', v['node-eviction-rate']),
    secondaryNodeEvictionRate: rate('secondary-node-eviction-rate', v['secondary-node-eviction-rate']),
    largeClusterSizeThreshold: size,
    unhealthyZoneThreshold: v['unhealthy-zone-threshold'],
  };
};

const durationMs = (name: string, text: string): number => {
  const ms = parseGoDurationMs(text);
  if (ms === undefined) throw new FlagError(`invalid argument "${text}" for "--${name}" flag: time: invalid duration "${text}"`);
  return ms;
};

export const main = async (argv: readonly string[]): Promise<void> => {
  const { values: v } = parseOrExit('controller-manager', summary, argv, controllerManagerFlags);
  let timing: Record<string, number>;
  let nodeLifecycle: ReturnType<typeof nodeLifecycleConfig>;
  try {
    if (!v.kubeconfig) throw new FlagError('--kubeconfig is required');
    timing = Object.fromEntries(Object.entries(v).filter(([k]) => /period|deadline|duration|stabilization|delay/.test(k)).map(([k, x]) => [k, durationMs(k, x as string)]));
    if (!(Number(v['horizontal-pod-autoscaler-tolerance']) >= 0)) throw new FlagError(`invalid argument "${v['horizontal-pod-autoscaler-tolerance']}" for "--horizontal-pod-autoscaler-tolerance" flag`);
    checkSecureServingFlags(v);
    nodeLifecycle = nodeLifecycleConfig(v);
    if (v['allocate-node-cidrs']) {
      if (!v['cluster-cidr']) throw new FlagError('--cluster-cidr must be set when --allocate-node-cidrs is true');
      const { CidrSet } = await import('../pkg/controller/nodeipam/cidr-set.js');
      try { new CidrSet(v['cluster-cidr'], v['node-cidr-mask-size']); } catch (e) { throw new FlagError(`--cluster-cidr, --node-cidr-mask-size: ${(e as Error).message}`); }
    }
  } catch (e) {
    if (e instanceof FlagError) exitWithFlagError('controller-manager', e);
    throw e;
  }
  const logger = pino({ name: 'controller-manager', level: v.v >= 6 ? 'trace' : v.v >= 4 ? 'debug' : 'info' }, pino.destination(2));
  const { Client, componentUserAgent, loadKubeconfig } = await import('../pkg/client/index.js');
  const { runControllerManager, selectControllers, knownControllers } = await import('../pkg/controller/controller-manager.js');
  const { DebugRoutes } = await import('../pkg/controller/debug-routes.js');
  const debug = new DebugRoutes();
  try {
    selectControllers(v.controllers, knownControllers());
  } catch (e) {
    exitWithFlagError('controller-manager', new FlagError((e as Error).message));
  }
  const { componentMetrics, workQueueMetrics } = await import('../pkg/client/component-metrics.js');
  const { setWorkQueueMetricsProvider } = await import('../pkg/client/index.js');
  const metrics = componentMetrics();
  // every controller's queue reports workqueue_*{name} (client-go's global provider, set before any queue is made)
  setWorkQueueMetricsProvider(workQueueMetrics(metrics.registry));
  const { namespace: _ns, ...config } = await loadKubeconfig(v.kubeconfig);
  const restConfig = { ...config, qps: v['kube-api-qps'], burst: v['kube-api-burst'], userAgent: componentUserAgent('kube-controller-manager'), metrics: metrics.client };
  const client = new Client(restConfig);
  const rootCaPem = v['root-ca-file'] ? await readFile(v['root-ca-file'], 'utf8') : config.caData;
  const serviceAccountPrivateKeyPem = v['service-account-private-key-file'] ? await readFile(v['service-account-private-key-file'], 'utf8') : undefined;
  const [clusterSigningCertPem, clusterSigningKeyPem] = await Promise.all(['cluster-signing-cert-file', 'cluster-signing-key-file']
    .map((f) => (v[f as 'cluster-signing-cert-file'] ? readFile(v[f as 'cluster-signing-cert-file'], 'utf8') : undefined)));
  const stop = new AbortController();
  let elector: { check(toleranceMs: number): string | undefined } | undefined;
  // as upstream's: healthz fails when the lease is ours but was not renewed for 20 s past its duration
  const healthz: { name: string; check: () => boolean }[] = v['leader-elect'] ? [{ name: 'leaderElection', check: () => elector?.check(20_000) === undefined }] : [];
  const running = runControllerManager({
    client, restConfig, logger,
    controllers: v.controllers,
    leaderElect: v['leader-elect'],
    leaseDurationMs: timing['leader-elect-lease-duration'],
    renewDeadlineMs: timing['leader-elect-renew-deadline'],
    retryPeriodMs: timing['leader-elect-retry-period'],
    useServiceAccountCredentials: v['use-service-account-credentials'],
    featureGates: v['feature-gates'],
    concurrency: Object.fromEntries(Object.entries(v).filter(([k]) => k.startsWith('concurrent-')) as [string, number][]),
    config: {
      rootCaPem,
      serviceAccountPrivateKeyPem,
      nodeMonitorPeriodMs: timing['node-monitor-period'],
      nodeMonitorGracePeriodMs: timing['node-monitor-grace-period'],
      nodeStartupGracePeriodMs: timing['node-startup-grace-period'],
      ...nodeLifecycle,
      terminatedPodGcThreshold: v['terminated-pod-gc-threshold'],
      resourceQuotaSyncPeriodMs: timing['resource-quota-sync-period'],
      namespaceSyncPeriodMs: timing['namespace-sync-period'],
      pvClaimBinderSyncPeriodMs: timing['pvclaimbinder-sync-period'],
      hostPathProvisionerDir: resolve(v['hostpath-provisioner-dir']),
      allocateNodeCidrs: v['allocate-node-cidrs'],
      clusterCidr: v['cluster-cidr'],
      nodeCidrMaskSize: v['node-cidr-mask-size'],
      serviceClusterIpRange: v['service-cluster-ip-range'],
      clusterSigningCertPem, clusterSigningKeyPem,
      clusterSigningDurationMs: timing['cluster-signing-duration'],
      hpaSyncPeriodMs: timing['horizontal-pod-autoscaler-sync-period'],
      hpaDownscaleStabilizationMs: timing['horizontal-pod-autoscaler-downscale-stabilization'],
      hpaTolerance: Number(v['horizontal-pod-autoscaler-tolerance']),
      hpaCpuInitializationPeriodMs: timing['horizontal-pod-autoscaler-cpu-initialization-period'],
      hpaInitialReadinessDelayMs: timing['horizontal-pod-autoscaler-initial-readiness-delay'],
    },
    onLostLeadership: () => { logger.flush(); process.exit(1); },
    leaderMetrics: metrics.leader,
    onLeaderElector: (e) => { elector = e; },
    // as upstream's: each started controller answers on /healthz under its name
    onControllerStarted: (name) => { if (!healthz.some((c) => c.name === name)) healthz.push({ name, check: () => true }); },
    onDebugHandler: (name, handler) => debug.set(name, handler),
  }, stop.signal);
  void startComponentServing(v, {
    client, logger, registry: metrics.registry, signal: stop.signal, configz: () => controllerManagerConfigz(v, timing),
    health: { healthz }, handler: debug.serve, pairName: SERVING_PAIR,
  });
  running.catch((err: unknown) => {
    logger.fatal({ err }, 'controller-manager failed');
    logger.flush();
    process.exit(1);
  });
  startHeapReclaimer({ logger });
  onShutdownSignal(async (signal) => {
    logger.info({ signal }, 'shutting down');
    stop.abort();
    // Releasing the lease and flushing events need the apiserver; when it is going away too (mini-kube up stops
    // everything at once) retries would hold the exit for long: give them a bounded time.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((done) => { timer = setTimeout(() => { logger.warn('stopping before a clean release (apiserver unreachable?)'); done(); }, 3_000); });
    await Promise.race([running.catch(() => undefined), deadline]);
    clearTimeout(timer);
    await Promise.race([client.close(), new Promise((done) => setTimeout(done, 1_000))]);
    logger.info('stopped');
  });
};
