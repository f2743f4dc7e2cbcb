// What the cluster-level controllers (garbage collector, namespace, node lifecycle, ...) need beyond the shared
// ControllerContext: the controller-manager's settings (upstream's KubeControllerManagerConfiguration, in ms).
import type { ControllerContext } from './types.js';

export interface ClusterControllerConfig {
  /** PEM of the cluster CA that root-ca-cert-publisher writes into every namespace (upstream --root-ca-file). */
  rootCaPem?: string;
  /** PEM of the key legacy service-account tokens are signed with (upstream --service-account-private-key-file). */
  serviceAccountPrivateKeyPem?: string;
  /** How often node health is checked (upstream --node-monitor-period, 5 s). */
  nodeMonitorPeriodMs: number;
  /** A node whose heartbeat is older than this is Unknown (upstream --node-monitor-grace-period, 50 s since 1.32). */
  nodeMonitorGracePeriodMs: number;
  /** How long a new node may go without any heartbeat (upstream --node-startup-grace-period, 60 s). */
  nodeStartupGracePeriodMs: number;
  /** Nodes per second whose pods may be evicted (NoExecute-tainted) in a healthy zone (upstream --node-eviction-rate, 0.1). */
  nodeEvictionRate: number;
  /** The same in a partially disrupted zone of more than largeClusterSizeThreshold nodes (upstream --secondary-node-eviction-rate, 0.01). */
  secondaryNodeEvictionRate: number;
  /** Nodes a zone must count more of for secondaryNodeEvictionRate; smaller ones stop (upstream --large-cluster-size-threshold, 50). */
  largeClusterSizeThreshold: number;
  /** The share of a zone's nodes not ready (3 at least) that makes it partially disrupted (upstream --unhealthy-zone-threshold, 0.55). */
  unhealthyZoneThreshold: number;
  /** Terminated pods kept before podgc deletes the oldest (upstream --terminated-pod-gc-threshold, 12500; 0: off). */
  terminatedPodGcThreshold: number;
  /** How often podgc runs (upstream gcCheckPeriod, 20 s). */
  podGcPeriodMs: number;
  /** How long a pod's node must be gone before podgc deletes the pod (upstream quarantineTime, 40 s). */
  podGcQuarantineMs: number;
  /** Full recomputation of every quota (upstream --resource-quota-sync-period, 5 min). */
  resourceQuotaSyncPeriodMs: number;
  /** Re-reading discovery for new resources (garbage collector, resource quota; upstream 30 s). */
  discoveryPeriodMs: number;
  /** Re-sync of namespaces (upstream --namespace-sync-period, 5 min). */
  namespaceSyncPeriodMs: number;
  /** Re-sync of every claim and volume by the PersistentVolume binder (upstream --pvclaimbinder-sync-period, 15 s). */
  pvClaimBinderSyncPeriodMs: number;
  /** Where the mini-kube.io/hostpath provisioner makes its volumes' directories (minikube's /tmp/hostpath-provisioner). */
  hostPathProvisionerDir: string;
  /** Whether node-ipam gives nodes a podCIDR (upstream --allocate-node-cidrs, off). */
  allocateNodeCidrs: boolean;
  /** The pods' range that node CIDRs are cut from (upstream --cluster-cidr). */
  clusterCidr: string;
  /** The prefix length of each node's podCIDR (upstream --node-cidr-mask-size, 24 for IPv4). */
  nodeCidrMaskSize: number;
  /** The services' range, never given to a node (upstream --service-cluster-ip-range). */
  serviceClusterIpRange: string;
  /** The CA that signs approved CertificateSigningRequests (upstream --cluster-signing-cert-file / -key-file). */
  clusterSigningCertPem?: string;
  clusterSigningKeyPem?: string;
  /** The longest validity a signed certificate gets (upstream --cluster-signing-duration, 1 year). */
  clusterSigningDurationMs: number;
  /** How often each HorizontalPodAutoscaler is reconciled (upstream --horizontal-pod-autoscaler-sync-period, 15 s). */
  hpaSyncPeriodMs: number;
  /** The scale-down stabilization window of autoscalers without behavior (upstream --horizontal-pod-autoscaler-downscale-stabilization, 5 min). */
  hpaDownscaleStabilizationMs: number;
  /** The least change of the usage ratio that rescales (upstream --horizontal-pod-autoscaler-tolerance, 0.1). */
  hpaTolerance: number;
  /** After a pod starts, how long its CPU samples count only once it is ready for a metric window (upstream --horizontal-pod-autoscaler-cpu-initialization-period, 5 min). */
  hpaCpuInitializationPeriodMs: number;
  /** After a pod starts, how long an unready pod is taken as not yet ready rather than failing (upstream --horizontal-pod-autoscaler-initial-readiness-delay, 30 s). */
  hpaInitialReadinessDelayMs: number;
}

export const defaultClusterControllerConfig = (): ClusterControllerConfig => ({
  nodeMonitorPeriodMs: 5_000,
  nodeMonitorGracePeriodMs: 50_000,
  nodeStartupGracePeriodMs: 60_000,
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
  terminatedPodGcThreshold: 12_500,
  podGcPeriodMs: 20_000,
  podGcQuarantineMs: 40_000,
  resourceQuotaSyncPeriodMs: 5 * 60_000,
  discoveryPeriodMs: 30_000,
  namespaceSyncPeriodMs: 5 * 60_000,
  pvClaimBinderSyncPeriodMs: 15_000,
  hostPathProvisionerDir: '/tmp/hostpath-provisioner',
  allocateNodeCidrs: false,
  clusterCidr: '',
  nodeCidrMaskSize: 24,
  serviceClusterIpRange: '',
  clusterSigningDurationMs: 365 * 24 * 3600_000,
  hpaSyncPeriodMs: 15_000,
  hpaDownscaleStabilizationMs: 5 * 60_000,
  hpaTolerance: 0.1,
  hpaCpuInitializationPeriodMs: 5 * 60_000,
  hpaInitialReadinessDelayMs: 30_000,
});

export interface ClusterControllerContext extends ControllerContext {
  config: ClusterControllerConfig;
}

/** Starts a cluster-level controller; resolves once it has stopped after ctx.signal aborted. */
export type ClusterControllerInit = (ctx: ClusterControllerContext) => Promise<void> | void;
