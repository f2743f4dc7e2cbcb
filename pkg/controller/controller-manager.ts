// The controller-manager (upstream cmd/kube-controller-manager/app): one process, one SharedInformerFactory, the
// controllers chosen by --controllers ("*", "foo", "-foo"; upstream's names and their old aliases), each with its
// own credentials when --use-service-account-credentials is set, all running only while this process holds the
// Lease kube-system/kube-controller-manager (when --leader-elect).
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import {
  Client, EventRecorder, LeaderElector, SharedInformerFactory, realClock, type Clock, type LeaderMetrics, type RestConfig,
} from '../client/index.js';
import { startBootstrapSigner } from './bootstrap/bootstrap-signer.js';
import { startTokenCleaner } from './bootstrap/token-cleaner.js';
import { startCsrApprovingController, startCsrCleanerController, startCsrSigningController } from './certificates/csr.js';
import { startClusterRoleAggregationController } from './clusterroleaggregation/clusterrole-aggregation.js';
import { startDisruptionController } from './disruption/disruption.js';
import { startEndpointsController } from './endpoint/endpoints.js';
import { startEndpointSliceController } from './endpointslice/endpointslice.js';
import { startEndpointSliceMirroringController } from './endpointslicemirroring/mirroring.js';
import { startGarbageCollector } from './garbagecollector/garbage-collector.js';
import { startNamespaceController } from './namespace/namespace.js';
import { startNodeIpamController } from './nodeipam/node-ipam.js';
import { startNodeLifecycleController } from './nodelifecycle/node-lifecycle.js';
import { startTaintEvictionController } from './nodelifecycle/taint-eviction.js';
import { HOSTPATH_PROVISIONER, startHostPathProvisioner } from './persistentvolume/hostpath-provisioner.js';
import { startPersistentVolumeBinder } from './persistentvolume/binder.js';
import { startHorizontalPodAutoscalerController } from './podautoscaler/horizontal.js';
import { startPodGcController } from './podgc/podgc.js';
import { startPvProtectionController, startPvcProtectionController } from './persistentvolume/protection.js';
import { startExpandController } from './persistentvolume/expander.js';
import { startResourceQuotaController } from './resourcequota/resource-quota.js';
import { startRootCaCertPublisher } from './rootcacertpublisher/root-ca-cert-publisher.js';
import { startServiceLbController } from './servicelb/service-lb.js';
import { startServiceAccountController } from './serviceaccount/serviceaccounts.js';
import { startTokensController } from './serviceaccount/tokens.js';
import { startValidatingAdmissionPolicyStatusController } from './validatingadmissionpolicystatus/controller.js';
import { defaultClusterControllerConfig, type ClusterControllerConfig, type ClusterControllerInit } from './shared/cluster-context.js';
import { ServiceAccountClientBuilder } from './shared/credentials.js';
import type { ControllerInit, DebugHandler } from './shared/types.js';
import { workloadControllers } from './workloads.js';

export interface ControllerDescriptor {
  /** Upstream's name (1.28+), e.g. "garbage-collector-controller". */
  name: string;
  /** Older names accepted by --controllers ("garbagecollector"). */
  aliases: string[];
  /** The ServiceAccount in kube-system whose credentials it uses (and whose system:controller:* role applies). */
  serviceAccount: string;
  /** The --concurrent-*-syncs flag that sets its workers, and the default. */
  workers: number;
  concurrencyFlag?: string;
  disabledByDefault?: boolean;
  /** Runs with the controller-manager's own credentials even with --use-service-account-credentials (upstream's tokens controller). */
  rootCredentials?: boolean;
  init: ClusterControllerInit;
}

const cluster = (name: string, aliases: string[], serviceAccount: string, init: ClusterControllerInit, workers = 1, concurrencyFlag?: string): ControllerDescriptor =>
  ({ name, aliases, serviceAccount, init, workers, concurrencyFlag });

/** The cluster-level controllers, by upstream's names (cmd/kube-controller-manager/names). */
export const clusterControllers: ControllerDescriptor[] = [
  // first, as upstream starts it: it signs the tokens other clients may be waiting for
  { ...cluster('serviceaccount-token-controller', ['serviceaccount-token'], 'tokens-controller', startTokensController, 1), rootCredentials: true },
  // then what a new cluster's first seconds wait on, each controller starting once it has its client (one after the
  // other): the nodes' podCIDR (a kubelet is Ready with it), each namespace's default ServiceAccount and root CA,
  // the EndpointSlice of the cluster DNS (mirrored from the Endpoints `up` writes)
  cluster('node-ipam-controller', ['nodeipam'], 'node-controller', startNodeIpamController, 30),
  cluster('node-lifecycle-controller', ['nodelifecycle'], 'node-controller', startNodeLifecycleController, 1),
  cluster('taint-eviction-controller', [], 'node-controller', startTaintEvictionController, 1),
  cluster('serviceaccount-controller', ['serviceaccount'], 'service-account-controller', startServiceAccountController, 1),
  cluster('root-ca-certificate-publisher-controller', ['root-ca-cert-publisher'], 'root-ca-cert-publisher', startRootCaCertPublisher, 1),
  cluster('endpointslice-mirroring-controller', ['endpointslicemirroring'], 'endpointslicemirroring-controller', startEndpointSliceMirroringController, 5, 'mirroring-concurrent-service-endpoint-syncs'),
  cluster('garbage-collector-controller', ['garbagecollector'], 'generic-garbage-collector', startGarbageCollector, 20, 'concurrent-gc-syncs'),
  cluster('namespace-controller', ['namespace'], 'namespace-controller', startNamespaceController, 10, 'concurrent-namespace-syncs'),
  cluster('endpoints-controller', ['endpoint'], 'endpoint-controller', startEndpointsController, 5, 'concurrent-endpoint-syncs'),
  cluster('endpointslice-controller', ['endpointslice'], 'endpointslice-controller', startEndpointSliceController, 5, 'concurrent-service-endpoint-syncs'),
  cluster('resourcequota-controller', ['resourcequota'], 'resourcequota-controller', startResourceQuotaController, 5, 'concurrent-resource-quota-syncs'),
  cluster('clusterrole-aggregation-controller', ['clusterrole-aggregation'], 'clusterrole-aggregation-controller', startClusterRoleAggregationController, 5),
  cluster('disruption-controller', ['disruption'], 'disruption-controller', startDisruptionController, 1),
  cluster('certificatesigningrequest-signing-controller', ['csrsigning'], 'certificate-controller', startCsrSigningController, 1),
  cluster('certificatesigningrequest-approving-controller', ['csrapproving'], 'certificate-controller', startCsrApprovingController, 1),
  cluster('certificatesigningrequest-cleaner-controller', ['csrcleaner'], 'certificate-controller', startCsrCleanerController, 1),
  // off unless named, as upstream's (kubeadm runs --controllers=*,bootstrapsigner,tokencleaner)
  { ...cluster('bootstrap-signer-controller', ['bootstrapsigner'], 'bootstrap-signer', startBootstrapSigner, 1), disabledByDefault: true },
  { ...cluster('token-cleaner-controller', ['tokencleaner'], 'token-cleaner', startTokenCleaner, 1), disabledByDefault: true },
  cluster('horizontal-pod-autoscaler-controller', ['horizontalpodautoscaling'], 'horizontal-pod-autoscaler', startHorizontalPodAutoscalerController, 5, 'concurrent-horizontal-pod-autoscaler-syncs'),
  cluster('pod-garbage-collector-controller', ['podgc'], 'pod-garbage-collector', startPodGcController, 1),
  cluster('validatingadmissionpolicy-status-controller', ['validatingadmissionpolicy-status'], 'validatingadmissionpolicy-status-controller', startValidatingAdmissionPolicyStatusController, 1),
  cluster('persistentvolume-binder-controller', ['persistentvolume-binder'], 'persistent-volume-binder', startPersistentVolumeBinder, 1),
  cluster('persistentvolumeclaim-protection-controller', ['pvc-protection'], 'pvc-protection-controller', startPvcProtectionController, 1),
  cluster('persistentvolume-protection-controller', ['pv-protection'], 'pv-protection-controller', startPvProtectionController, 1),
  cluster('persistentvolume-expander-controller', ['persistentvolume-expander'], 'expand-controller', startExpandController, 1),
  // upstream's runs with a cloud provider only; this one gives LoadBalancer Services the nodes' addresses (k3s's ServiceLB)
  cluster('service-lb-controller', ['service'], 'service-controller', startServiceLbController, 1, 'concurrent-service-syncs'),
  // not upstream's: the provisioner of mini-kube.io/hostpath StorageClasses (upstream runs such provisioners apart)
  cluster('hostpath-provisioner-controller', ['hostpath-provisioner'], 'persistent-volume-binder', startHostPathProvisioner, 1),
];

/** Upstream's names of the workload controllers, by the alias their registry (workloads.ts) uses. */
const WORKLOAD_NAMES: Record<string, { name: string; serviceAccount: string; flag: string; workers: number }> = {
  deployment: { name: 'deployment-controller', serviceAccount: 'deployment-controller', flag: 'concurrent-deployment-syncs', workers: 5 },
  replicaset: { name: 'replicaset-controller', serviceAccount: 'replicaset-controller', flag: 'concurrent-replicaset-syncs', workers: 5 },
  replicationcontroller: { name: 'replicationcontroller-controller', serviceAccount: 'replication-controller', flag: 'concurrent-rc-syncs', workers: 5 },
  job: { name: 'job-controller', serviceAccount: 'job-controller', flag: 'concurrent-job-syncs', workers: 5 },
  cronjob: { name: 'cronjob-controller', serviceAccount: 'cronjob-controller', flag: 'concurrent-cron-job-syncs', workers: 5 },
  daemonset: { name: 'daemonset-controller', serviceAccount: 'daemon-set-controller', flag: 'concurrent-daemonset-syncs', workers: 2 },
  statefulset: { name: 'statefulset-controller', serviceAccount: 'statefulset-controller', flag: 'concurrent-statefulset-syncs', workers: 5 },
  'ttl-after-finished': { name: 'ttl-after-finished-controller', serviceAccount: 'ttl-after-finished-controller', flag: 'concurrent-ttl-after-finished-syncs', workers: 5 },
};

/**
 * The component of a controller's events where upstream's recorder names it otherwise than its ServiceAccount (each
 * controller's NewRecorder call): `kubectl get events` and field selectors on source show these.
 */
const EVENT_SOURCES: Record<string, string> = {
  'garbage-collector-controller': 'garbage-collector-controller',
  'node-ipam-controller': 'cidrAllocator',
  'taint-eviction-controller': 'taint-eviction-controller',
  'endpointslice-controller': 'endpoint-slice-controller',
  'endpointslice-mirroring-controller': 'endpoint-slice-mirroring-controller',
  'disruption-controller': 'controllermanager',
  'persistentvolume-binder-controller': 'persistentvolume-controller',
  'persistentvolume-expander-controller': 'volume_expand',
  'daemonset-controller': 'daemonset-controller',
};

/**
 * The source.component (and reportingComponent) of a controller's events. An external provisioner's (the hostpath
 * one) are its provisioner's name and its identity, as sig-storage's provisioner library names them.
 */
export const eventSourceOf = (d: ControllerDescriptor, identity: string): string =>
  d.name === 'hostpath-provisioner-controller' ? `${HOSTPATH_PROVISIONER}_${identity}` : EVENT_SOURCES[d.name] ?? d.serviceAccount;

const workloadDescriptor = (key: string, init: ControllerInit): ControllerDescriptor => {
  const alias = Object.entries(WORKLOAD_NAMES).find(([a, w]) => a === key || w.name === key);
  const w = alias?.[1];
  return {
    name: w?.name ?? key, aliases: alias && alias[0] !== key ? [alias[0], key] : alias ? [key] : [],
    serviceAccount: w?.serviceAccount ?? key, workers: w?.workers ?? 5, concurrencyFlag: w?.flag, init,
  };
};

/** Every controller this binary knows, cluster-level and workload. */
export const knownControllers = (): ControllerDescriptor[] => [
  ...clusterControllers,
  ...Object.entries(workloadControllers).map(([k, init]) => workloadDescriptor(k, init)),
];

/** Upstream's IsControllerEnabled over --controllers: an explicit "name" or "-name" wins, then "*". */
export function selectControllers(list: string[], known: ControllerDescriptor[]): ControllerDescriptor[] {
  const byName = new Map<string, ControllerDescriptor>();
  for (const d of known) for (const n of [d.name, ...d.aliases]) byName.set(n, d);
  const on = new Set<string>();
  const off = new Set<string>();
  let star = false;
  for (const raw of list.map((s) => s.trim()).filter(Boolean)) {
    if (raw === '*') { star = true; continue; }
    const negated = raw.startsWith('-');
    const d = byName.get(negated ? raw.slice(1) : raw);
    if (!d) throw new Error(`"${raw}" is not in the list of known controllers`);
    (negated ? off : on).add(d.name);
  }
  return known.filter((d) => on.has(d.name) || (!off.has(d.name) && star && !d.disabledByDefault));
}

export interface ControllerManagerOptions {
  /** The controller-manager's own client (shared informers, leader election, service-account tokens). */
  client: Client;
  /** Its connection settings, for per-controller clients. */
  restConfig: RestConfig;
  controllers: string[];
  useServiceAccountCredentials: boolean;
  leaderElect: boolean;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Workers per controller by its concurrency flag name ("concurrent-gc-syncs"). */
  concurrency?: Record<string, number>;
  config?: Partial<ClusterControllerConfig>;
  /** --feature-gates (e.g. MaxUnavailableStatefulSet). */
  featureGates?: Record<string, boolean>;
  logger: Logger;
  clock?: Clock;
  identity?: string;
  /** Called when leadership is lost while not stopping (upstream exits the process). */
  onLostLeadership?: () => void;
  /** leader_election_master_status of the lease. */
  leaderMetrics?: LeaderMetrics;
  /** Hears the leader elector once made (for the leaderElection health check). */
  onLeaderElector?: (elector: LeaderElector) => void;
  /** A controller was started (upstream adds a health check of its name to /healthz then). */
  onControllerStarted?: (name: string) => void;
  /** A controller offers a debugging endpoint, to be served at /debug/controllers/<name>. */
  onDebugHandler?: (name: string, handler: DebugHandler) => void;
}

/** Runs until the signal aborts (then stops every controller and releases the lease). */
export async function runControllerManager(o: ControllerManagerOptions, signal: AbortSignal): Promise<void> {
  const log = o.logger;
  const clock = o.clock ?? realClock;
  const selected = selectControllers(o.controllers, knownControllers());
  const config: ClusterControllerConfig = {
    ...defaultClusterControllerConfig(), rootCaPem: o.restConfig.caData,
    ...Object.fromEntries(Object.entries(o.config ?? {}).filter(([, x]) => x !== undefined)),
  };
  const identity = o.identity ?? `${hostname()}_${randomUUID()}`;

  const runControllers = async (leading: AbortSignal): Promise<void> => {
    setMaxListeners(0, leading); // every controller, informer and queue listens to it
    // as upstream's "shared-informers" clientset: the informers' lists and watches have a rate limit of their own, not
    // the one the controllers' token requests wait on (the garbage collector lists every resource at start)
    const informerClient = new Client({ ...o.restConfig, userAgent: `${o.restConfig.userAgent ?? 'kube-controller-manager'}/shared-informers` });
    // as upstream's, cached objects drop managedFields: no controller reads them, and an update that sends none
    // keeps the stored ones
    const informers = new SharedInformerFactory(informerClient, { logger: log.child({ component: 'informers' }), dropManagedFields: true });
    const builder = new ServiceAccountClientBuilder(o.client, o.restConfig, log, clock);
    const recorders: EventRecorder[] = [];
    const run = async (d: ControllerDescriptor, client: Client): Promise<void> => {
      const logger = log.child({ controller: d.name });
      const recorder = new EventRecorder({ sink: client.events(), component: eventSourceOf(d, identity), clock, logger });
      recorders.push(recorder);
      const workers = (d.concurrencyFlag && o.concurrency?.[d.concurrencyFlag]) || d.workers;
      logger.info({ workers }, 'starting controller');
      await d.init({
        client, informers, recorder, signal: leading, workers, logger, clock, config, featureGates: o.featureGates,
        serveDebug: (h) => o.onDebugHandler?.(d.name, h),
      });
      logger.info('controller stopped');
    };
    // As upstream's StartControllers: one controller after the other, each running as soon as it has its client.
    // Fetched all at once, every token queued behind every other controller's account lookups on the client's rate
    // limit (20/s), and none started before ~60 requests had gone.
    const runs: Promise<void>[] = [];
    for (const d of selected) {
      const client = o.useServiceAccountCredentials && !d.rootCredentials ? await builder.client(d.serviceAccount, leading).catch(() => undefined) : o.client;
      if (!client) break; // leadership ended while the token was being fetched
      runs.push(run(d, client));
      o.onControllerStarted?.(d.name);
    }
    const results = await Promise.allSettled(runs);
    for (const [i, r] of results.entries()) {
      if (r.status === 'rejected' && !leading.aborted) log.error({ err: r.reason, controller: selected[i]!.name }, 'controller failed');
    }
    builder.stop();
    await informers.shutdown();
    await informerClient.close();
    await Promise.allSettled(recorders.map((r) => r.flush()));
  };

  log.info({ controllers: selected.map((d) => d.name), leaderElect: o.leaderElect, identity }, 'controller-manager starting');
  if (!o.leaderElect) {
    await runControllers(signal);
    return;
  }
  let work: Promise<void> | undefined;
  const elector = new LeaderElector({
    leases: o.client.leases('kube-system'), name: 'kube-controller-manager', identity, clock, logger: log,
    leaseDurationMs: o.leaseDurationMs, renewDeadlineMs: o.renewDeadlineMs, retryPeriodMs: o.retryPeriodMs,
    ...(o.leaderMetrics ? { metrics: o.leaderMetrics } : {}),
    callbacks: {
      onStartedLeading: (leading) => { log.info('started leading'); work = runControllers(leading); },
      onNewLeader: (holder) => { if (holder !== identity) log.info({ leader: holder }, 'new leader elected'); },
    },
  });
  o.onLeaderElector?.(elector);
  await elector.run(signal);
  await work;
  if (!signal.aborted) {
    log.error('leader election lost');
    o.onLostLeadership?.();
  }
}
