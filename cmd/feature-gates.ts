// The feature gates kube-apiserver and kube-controller-manager 1.32 know (one gate for all kube binaries:
// k8s.io/kubernetes pkg/features with the generic apiserver's, apiextensions', component-base's and client-go's),
// so that --feature-gates refuses a name they refuse. Knowing a gate is not serving it: most change nothing here.
// Compiled from pkg/features/kube_features.go and versioned_kube_features.go of 1.32 and the 1.32 staging modules.

const KUBE = [
  'AllowDNSOnlyNodeCSR', 'AllowInsecureKubeletCertificateSigningRequests', 'AllowOverwriteTerminationGracePeriodSeconds',
  'AnyVolumeDataSource', 'AppArmor', 'AppArmorFields', 'AuthorizeNodeWithSelectors', 'CloudControllerManagerWebhook',
  'ClusterTrustBundle', 'ClusterTrustBundleProjection', 'ContainerCheckpoint', 'CoordinatedLeaderElection', 'CPUManager',
  'CPUManagerPolicyAlphaOptions', 'CPUManagerPolicyBetaOptions', 'CPUManagerPolicyOptions', 'CronJobsScheduledAnnotation',
  'CrossNamespaceVolumeDataSource', 'CSIMigrationPortworx', 'CSIVolumeHealth', 'CustomCPUCFSQuotaPeriod', 'DevicePluginCDIDevices',
  'DisableAllocatorDualWrite', 'DisableCloudProviders', 'DisableKubeletCloudCredentialProviders', 'DisableNodeKubeProxyVersion',
  'DRAAdminAccess', 'DRAResourceClaimDeviceStatus', 'DynamicResourceAllocation', 'ElasticIndexedJob', 'EventedPLEG',
  'ExecProbeTimeout', 'ExternalServiceAccountTokenSigner', 'GracefulNodeShutdown', 'GracefulNodeShutdownBasedOnPodPriority',
  'HonorPVReclaimPolicy', 'HPAContainerMetrics', 'HPAScaleToZero', 'ImageMaximumGCAge', 'ImageVolume', 'InPlacePodVerticalScaling',
  'InPlacePodVerticalScalingAllocatedStatus', 'InPlacePodVerticalScalingExclusiveCPUs', 'InTreePluginPortworxUnregister',
  'JobBackoffLimitPerIndex', 'JobManagedBy', 'JobPodFailurePolicy', 'JobPodReplacementPolicy', 'JobSuccessPolicy',
  'KubeletCgroupDriverFromCRI', 'KubeletCrashLoopBackOffMax', 'KubeletFineGrainedAuthz', 'KubeletInUserNamespace',
  'KubeletPodResourcesDynamicResources', 'KubeletPodResourcesGet', 'KubeletRegistrationGetOnExistsOnly', 'KubeletSeparateDiskGC',
  'KubeletTracing', 'KubeProxyDrainingTerminatingNodes', 'LoadBalancerIPMode', 'LocalStorageCapacityIsolationFSQuotaMonitoring',
  'LogarithmicScaleDown', 'MatchLabelKeysInPodAffinity', 'MatchLabelKeysInPodTopologySpread', 'MaxUnavailableStatefulSet',
  'MemoryManager', 'MemoryQoS', 'MultiCIDRServiceAllocator', 'NFTablesProxyMode', 'NodeInclusionPolicyInPodTopologySpread',
  'NodeLogQuery', 'NodeSwap', 'PDBUnhealthyPodEvictionPolicy', 'PersistentVolumeLastPhaseTransitionTime', 'PodAndContainerStatsFromCRI',
  'PodDeletionCost', 'PodDisruptionConditions', 'PodHostIPs', 'PodIndexLabel', 'PodLevelResources', 'PodLifecycleSleepAction',
  'PodLifecycleSleepActionAllowZero', 'PodLogsQuerySplitStreams', 'PodReadyToStartContainersCondition', 'PodSchedulingReadiness',
  'PortForwardWebsockets', 'ProcMountType', 'QOSReserved', 'RecoverVolumeExpansionFailure', 'RecursiveReadOnlyMounts',
  'RelaxedDNSSearchValidation', 'RelaxedEnvironmentVariableValidation', 'ReloadKubeletServerCertificateFile', 'ResourceHealthStatus',
  'RotateKubeletServerCertificate', 'RuntimeClassInImageCriApi', 'SchedulerAsyncPreemption', 'SchedulerQueueingHints',
  'SELinuxChangePolicy', 'SELinuxMount', 'SELinuxMountReadWriteOncePod', 'SeparateTaintEvictionController',
  'ServiceAccountNodeAudienceRestriction', 'ServiceAccountTokenJTI', 'ServiceAccountTokenNodeBinding',
  'ServiceAccountTokenNodeBindingValidation', 'ServiceAccountTokenPodNodeInfo', 'ServiceTrafficDistribution', 'SidecarContainers',
  'SizeMemoryBackedVolumes', 'StatefulSetAutoDeletePVC', 'StatefulSetStartOrdinal', 'StorageNamespaceIndex', 'StorageVersionMigrator',
  'SupplementalGroupsPolicy', 'SystemdWatchdog', 'TopologyAwareHints', 'TopologyManagerPolicyAlphaOptions',
  'TopologyManagerPolicyBetaOptions', 'TopologyManagerPolicyOptions', 'TranslateStreamCloseWebsocketRequests',
  'UnknownVersionInteroperabilityProxy', 'UserNamespacesPodSecurityStandards', 'UserNamespacesSupport', 'VolumeAttributesClass',
  'VolumeCapacityPriority', 'WindowsCPUAndMemoryAffinity', 'WindowsGracefulNodeShutdown', 'WindowsHostNetwork', 'WinDSR', 'WinOverlay',
];

/** k8s.io/apiserver pkg/features (v0.32), relisted by kube. */
const GENERIC_APISERVER = [
  'AdmissionWebhookMatchConditions', 'AggregatedDiscoveryEndpoint', 'AllowUnsafeMalformedObjectDeletion',
  'AnonymousAuthConfigurableEndpoints', 'APIListChunking', 'APIResponseCompression', 'APIServerIdentity', 'APIServerTracing',
  'APIServingWithRoutine', 'AuthorizeWithSelectors', 'BtreeWatchCache', 'CBORServingAndStorage', 'ConcurrentWatchObjectDecode',
  'ConsistentListFromCache', 'EfficientWatchResumption', 'KMSv1', 'MutatingAdmissionPolicy', 'OpenAPIEnums', 'RemainingItemCount',
  'RemoteRequestHeaderUID', 'ResilientWatchCacheInitialization', 'RetryGenerateName', 'SeparateCacheWatchRPC', 'StorageVersionAPI',
  'StorageVersionHash', 'StrictCostEnforcementForVAP', 'StrictCostEnforcementForWebhooks', 'StructuredAuthenticationConfiguration',
  'StructuredAuthorizationConfiguration', 'UnauthenticatedHTTP2DOSMitigation', 'WatchBookmark', 'WatchCacheInitializationPostStartHook',
  'WatchFromStorageWithoutResourceVersion', 'WatchList', 'ZeroLimitedNominalConcurrencyShares',
];

/** apiextensions-apiserver, component-base (logs, metrics, zpages) and client-go gates, all registered on kube's gate. */
const STAGING = [
  'CRDValidationRatcheting', 'CustomResourceFieldSelectors',
  'ComponentFlagz', 'ComponentSLIs', 'ComponentStatusz', 'ContextualLogging', 'LoggingAlphaOptions', 'LoggingBetaOptions',
  'ClientsAllowCBOR', 'ClientsPreferCBOR', 'InformerResourceVersion', 'WatchListClient',
];

/** featuregate's own: every alpha (or beta) gate at once. */
const SPECIAL = ['AllAlpha', 'AllBeta'];

/** mini-kube's own: Initializers (alpha 1.7-1.13, gone upstream) is served here on request. */
const MINI_KUBE = ['Initializers'];

export const KNOWN_FEATURE_GATES: ReadonlySet<string> = new Set([...KUBE, ...GENERIC_APISERVER, ...STAGING, ...SPECIAL, ...MINI_KUBE]);
