// Everything the apiserver is started with; cmd/apiserver.ts fills it from kube-apiserver-named flags.
import type { Logger } from 'pino';
import type { OidcOptions, RequestHeaderFlags } from '../authentication/index.js';
import type { KubeletClientConfig } from './handlers/kubelet-proxy.js';

export interface ApiServerConfig {
  /** Where the store lives (`<dataDir>/store`) and where generated PKI is found (`<dataDir>/pki`). */
  dataDir: string;
  bindAddress: string;
  /** --min-request-timeout in seconds (default 1800): watches without timeoutSeconds last between it and twice it. */
  minRequestTimeoutSeconds?: number;
  /** --external-hostname: the host of this apiserver's external URLs (the default jwks_uri). */
  externalHostname?: string;
  /** --advertise-address: the IP the kubernetes Service's endpoints name (default the bind address, or loopback). */
  advertiseAddress?: string;
  /** --allow-privileged: pods and pod templates may have privileged containers (upstream: capabilities.AllowPrivileged). */
  allowPrivileged: boolean;
  /** --request-timeout (default a minute): requests that are not long-running are answered 504 Timeout past it. */
  requestTimeoutMs?: number;
  /** --shutdown-delay-duration and --shutdown-send-retry-after (graceful-shutdown.ts); default no delay, no Retry-After. */
  shutdown?: { delayMs?: number; sendRetryAfter?: boolean };
  /** --event-ttl: how long an Event outlives its last write (default one hour). */
  eventTtlMs?: number;
  /** How often the kubernetes service and its endpoints are brought back (upstream's EndpointInterval, 10 s; not a flag). */
  kubernetesServiceIntervalMs?: number;
  /** How often expired apiserver identity leases are collected (upstream's IdentityLeaseGCPeriod, an hour; not a flag). */
  identityLeaseGcIntervalMs?: number;
  /** --tls-min-version (Go's name: VersionTLS12) and --tls-cipher-suites (Go's names); default TLS 1.2 and Node's suites. */
  tlsMinVersion?: string;
  tlsCipherSuites?: string[];
  /** --default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds (300 each). */
  defaultTolerationSeconds?: { notReady: number; unreachable: number };
  /** --service-account-max-token-expiration in seconds (unset: no limit). */
  serviceAccountMaxTokenExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true). */
  serviceAccountExtendTokenExpiration?: boolean;
  /** --runtime-config, key → value ("apps/v1" → "false"). */
  runtimeConfig?: ReadonlyMap<string, string>;
  /** --service-node-port-range (default 30000-32767). */
  serviceNodePortRange?: { min: number; max: number };
  /** How the apiserver reaches kubelets (default: the generated client certificate under dataDir/pki, kubeadm's address order). */
  kubeletClient?: Partial<KubeletClientConfig>;
  /** 0 = a random free port (tests). */
  securePort: number;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  /** CA that signs client certificates; empty = no client-certificate authentication. */
  clientCaFile?: string;
  tokenAuthFile?: string;
  /** --enable-bootstrap-token-auth: bearer tokens of kube-system's bootstrap-token-<id> Secrets (off by default, as upstream). */
  enableBootstrapTokenAuth?: boolean;
  basicAuthFile?: string;
  /** In order; the first allow or deny decides. */
  authorizationModes: string[];
  authorizationPolicyFile?: string;
  /** --authorization-webhook-config-file: kubeconfig of the SubjectAccessReview server (Webhook mode). */
  authorizationWebhookConfigFile?: string;
  /** --authorization-webhook-version (default v1). */
  authorizationWebhookVersion?: 'v1' | 'v1beta1';
  /** --authorization-webhook-cache-authorized-ttl in ms (default 5 minutes). */
  authorizationWebhookCacheAuthorizedTtlMs?: number;
  /** --authorization-webhook-cache-unauthorized-ttl in ms (default 30 seconds). */
  authorizationWebhookCacheUnauthorizedTtlMs?: number;
  anonymousAuth: boolean;
  enableAdmissionPlugins: string[];
  disableAdmissionPlugins: string[];
  /** AdmissionConfiguration with each plugin's configuration (PodSecurity defaults and exemptions, ...). */
  admissionControlConfigFile?: string;
  storageBackend: 'leveldb' | 'memory' | 'etcd3';
  /** With storageBackend etcd3: --etcd-servers, --etcd-prefix and the TLS files to reach them. */
  etcd?: { servers: string[]; prefix: string; caFile?: string; certFile?: string; keyFile?: string };
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /** API Priority and Fairness (upstream's default) in place of the two in-flight limits, whose sum it shares out. */
  enablePriorityAndFairness: boolean;
  /** --enable-logs-handler: the directory /logs/ serves (`mini-kube apiserver`: the data dir's logs/, where `up` writes them). */
  logsDir?: string;
  /** Service ClusterIPs come from here. */
  serviceClusterIpRange: string;
  featureGates: Record<string, boolean>;
  /** Events each resource's watch cache keeps for watches resuming from an older resourceVersion (default 10,000). */
  watchCacheHistorySize?: number;
  /** The store keeps event records of this many latest revisions (default 10,000); older ones are compacted. */
  compactionKeepRevisions?: number;
  /** How often the store compacts (default 60 s). */
  compactionIntervalMs?: number;
  /** --service-account-issuer, every value (default https://kubernetes.default.svc.cluster.local); the first issues tokens. */
  serviceAccountIssuers?: string[];
  /** --service-account-key-file (default <dataDir>/pki/sa.pub when it exists). */
  serviceAccountKeyFiles?: string[];
  /** --service-account-signing-key-file (default <dataDir>/pki/sa.key when it exists). */
  serviceAccountSigningKeyFile?: string;
  serviceAccountJwksUri?: string;
  /** --api-audiences (default the issuers). */
  apiAudiences?: string[];
  /** --oidc-* */
  oidc?: OidcOptions;
  authenticationTokenWebhookConfigFile?: string;
  /** --authentication-token-webhook-cache-ttl in ms (default 2 minutes). */
  authenticationTokenWebhookCacheTtlMs?: number;
  /** --requestheader-*: the authenticating front proxy. */
  requestHeader?: RequestHeaderFlags;
  /** --proxy-client-cert-file / --proxy-client-key-file: the aggregator's client certificate towards extension apiservers. */
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  /** --encryption-provider-config: EncryptionConfiguration for data at rest. */
  encryptionProviderConfig?: string;
  /** The audit log backend: events as JSON lines (or legacy lines) in this file ("-": stdout), rotated; none when unset. */
  auditLogPath?: string;
  auditLog?: { format?: 'json' | 'legacy'; maxSizeMb?: number; maxBackups?: number; maxAgeDays?: number };
  /** The audit webhook backend: its kubeconfig, mode and batching. */
  auditWebhook?: { configFile: string; mode?: 'batch' | 'blocking'; batchMaxSize?: number; batchMaxWaitMs?: number };
  /** --audit-policy-file: audit.k8s.io/v1 Policy; without it every request is recorded at Metadata on completion. */
  auditPolicyFile?: string;
  logger: Logger;
}

export const defaultApiServerConfig = (dataDir: string, logger: Logger): ApiServerConfig => ({
  dataDir,
  bindAddress: '127.0.0.1',
  allowPrivileged: false,
  securePort: 6443,
  tlsCertFile: '',
  tlsPrivateKeyFile: '',
  authorizationModes: ['Node', 'RBAC'],
  anonymousAuth: true,
  enableAdmissionPlugins: [],
  disableAdmissionPlugins: [],
  storageBackend: 'leveldb',
  maxRequestsInflight: 400,
  maxMutatingRequestsInflight: 200,
  enablePriorityAndFairness: true,
  serviceClusterIpRange: '10.96.0.0/12',
  featureGates: {},
  logger,
});

/** A running apiserver. */
export interface RunningApiServer {
  /** The port actually bound (useful with securePort 0). */
  port: number;
  url: string;
  close(): Promise<void>;
}
