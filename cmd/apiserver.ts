// `mini-kube apiserver`: kube-apiserver's flags in, ApiServerConfig out, then serve until SIGINT/SIGTERM.
import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import { existsSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { join, resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import { defaultApiServerConfig, type ApiServerConfig } from '../pkg/apiserver/config.js';
import type { RequestHeaderFlags } from '../pkg/authentication/index.js';
import { ensureFrontProxyPki, ensurePki, type CertKeyPaths, type PkiPaths } from '../pkg/pki/ensure-pki.js';
import { parseRuntimeConfig, servedGroupVersions } from '../pkg/apiserver/runtime-config.js';
import { apiServerFlags, parsePortRange, validateApiServerFlags, withImpliedFlags, type ApiServerFlagValues } from './apiserver-flags.js';
import { dataDirInUseMessage, isStoreLocked } from './data-dir-lock.js';
import { exitWithFlagError, FlagError, parseOrExit } from './flags.js';
import { startHeapReclaimer } from './heap-reclaimer.js';
import { onShutdownSignal } from './signals.js';
import { kubernetesServiceIp } from './service-range.js';

const summary = 'Runs the Kubernetes API server: REST over HTTPS for every resource, backed by its own store.';

const logLevel = (v: number): string => (v >= 6 ? 'trace' : v >= 4 ? 'debug' : 'info');

export interface ApiServerSetup {
  config: ApiServerConfig;
  /**
   * The generated CA and admin pair, when the server's certificate and client CA are the generated ones: only then
   * does DIR/admin.kubeconfig work (envtest, with certificates of its own, writes its own kubeconfig).
   */
  admin?: { caCert: string; pair: CertKeyPaths };
}

/** Fills in generated TLS material for whatever the flags leave out. */
export const apiServerConfig = async (v: ApiServerFlagValues, logger: Logger): Promise<ApiServerSetup> => {
  const dataDir = resolve(v['data-dir']);
  let tlsCertFile = v['tls-cert-file'];
  let tlsPrivateKeyFile = v['tls-private-key-file'];
  let clientCaFile = v['client-ca-file'];
  let proxyClientCertFile = v['proxy-client-cert-file'];
  let proxyClientKeyFile = v['proxy-client-key-file'];
  const requestHeaderFrom = (clientCaFile: string, allowedNames: string[]): RequestHeaderFlags => ({
    clientCaFile, allowedNames, usernameHeaders: v['requestheader-username-headers'], uidHeaders: v['requestheader-uid-headers'],
    groupHeaders: v['requestheader-group-headers'], extraHeadersPrefix: v['requestheader-extra-headers-prefix'],
  });
  let requestHeader = v['requestheader-client-ca-file'] ? requestHeaderFrom(v['requestheader-client-ca-file'], v['requestheader-allowed-names']) : undefined;
  // as kube-apiserver: the pair in --cert-dir serves when no --tls-cert-file is given
  const certDir = v['cert-dir'] ? resolve(v['cert-dir']) : undefined;
  if (!tlsCertFile && certDir && existsSync(join(certDir, 'apiserver.crt')) && existsSync(join(certDir, 'apiserver.key'))) {
    tlsCertFile = join(certDir, 'apiserver.crt');
    tlsPrivateKeyFile = join(certDir, 'apiserver.key');
  }
  let pki: PkiPaths | undefined;
  if (!tlsCertFile || !clientCaFile || !proxyClientCertFile) {
    const wildcard = v['bind-address'] === '0.0.0.0' || v['bind-address'] === '::';
    // as kube-apiserver's self-signed serving certificate: in-cluster clients use the kubernetes Service's ClusterIP
    const range = v['service-cluster-ip-range'];
    const serviceIp = isIPv4(range.split('/')[0]!) ? [kubernetesServiceIp(range)] : [];
    const addresses = [...(wildcard ? [] : [v['bind-address']]), ...(v['advertise-address'] ? [v['advertise-address']] : [])];
    const onRenewed = (cert: string, expiry: string): void => logger.warn({ cert, expiry }, 'certificate issued again: it expired or was about to');
    pki = await ensurePki(join(dataDir, 'pki'), { nodes: [], serverSans: [...addresses, ...serviceIp], onRenewed });
    if (!tlsCertFile) ({ cert: tlsCertFile, key: tlsPrivateKeyFile } = pki.apiserver);
    clientCaFile ||= pki.ca.cert;
    // As kubeadm sets up kube-apiserver: the aggregator proxies with the front-proxy client certificate, and this
    // apiserver accepts the same front proxy (so the extension-apiserver-authentication ConfigMap names its CA).
    if (!proxyClientCertFile) {
      const front = await ensureFrontProxyPki(pki.dir, { onRenewed });
      ({ cert: proxyClientCertFile, key: proxyClientKeyFile } = front.client);
      requestHeader ??= requestHeaderFrom(front.ca.cert, ['front-proxy-client']);
    }
  }
  const admin = pki && tlsCertFile === pki.apiserver.cert && clientCaFile === pki.ca.cert ? { caCert: pki.ca.cert, pair: pki.admin } : undefined;
  const config: ApiServerConfig = {
    ...defaultApiServerConfig(dataDir, logger),
    bindAddress: v['bind-address'],
    advertiseAddress: v['advertise-address'] || undefined,
    externalHostname: v['external-hostname'] || undefined,
    minRequestTimeoutSeconds: v['min-request-timeout'],
    requestTimeoutMs: parseGoDurationMs(v['request-timeout']),
    allowPrivileged: v['allow-privileged'],
    eventTtlMs: parseGoDurationMs(v['event-ttl']),
    shutdown: { delayMs: parseGoDurationMs(v['shutdown-delay-duration']), sendRetryAfter: v['shutdown-send-retry-after'] },
    serviceNodePortRange: parsePortRange(v['service-node-port-range']),
    runtimeConfig: parseRuntimeConfig(v['runtime-config']),
    defaultTolerationSeconds: { notReady: v['default-not-ready-toleration-seconds'], unreachable: v['default-unreachable-toleration-seconds'] },
    tlsMinVersion: v['tls-min-version'] || undefined,
    tlsCipherSuites: v['tls-cipher-suites'],
    kubeletClient: {
      ...(v['kubelet-client-certificate'] ? { certFile: v['kubelet-client-certificate'], keyFile: v['kubelet-client-key'] } : {}),
      ...(v['kubelet-certificate-authority'] ? { caFile: v['kubelet-certificate-authority'] } : {}),
      preferredAddressTypes: v['kubelet-preferred-address-types'],
      translateStreamClose: v['feature-gates'].TranslateStreamCloseWebsocketRequests !== false,
    },
    securePort: v['secure-port'],
    tlsCertFile,
    tlsPrivateKeyFile,
    clientCaFile,
    tokenAuthFile: v['token-auth-file'] || undefined,
    enableBootstrapTokenAuth: v['enable-bootstrap-token-auth'],
    basicAuthFile: v['basic-auth-file'] || undefined,
    authorizationModes: v['authorization-mode'],
    authorizationPolicyFile: v['authorization-policy-file'] || undefined,
    authorizationWebhookConfigFile: v['authorization-webhook-config-file'] || undefined,
    authorizationWebhookVersion: v['authorization-webhook-version'] === 'v1beta1' ? 'v1beta1' : 'v1',
    authorizationWebhookCacheAuthorizedTtlMs: parseGoDurationMs(v['authorization-webhook-cache-authorized-ttl']),
    authorizationWebhookCacheUnauthorizedTtlMs: parseGoDurationMs(v['authorization-webhook-cache-unauthorized-ttl']),
    anonymousAuth: v['anonymous-auth'],
    enableAdmissionPlugins: v['enable-admission-plugins'],
    disableAdmissionPlugins: v['disable-admission-plugins'],
    admissionControlConfigFile: v['admission-control-config-file'] ? resolve(v['admission-control-config-file']) : undefined,
    storageBackend: v['storage-backend'] as ApiServerConfig['storageBackend'],
    etcd: v['storage-backend'] === 'etcd3' ? {
      servers: v['etcd-servers'], prefix: v['etcd-prefix'],
      caFile: v['etcd-cafile'] || undefined, certFile: v['etcd-certfile'] || undefined, keyFile: v['etcd-keyfile'] || undefined,
    } : undefined,
    maxRequestsInflight: v['max-requests-inflight'],
    maxMutatingRequestsInflight: v['max-mutating-requests-inflight'],
    enablePriorityAndFairness: v['enable-priority-and-fairness'],
    logsDir: v['enable-logs-handler'] ? join(dataDir, 'logs') : undefined,
    serviceClusterIpRange: v['service-cluster-ip-range'],
    featureGates: v['feature-gates'],
    auditLogPath: v['audit-log-path'] || undefined,
    auditLog: { format: v['audit-log-format'] as 'json' | 'legacy', maxSizeMb: v['audit-log-maxsize'], maxBackups: v['audit-log-maxbackup'], maxAgeDays: v['audit-log-maxage'] },
    auditWebhook: v['audit-webhook-config-file'] ? {
      configFile: resolve(v['audit-webhook-config-file']), mode: v['audit-webhook-mode'] as 'batch' | 'blocking',
      batchMaxSize: v['audit-webhook-batch-max-size'], batchMaxWaitMs: parseGoDurationMs(v['audit-webhook-batch-max-wait']),
    } : undefined,
    auditPolicyFile: v['audit-policy-file'] ? resolve(v['audit-policy-file']) : undefined,
    serviceAccountIssuers: v['service-account-issuer'],
    serviceAccountKeyFiles: v['service-account-key-file'].length ? v['service-account-key-file'] : undefined,
    serviceAccountSigningKeyFile: v['service-account-signing-key-file'] || undefined,
    serviceAccountJwksUri: v['service-account-jwks-uri'] || undefined,
    serviceAccountMaxTokenExpirationSeconds: Math.floor((parseGoDurationMs(v['service-account-max-token-expiration']) ?? 0) / 1000) || undefined,
    serviceAccountExtendTokenExpiration: v['service-account-extend-token-expiration'],
    apiAudiences: v['api-audiences'].length ? v['api-audiences'] : undefined,
    oidc: v['oidc-issuer-url'] ? {
      issuerUrl: v['oidc-issuer-url'], clientId: v['oidc-client-id'], usernameClaim: v['oidc-username-claim'],
      usernamePrefix: v['oidc-username-prefix'] || undefined, groupsClaim: v['oidc-groups-claim'] || undefined,
      groupsPrefix: v['oidc-groups-prefix'] || undefined, caFile: v['oidc-ca-file'] || undefined, signingAlgs: v['oidc-signing-algs'],
      requiredClaims: Object.fromEntries(v['oidc-required-claim'].map((kv) => [kv.split('=')[0]!, kv.split('=').slice(1).join('=')])),
    } : undefined,
    authenticationTokenWebhookConfigFile: v['authentication-token-webhook-config-file'] || undefined,
    authenticationTokenWebhookCacheTtlMs: parseGoDurationMs(v['authentication-token-webhook-cache-ttl']),
    requestHeader,
    proxyClientCertFile,
    proxyClientKeyFile,
    encryptionProviderConfig: v['encryption-provider-config'] || undefined,
  };
  return { config, admin };
};

/**
 * --runtime-config checked as the server will read it, so that a bad key is a flag error (exit 2) with upstream's
 * words rather than a failed start. The API list is loaded only when the flag is given (the warm start does not pay).
 */
const checkRuntimeConfig = async (v: ApiServerFlagValues): Promise<void> => {
  if (v['runtime-config'].length === 0) return;
  const { initializersFeature } = await import('../pkg/apiserver/initializers.js');
  const plugins = { featureGates: v['feature-gates'], enableAdmissionPlugins: v['enable-admission-plugins'], disableAdmissionPlugins: v['disable-admission-plugins'] };
  const psp = plugins.enableAdmissionPlugins.includes('PodSecurityPolicy') && !plugins.disableAdmissionPlugins.includes('PodSecurityPolicy');
  try {
    servedGroupVersions(initializersFeature(plugins).api.groupVersions, parseRuntimeConfig(v['runtime-config']), psp);
  } catch (e) {
    throw new FlagError(`invalid argument "${v['runtime-config'].join(',')}" for "--runtime-config" flag: ${(e as Error).message}`);
  }
};

/** What to do about a failure to start, for the ones a second server on the same port or data dir causes. */
const startFailureHint = (e: unknown, v: ApiServerFlagValues): string | undefined => {
  if ((e as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE') return `${(e as Error).message}; pass --secure-port 0 (any free port) or another port`;
  if (isStoreLocked(e)) return dataDirInUseMessage(resolve(v['data-dir']));
  return undefined;
};

export const main = async (argv: readonly string[]): Promise<void> => {
  const parsed = parseOrExit('apiserver', summary, argv, apiServerFlags);
  const values = withImpliedFlags(parsed.values, parsed.given);
  try {
    validateApiServerFlags(values);
    await checkRuntimeConfig(values);
  } catch (e) {
    if (e instanceof FlagError) exitWithFlagError('apiserver', e);
    throw e;
  }
  // synchronous, as Node's own stderr: a line is out before the next one (the failed-start line for a person comes last)
  const logger = pino({ name: 'apiserver', level: logLevel(values.v) }, pino.destination({ dest: 2, sync: true }));
  try {
    // Loaded only once the flags are good: --help and flag errors answer without starting the server's module graph.
    const { startApiServer } = await import('../pkg/apiserver/server.js');
    const { config, admin } = await apiServerConfig(values, logger);
    // The handler is in place before the server answers /readyz: a stop asked for as soon as it is ready (a test's,
    // a bench's) is a graceful one that closes the store, not the signal's default death.
    const starting = startApiServer(config);
    let reclaimer: ReturnType<typeof startHeapReclaimer> | undefined;
    onShutdownSignal(async (signal) => {
      reclaimer?.stop();
      logger.info({ signal }, 'shutting down');
      await (await starting.catch(() => undefined))?.close(); // a start that fails exits on its own
      logger.info('stopped');
    });
    const server = await starting;
    logger.info({ url: server.url }, 'serving');
    // as `up`: a kubeconfig for kubectl once it serves, at the port it got (--secure-port 0 picks one); its writer
    // (YAML) is loaded only then, no part of the start
    const { readAdminCredentials, serverUrl, writeAdminKubeconfig } = await import('./admin-kubeconfig.js');
    const kubeconfig = admin && await readAdminCredentials(admin.caCert, admin.pair)
      .then((c) => writeAdminKubeconfig(config.dataDir, serverUrl(values['bind-address'], server.port), c))
      .catch((err: unknown) => { logger.warn({ err }, 'admin.kubeconfig not written: the server runs on'); return undefined; });
    process.stderr.write(kubeconfig ? `ready: export KUBECONFIG=${kubeconfig}\n` : `ready: serving ${server.url}\n`);
    reclaimer = startHeapReclaimer({ logger });
  } catch (e) {
    const hint = startFailureHint(e, values);
    // the hint is the log line's error (what `up` reports of a child that died) and, for a person, the last line
    logger.fatal({ err: hint ? new Error(hint) : e }, 'apiserver failed to start');
    if (hint) process.stderr.write(`Error: apiserver failed to start: ${hint}\n`);
    process.exit(1);
  }
};
