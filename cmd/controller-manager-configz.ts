// /configz of the controller-manager as upstream's: `{"kubecontrollermanager.config.k8s.io": <configuration>}`, the
// internal KubeControllerManagerConfiguration with its Go field names (no JSON tags), durations as Go strings; the
// parts this controller-manager has flags for.
import { goDuration } from '../pkg/apimachinery/protobuf/scalars.js';

const d = (ms: number | undefined): string => goDuration(BigInt(Math.round((ms ?? 0) * 1e6)));

/** What the configuration is made of: the flag values, and the durations parsed to ms by flag name. */
export function controllerManagerConfigz(v: Record<string, unknown>, ms: Record<string, number>): Record<string, unknown> {
  const n = (flag: string): number => Number(v[flag]);
  const s = (flag: string): string => String(v[flag] ?? '');
  return {
    'kubecontrollermanager.config.k8s.io': {
      Generic: {
        Port: n('secure-port'), Address: s('bind-address'), MinResyncPeriod: '12h0m0s',
        ClientConnection: { Kubeconfig: s('kubeconfig'), AcceptContentTypes: '', ContentType: 'application/vnd.kubernetes.protobuf', QPS: n('kube-api-qps'), Burst: n('kube-api-burst') },
        ControllerStartInterval: '0s',
        LeaderElection: {
          LeaderElect: v['leader-elect'] === true, LeaseDuration: d(ms['leader-elect-lease-duration']), RenewDeadline: d(ms['leader-elect-renew-deadline']),
          RetryPeriod: d(ms['leader-elect-retry-period']), ResourceLock: 'leases', ResourceName: 'kube-controller-manager', ResourceNamespace: 'kube-system',
        },
        Controllers: v.controllers,
        Debugging: { EnableProfiling: false, EnableContentionProfiling: false },
        LeaderMigrationEnabled: false,
      },
      KubeCloudShared: {
        UseServiceAccountCredentials: v['use-service-account-credentials'] === true, AllocateNodeCIDRs: v['allocate-node-cidrs'] === true,
        ClusterCIDR: s('cluster-cidr'), NodeMonitorPeriod: d(ms['node-monitor-period']),
      },
      CSRSigningController: {
        ClusterSigningCertFile: s('cluster-signing-cert-file'), ClusterSigningKeyFile: s('cluster-signing-key-file'),
        ClusterSigningDuration: d(ms['cluster-signing-duration']),
      },
      CronJobController: { ConcurrentCronJobSyncs: n('concurrent-cron-job-syncs') },
      DaemonSetController: { ConcurrentDaemonSetSyncs: n('concurrent-daemonset-syncs') },
      DeploymentController: { ConcurrentDeploymentSyncs: n('concurrent-deployment-syncs') },
      StatefulSetController: { ConcurrentStatefulSetSyncs: n('concurrent-statefulset-syncs') },
      EndpointController: { ConcurrentEndpointSyncs: n('concurrent-endpoint-syncs'), EndpointUpdatesBatchPeriod: '0s' },
      EndpointSliceController: { ConcurrentServiceEndpointSyncs: n('concurrent-service-endpoint-syncs'), MaxEndpointsPerSlice: 100, EndpointUpdatesBatchPeriod: '0s' },
      EndpointSliceMirroringController: {
        MirroringConcurrentServiceEndpointSyncs: n('mirroring-concurrent-service-endpoint-syncs'), MirroringMaxEndpointsPerSubset: 1000, MirroringEndpointUpdatesBatchPeriod: '0s',
      },
      GarbageCollectorController: { EnableGarbageCollector: true, ConcurrentGCSyncs: n('concurrent-gc-syncs') },
      HPAController: {
        HorizontalPodAutoscalerSyncPeriod: d(ms['horizontal-pod-autoscaler-sync-period']),
        HorizontalPodAutoscalerDownscaleStabilizationWindow: d(ms['horizontal-pod-autoscaler-downscale-stabilization']),
        HorizontalPodAutoscalerTolerance: Number(v['horizontal-pod-autoscaler-tolerance']),
        HorizontalPodAutoscalerCPUInitializationPeriod: d(ms['horizontal-pod-autoscaler-cpu-initialization-period']),
        HorizontalPodAutoscalerInitialReadinessDelay: d(ms['horizontal-pod-autoscaler-initial-readiness-delay']),
      },
      JobController: { ConcurrentJobSyncs: n('concurrent-job-syncs') },
      NamespaceController: { NamespaceSyncPeriod: d(ms['namespace-sync-period']), ConcurrentNamespaceSyncs: n('concurrent-namespace-syncs') },
      NodeIPAMController: { ServiceCIDR: s('service-cluster-ip-range'), SecondaryServiceCIDR: '', NodeCIDRMaskSize: n('node-cidr-mask-size') },
      NodeLifecycleController: {
        NodeEvictionRate: v['node-eviction-rate'], SecondaryNodeEvictionRate: v['secondary-node-eviction-rate'],
        NodeStartupGracePeriod: d(ms['node-startup-grace-period']), NodeMonitorGracePeriod: d(ms['node-monitor-grace-period']),
        LargeClusterSizeThreshold: n('large-cluster-size-threshold'), UnhealthyZoneThreshold: v['unhealthy-zone-threshold'],
      },
      PersistentVolumeBinderController: { PVClaimBinderSyncPeriod: d(ms['pvclaimbinder-sync-period']) },
      PodGCController: { TerminatedPodGCThreshold: n('terminated-pod-gc-threshold') },
      ReplicaSetController: { ConcurrentRSSyncs: n('concurrent-replicaset-syncs') },
      ReplicationController: { ConcurrentRCSyncs: n('concurrent-rc-syncs') },
      ResourceQuotaController: { ResourceQuotaSyncPeriod: d(ms['resource-quota-sync-period']), ConcurrentResourceQuotaSyncs: n('concurrent-resource-quota-syncs') },
      SAController: { ServiceAccountKeyFile: s('service-account-private-key-file'), ConcurrentSATokenSyncs: 0, RootCAFile: s('root-ca-file') },
      ServiceController: { ConcurrentServiceSyncs: n('concurrent-service-syncs') },
      TTLAfterFinishedController: { ConcurrentTTLSyncs: n('concurrent-ttl-after-finished-syncs') },
    },
  };
}
