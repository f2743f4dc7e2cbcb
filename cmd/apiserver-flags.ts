// kube-apiserver's flags (the ones mini-kube serves, and the ones it accepts by name for later) and their checks.
import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import { isIP } from 'node:net';
import { validatePluginNames } from '../pkg/admission/names.js';
import { servingTls } from '../pkg/apiserver/tls-options.js';
import { KNOWN_FEATURE_GATES } from './feature-gates.js';
import { flag, FlagError, type FlagValues } from './flags.js';

export const apiServerFlags = {
  'data-dir': flag.string('./.mini-kube', 'Directory of the store (store/) and of generated certificates (pki/); default --cert-dir when that is given'),
  'secure-port': flag.int(6443, 'The port on which to serve HTTPS with authentication and authorization (0 = any free port)'),
  'bind-address': flag.string('127.0.0.1', 'The IP address on which to listen for the --secure-port port'),
  'advertise-address': flag.string('', 'The IP address the kubernetes Service\'s endpoints name (default --bind-address; 127.0.0.1 when that is unspecified)'),
  'request-timeout': flag.string('1m0s', 'The longest a request that is not long-running (not a watch, log, exec or proxy) may take before it is answered 504 Timeout; a request\'s `timeout` parameter may shorten it (a Go duration)'),
  'min-request-timeout': flag.int(1800, 'Seconds a watch without timeoutSeconds lasts at least (it picks a random length up to twice this, to spread re-lists)'),
  'external-hostname': flag.string('', 'The hostname of this apiserver\'s external URLs (the service account issuer discovery\'s default jwks_uri)'),
  'cert-dir': flag.string('', 'Directory holding apiserver.crt and apiserver.key, the serving certificate when --tls-cert-file is not given (without them, one generated under --data-dir/pki serves)'),
  'tls-cert-file': flag.string('', 'Serving certificate (PEM); default --cert-dir/apiserver.crt, else generated under --data-dir/pki'),
  'tls-private-key-file': flag.string('', 'Private key of --tls-cert-file'),
  'tls-min-version': flag.string('', 'Minimum TLS version: VersionTLS10, VersionTLS11, VersionTLS12 (the default), VersionTLS13'),
  'tls-cipher-suites': flag.list([], 'Cipher suites for TLS 1.2 and below, by Go\'s names (TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, ...); default Node\'s list'),
  'client-ca-file': flag.string('', 'CA bundle that client certificates must chain to; the generated cluster CA when not given'),
  'token-auth-file': flag.string('', 'Static bearer tokens, CSV: token,user,uid,"group1,group2"'),
  'enable-bootstrap-token-auth': flag.bool(false, 'Bearer tokens <id>.<secret> of the Secrets kube-system/bootstrap-token-<id> (type bootstrap.kubernetes.io/token) authenticate as system:bootstrap:<id>'),
  'basic-auth-file': flag.string('', 'HTTP Basic passwords, CSV: password,user,uid,"group1,group2"'),
  'authorization-mode': flag.list(['Node', 'RBAC'], 'Ordered list of authorizers: AlwaysAllow, AlwaysDeny, ABAC, RBAC, Node, Webhook'),
  'authorization-policy-file': flag.string('', 'ABAC policy, one JSON object per line (with --authorization-mode=ABAC)'),
  'anonymous-auth': flag.bool(true, 'Requests without credentials are system:anonymous in group system:unauthenticated'),
  'enable-admission-plugins': flag.list([], 'Admission plugins to enable in addition to the default ones'),
  'disable-admission-plugins': flag.list([], 'Admission plugins to disable, even default ones'),
  'storage-backend': flag.string('leveldb', 'Storage backend (memory keeps nothing across restarts; etcd3 when only --etcd-servers is given)', ['leveldb', 'memory', 'etcd3']),
  'event-ttl': flag.string('1h0m0s', 'Amount of time to retain events (a Go duration)'),
  'shutdown-delay-duration': flag.string('0s', 'Time to delay the termination: /readyz fails at once while requests are still served, so that load balancers stop sending them (a Go duration)'),
  'shutdown-send-retry-after': flag.bool(false, 'While the in-flight requests drain at shutdown, answer new requests 429 with a Retry-After and close their connections'),
  'runtime-config': flag.list([], 'key=value pairs turning APIs on or off: api/all, api/ga, api/beta, api/alpha, <group>/<version>, <group>/<version>/<resource> (policy/v1beta1, gone upstream in 1.25, is off unless asked for or its admission plugin is on)'),
  'service-node-port-range': flag.string('30000-32767', 'A port range (a-b, or a+offset) reserved for NodePort Services'),
  'kubelet-client-certificate': flag.string('', 'Client certificate the apiserver shows kubelets (default the generated apiserver-kubelet-client under --data-dir/pki)'),
  'kubelet-client-key': flag.string('', 'Private key of --kubelet-client-certificate'),
  'kubelet-certificate-authority': flag.string('', 'CA bundle the kubelets\' serving certificates are verified against (default: not verified)'),
  'kubelet-preferred-address-types': flag.list(['InternalIP', 'ExternalIP', 'Hostname'], 'The node address types to reach kubelets by, in order (kubeadm\'s; mini-kube\'s kubelets name themselves by --node-name)'),
  'default-not-ready-toleration-seconds': flag.int(300, 'The tolerationSeconds of the not-ready:NoExecute toleration DefaultTolerationSeconds gives every pod without one'),
  'default-unreachable-toleration-seconds': flag.int(300, 'The tolerationSeconds of the unreachable:NoExecute toleration DefaultTolerationSeconds gives every pod without one'),
  'allow-privileged': flag.bool(false, 'If true, allow privileged containers (securityContext.privileged, Windows host processes)'),
  'max-requests-inflight': flag.int(400, 'Maximum non-mutating requests in flight (0 = no limit)'),
  'max-mutating-requests-inflight': flag.int(200, 'Maximum mutating requests in flight (0 = no limit)'),
  'enable-logs-handler': flag.bool(true, 'Serve the files of --data-dir/logs (where `mini-kube up` writes each component\'s log) under /logs/, as upstream serves /var/log'),
  'enable-priority-and-fairness': flag.bool(true, 'API Priority and Fairness: requests classified by FlowSchemas, queued fairly within the seats of their priority level (the sum of the two in-flight limits shared out); false: the two in-flight limits apply as they are'),
  'service-cluster-ip-range': flag.string('10.96.0.0/12', 'CIDR from which Service ClusterIPs are allocated'),
  'feature-gates': flag.featureGates('Feature gates, key=true|false pairs: Kubernetes 1.32\'s names (unknown ones are refused); APIResponseCompression, TranslateStreamCloseWebsocketRequests, MaxUnavailableStatefulSet and Initializers act here', KNOWN_FEATURE_GATES),
  v: flag.int(0, 'Log verbosity: 4 and up adds debug, 6 and up trace'),
  'authorization-webhook-config-file': flag.string('', 'Kubeconfig of the authorization webhook (SubjectAccessReview over HTTPS, with --authorization-mode Webhook)'),
  'authorization-webhook-version': flag.string('v1', 'authorization.k8s.io version of the SubjectAccessReviews sent to the webhook', ['v1', 'v1beta1']),
  'authorization-webhook-cache-authorized-ttl': flag.string('5m0s', 'How long to cache the webhook\'s allowed answers (a Go duration)'),
  'authorization-webhook-cache-unauthorized-ttl': flag.string('30s', 'How long to cache the webhook\'s other answers (a Go duration)'),
  'authentication-token-webhook-config-file': flag.string('', 'Kubeconfig of the token review webhook (TokenReview v1 over HTTPS)'),
  'authentication-token-webhook-cache-ttl': flag.string('2m0s', 'How long to cache the token webhook\'s answers (a Go duration: 2m0s, 30s, 1h)'),
  'admission-control-config-file': flag.string('', 'AdmissionConfiguration (apiserver.config.k8s.io/v1) with the configuration of each admission plugin'),
  'service-account-issuer': flag.list(['https://kubernetes.default.svc.cluster.local'], 'Issuers of service account tokens; the first issues new tokens, all are accepted'),
  'service-account-jwks-uri': flag.string('', 'jwks_uri of the discovery document (default https://<apiserver>/openid/v1/jwks)'),
  'api-audiences': flag.list([], 'Audiences of the API (default the service account issuers)'),
  'service-account-key-file': flag.list([], 'PEM files of keys that verify service account tokens (default --data-dir/pki/sa.pub)'),
  'service-account-max-token-expiration': flag.string('0s', 'The longest a TokenRequest may ask for (a Go duration; 0: no limit; at least 1h)'),
  'service-account-extend-token-expiration': flag.bool(true, 'Projected service account tokens (3607 s, bound to a pod) are issued for a year, warning past their asked lifetime'),
  'service-account-signing-key-file': flag.string('', 'Private key that signs service account tokens (default --data-dir/pki/sa.key)'),
  'oidc-issuer-url': flag.string('', 'OpenID issuer URL (https); enables OIDC ID tokens'),
  'oidc-client-id': flag.string('', 'OpenID client ID: the audience ID tokens must carry'),
  'oidc-ca-file': flag.string('', 'CA of the OpenID provider (default the system roots)'),
  'oidc-username-claim': flag.string('sub', 'Claim to use as the user name'),
  'oidc-username-prefix': flag.string('', 'Prefix of user names from OpenID (default "<issuer>#" unless the claim is email; "-" for none)'),
  'oidc-groups-claim': flag.string('', 'Claim to use as the groups'),
  'oidc-groups-prefix': flag.string('', 'Prefix of groups from OpenID'),
  'oidc-required-claim': flag.list([], 'Claims that must be present, key=value'),
  'oidc-signing-algs': flag.list(['RS256'], 'Accepted JOSE signing algorithms'),
  'encryption-provider-config': flag.string('', 'EncryptionConfiguration for data at rest (aescbc, aesgcm, secretbox, identity)'),
  'requestheader-client-ca-file': flag.string('', 'CA the authenticating front proxy\'s client certificate must chain to; enables the request headers'),
  'requestheader-allowed-names': flag.list([], 'Common names the front proxy\'s certificate may have (empty: any)'),
  'requestheader-username-headers': flag.list(['X-Remote-User'], 'Headers holding the user name, first non-empty wins'),
  'requestheader-uid-headers': flag.list([], 'Headers holding the user uid'),
  'requestheader-group-headers': flag.list(['X-Remote-Group'], 'Headers holding the groups'),
  'requestheader-extra-headers-prefix': flag.list(['X-Remote-Extra-'], 'Prefixes of headers holding extra user attributes'),
  'proxy-client-cert-file': flag.string('', 'Client certificate the aggregator shows extension apiservers (default the generated front-proxy-client under --data-dir/pki)'),
  'proxy-client-key-file': flag.string('', 'Private key of --proxy-client-cert-file'),
  'audit-policy-file': flag.string('', 'audit.k8s.io/v1 Policy (YAML or JSON): per-rule levels None, Metadata, Request, RequestResponse and omitted stages'),
  'audit-log-path': flag.string('', 'Audit log file ("-": stdout): audit.k8s.io/v1 Events, one per line (without --audit-policy-file: every request at Metadata level)'),
  'audit-log-maxage': flag.int(0, 'Days to keep rotated audit logs (0: no limit)'),
  'audit-log-maxbackup': flag.int(0, 'Rotated audit logs to keep (0: all)'),
  'audit-log-maxsize': flag.int(0, 'Megabytes of the audit log before it is rotated (0: 100)'),
  'audit-log-format': flag.string('json', 'Audit log format: json (one Event per line) or legacy (one text line per event)', ['json', 'legacy']),
  'audit-webhook-config-file': flag.string('', 'Kubeconfig of the audit webhook: audit.k8s.io/v1 EventLists are POSTed to its server'),
  'audit-webhook-mode': flag.string('batch', 'batch: events sent in batches; blocking: one event per request, in order', ['batch', 'blocking']),
  'audit-webhook-batch-max-size': flag.int(400, 'Events per batch at most (batch mode)'),
  'audit-webhook-batch-max-wait': flag.string('30s', 'How long an event waits for its batch at most (batch mode)'),
  'etcd-servers': flag.list([], 'etcd endpoints, http(s)://host:port (with --storage-backend=etcd3)'),
  'etcd-prefix': flag.string('/registry', 'The prefix of every key mini-kube writes in etcd'),
  'etcd-cafile': flag.string('', 'CA bundle of the etcd servers\' certificates (https endpoints)'),
  'etcd-certfile': flag.string('', 'Client certificate presented to etcd'),
  'etcd-keyfile': flag.string('', 'Private key of --etcd-certfile'),
};

export type ApiServerFlagValues = FlagValues<typeof apiServerFlags>;

/**
 * Defaults that follow from other flags, as kube-apiserver's command line reads (envtest runs it with --cert-dir and
 * --etcd-servers alone): the data directory is the certificate directory, and the store is the etcd named.
 */
export const withImpliedFlags = (v: ApiServerFlagValues, given: ReadonlySet<string>): ApiServerFlagValues => ({
  ...v,
  'data-dir': !given.has('data-dir') && v['cert-dir'] ? v['cert-dir'] : v['data-dir'],
  'storage-backend': !given.has('storage-backend') && v['etcd-servers'].length > 0 ? 'etcd3' : v['storage-backend'],
});

const NODE_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

/** Upstream's port range syntax: "a-b", "a+offset" or a single port; undefined when it is none. */
export const parsePortRange = (s: string): { min: number; max: number } | undefined => {
  const m = /^(\d+)(?:-(\d+)|\+(\d+))?$/.exec(s.trim());
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] !== undefined ? Number(m[2]) : min + Number(m[3] ?? 0);
  return min >= 1 && max <= 65535 && min <= max ? { min, max } : undefined;
};

const authorizationModes = new Set(['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'RBAC', 'Node', 'Webhook']);

const isCidr = (s: string): boolean => {
  const [ip = '', bits, ...rest] = s.split('/');
  const family = isIP(ip);
  const n = Number(bits);
  return family !== 0 && rest.length === 0 && /^\d+$/.test(bits ?? '') && n <= (family === 4 ? 32 : 128);
};

/** What kube-apiserver refuses at start, refused the same way (a FlagError: exit 2). */
export const validateApiServerFlags = (v: ApiServerFlagValues): void => {
  const fail = (m: string): never => { throw new FlagError(m); };
  if (v['secure-port'] < 0 || v['secure-port'] > 65535) fail(`--secure-port ${v['secure-port']} must be between 0 and 65535`);
  if (!isIP(v['bind-address'])) fail(`--bind-address "${v['bind-address']}" is not an IP address`);
  try {
    servingTls(v['tls-min-version'], v['tls-cipher-suites']);
  } catch (e) {
    fail((e as Error).message);
  }
  if (!parsePortRange(v['service-node-port-range'])) fail(`--service-node-port-range "${v['service-node-port-range']}" is not a port range (30000-32767 or 30000+2767)`);
  if (!v['kubelet-client-certificate'] !== !v['kubelet-client-key']) fail('--kubelet-client-certificate and --kubelet-client-key must be given together');
  for (const t of v['kubelet-preferred-address-types']) {
    if (!NODE_ADDRESS_TYPES.includes(t)) fail(`--kubelet-preferred-address-types: "${t}" is not one of ${NODE_ADDRESS_TYPES.join(', ')}`);
  }
  if (v['advertise-address'] && !isIP(v['advertise-address'])) fail(`--advertise-address "${v['advertise-address']}" is not an IP address`);
  if (!v['tls-cert-file'] !== !v['tls-private-key-file']) fail('--tls-cert-file and --tls-private-key-file must be given together');
  if (!v['proxy-client-cert-file'] !== !v['proxy-client-key-file']) fail('--proxy-client-cert-file and --proxy-client-key-file must be given together');
  if (v['authorization-mode'].length === 0) fail('at least one --authorization-mode must be given');
  for (const m of v['authorization-mode']) {
    if (!authorizationModes.has(m)) fail(`--authorization-mode "${m}" is not one of ${[...authorizationModes].join(', ')}`);
  }
  if (new Set(v['authorization-mode']).size !== v['authorization-mode'].length) fail('--authorization-mode has a mode more than once');
  if (v['authorization-mode'].includes('ABAC') && !v['authorization-policy-file']) fail('--authorization-mode ABAC needs --authorization-policy-file');
  if (v['authorization-mode'].includes('Webhook') && !v['authorization-webhook-config-file']) fail('authorization-mode Webhook\'s authorization config file not passed');
  if (!v['authorization-mode'].includes('Webhook') && v['authorization-webhook-config-file']) fail('cannot specify --authorization-webhook-config-file without mode Webhook');
  for (const f of ['shutdown-delay-duration', 'request-timeout'] as const) {
    if (v[f].startsWith('-') && parseGoDurationMs(v[f].slice(1)) !== undefined) fail(`--${f} can not be negative value`);
  }
  for (const f of ['authorization-webhook-cache-authorized-ttl', 'authorization-webhook-cache-unauthorized-ttl', 'audit-webhook-batch-max-wait', 'event-ttl', 'service-account-max-token-expiration', 'shutdown-delay-duration', 'request-timeout'] as const) {
    if (parseGoDurationMs(v[f]) === undefined) fail(`--${f} "${v[f]}" is not a duration`);
  }
  const pluginErrors = validatePluginNames(v['enable-admission-plugins'], v['disable-admission-plugins']);
  if (pluginErrors.length) fail(pluginErrors.join('; '));
  if (v['storage-backend'] === 'etcd3' && v['etcd-servers'].length === 0) fail('--etcd-servers must be specified');
  for (const s of v['etcd-servers']) if (!/^https?:\/\/[^/]+\/?$/.test(s)) fail(`--etcd-servers "${s}" is not an http(s)://host:port URL`);
  if (!v['etcd-prefix'].startsWith('/')) fail(`--etcd-prefix "${v['etcd-prefix']}" must start with /`);
  if (Boolean(v['etcd-certfile']) !== Boolean(v['etcd-keyfile'])) fail('--etcd-certfile and --etcd-keyfile go together');
  if (v['etcd-certfile'] && !v['etcd-cafile']) fail('--etcd-certfile needs --etcd-cafile (the CA of the etcd servers)');
  if (v['max-requests-inflight'] < 0 || v['max-mutating-requests-inflight'] < 0) fail('--max-requests-inflight and --max-mutating-requests-inflight must not be negative');
  if (v['oidc-issuer-url'] && !v['oidc-issuer-url'].startsWith('https://')) fail(`--oidc-issuer-url "${v['oidc-issuer-url']}" must use the https scheme`);
  if (v['oidc-issuer-url'] && !v['oidc-client-id']) fail('--oidc-client-id must be given with --oidc-issuer-url');
  if (parseGoDurationMs(v['authentication-token-webhook-cache-ttl']) === undefined) fail(`--authentication-token-webhook-cache-ttl "${v['authentication-token-webhook-cache-ttl']}" is not a duration`);
  if (v['service-account-issuer'].length === 0) fail('--service-account-issuer must be given');
  const maxTokenMs = parseGoDurationMs(v['service-account-max-token-expiration']) ?? 0;
  if (maxTokenMs !== 0 && (maxTokenMs < 3_600_000 || maxTokenMs > 2 ** 32 * 1000)) fail('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  if (!isCidr(v['service-cluster-ip-range'])) fail(`--service-cluster-ip-range "${v['service-cluster-ip-range']}" is not a CIDR`);
};

