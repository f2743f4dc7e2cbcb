// `mini-kube kubelet --config FILE`: upstream's KubeletConfiguration (kubelet.config.k8s.io/v1beta1, YAML or JSON)
// read into the kubelet's flags, one table mapping each field to its flag both ways; a flag given on the command
// line wins over the file, as upstream's kubelet does. Decoding is strict (an unknown field is an error, as
// upstream's strict decoding); upstream fields that mean nothing to this kubelet are accepted with a warning. The
// effective configuration, in the same shape, is what the node server's /configz answers.
import { readFile } from 'node:fs/promises';
import { parseYaml } from '../pkg/apimachinery/yaml.js';
import { goDuration } from '../pkg/apimachinery/protobuf/scalars.js';
import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import { FlagError, type FlagValues } from './flags.js';
import type { kubeletFlags } from './kubelet.js';

type Values = FlagValues<typeof kubeletFlags>;
type Kind = 'string' | 'duration' | 'int' | 'bool' | 'list' | 'thresholds';

/** Field path (dots into nested objects) → the flag it sets and how its value reads. */
const FIELDS: Record<string, { flag: keyof Values; kind: Kind }> = {
  syncFrequency: { flag: 'sync-frequency', kind: 'duration' },
  fileCheckFrequency: { flag: 'file-check-frequency', kind: 'duration' },
  staticPodPath: { flag: 'pod-manifest-path', kind: 'string' },
  podCIDR: { flag: 'pod-cidr', kind: 'string' },
  maxPods: { flag: 'max-pods', kind: 'int' },
  evictionHard: { flag: 'eviction-hard', kind: 'thresholds' },
  containerLogMaxSize: { flag: 'container-log-max-size', kind: 'string' },
  containerLogMaxFiles: { flag: 'container-log-max-files', kind: 'int' },
  containerLogMonitorInterval: { flag: 'container-log-monitor-interval', kind: 'duration' },
  clusterDNS: { flag: 'cluster-dns', kind: 'list' },
  clusterDomain: { flag: 'cluster-domain', kind: 'string' },
  resolvConf: { flag: 'resolv-conf', kind: 'string' },
  address: { flag: 'address', kind: 'string' },
  port: { flag: 'port', kind: 'int' },
  readOnlyPort: { flag: 'read-only-port', kind: 'int' },
  registerNode: { flag: 'register-node', kind: 'bool' },
  serializeImagePulls: { flag: 'serialize-image-pulls', kind: 'bool' },
  nodeStatusUpdateFrequency: { flag: 'node-status-update-frequency', kind: 'duration' },
  nodeStatusReportFrequency: { flag: 'node-status-report-frequency', kind: 'duration' },
  nodeLeaseDurationSeconds: { flag: 'node-lease-duration-seconds', kind: 'int' },
  kubeAPIQPS: { flag: 'kube-api-qps', kind: 'int' },
  kubeAPIBurst: { flag: 'kube-api-burst', kind: 'int' },
  eventRecordQPS: { flag: 'event-qps', kind: 'int' },
  eventBurst: { flag: 'event-burst', kind: 'int' },
  'authentication.x509.clientCAFile': { flag: 'client-ca-file', kind: 'string' },
  'authentication.webhook.enabled': { flag: 'authentication-token-webhook', kind: 'bool' },
  'authentication.webhook.cacheTTL': { flag: 'authentication-token-webhook-cache-ttl', kind: 'duration' },
  'authentication.anonymous.enabled': { flag: 'anonymous-auth', kind: 'bool' },
  'authorization.mode': { flag: 'authorization-mode', kind: 'string' },
  'authorization.webhook.cacheAuthorizedTTL': { flag: 'authorization-webhook-cache-authorized-ttl', kind: 'duration' },
  'authorization.webhook.cacheUnauthorizedTTL': { flag: 'authorization-webhook-cache-unauthorized-ttl', kind: 'duration' },
};

/** Upstream fields this kubelet has no use for (its runtime, cgroups, certificates and logs are its own). */
const IGNORED = new Set([
  'cgroupDriver', 'cgroupsPerQOS', 'cgroupRoot', 'containerRuntimeEndpoint', 'imageServiceEndpoint', 'runtimeRequestTimeout',
  'rotateCertificates', 'serverTLSBootstrap', 'tlsCertFile', 'tlsPrivateKeyFile', 'tlsCipherSuites', 'tlsMinVersion',
  'healthzPort', 'healthzBindAddress', 'enableServer', 'failSwapOn', 'memorySwap', 'featureGates', 'logging',
  'imageMinimumGCAge', 'imageGCHighThresholdPercent', 'imageGCLowThresholdPercent', 'evictionPressureTransitionPeriod',
  'cpuManagerPolicy', 'cpuManagerReconcilePeriod', 'streamingConnectionIdleTimeout', 'volumeStatsAggPeriod',
  'shutdownGracePeriod', 'shutdownGracePeriodCriticalPods',
  'staticPodURL', 'hairpinMode', 'enableDebuggingHandlers', 'enableContentionProfiling', 'oomScoreAdj',
]);

/** Where a configuration file's default differs from the flag's: a config file without them gets these. */
const CONFIG_DEFAULTS: Record<string, unknown> = { 'authentication.anonymous.enabled': false, 'authentication.webhook.enabled': true };

/** Nested objects whose fields are listed above. */
const OBJECTS = new Set(['authentication', 'authentication.x509', 'authentication.webhook', 'authentication.anonymous', 'authorization', 'authorization.webhook']);

const API_VERSION = 'kubelet.config.k8s.io/v1beta1';
const KIND = 'KubeletConfiguration';

/** The text a flag would take for a field's value. */
const asFlag = (path: string, kind: Kind, value: unknown): string | number | boolean | string[] => {
  const wrong = (want: string): FlagError => new FlagError(`${path}: must be ${want}, not ${JSON.stringify(value)}`);
  switch (kind) {
    case 'string': if (typeof value !== 'string') throw wrong('a string'); return value;
    case 'duration':
      if (typeof value !== 'string' || parseGoDurationMs(value) === undefined) throw wrong('a duration such as "1m0s"');
      return value;
    case 'int': if (!Number.isInteger(value)) throw wrong('an integer'); return value as number;
    case 'bool': if (typeof value !== 'boolean') throw wrong('true or false'); return value;
    case 'list':
      if (!Array.isArray(value) || value.some((x) => typeof x !== 'string')) throw wrong('a list of strings');
      return value as string[];
    case 'thresholds':
      if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((x) => typeof x !== 'string')) {
        throw wrong('a map of signal to quantity or percentage');
      }
      return Object.entries(value as Record<string, string>).map(([k, v]) => `${k}<${v}`).join(',');
  }
};

/**
 * Reads the file into `v` for every field whose flag was not given; returns warnings (fields ignored, or
 * meaningful only in part here). A FlagError says what is wrong with the file.
 */
export const applyConfigFile = async (path: string, v: Values, given: ReadonlySet<string>): Promise<string[]> => {
  const fail = (msg: string): FlagError => new FlagError(`failed to load kubelet config file ${path}: ${msg}`);
  let doc: unknown;
  try {
    doc = parseYaml(await readFile(path, 'utf8'));
  } catch (e) {
    throw fail((e as Error).message);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw fail('not a KubeletConfiguration object');
  const { kind, apiVersion, ...fields } = doc as Record<string, unknown>;
  if (kind !== KIND || apiVersion !== API_VERSION) throw fail(`expected kind ${KIND} of apiVersion ${API_VERSION}, got kind ${String(kind)} of apiVersion ${String(apiVersion)}`);
  const warnings: string[] = [];
  const out = v as Record<string, unknown>;
  const set = new Set<string>();
  const walk = (obj: Record<string, unknown>, prefix: string): void => {
    for (const [key, value] of Object.entries(obj)) {
      const path = prefix + key;
      if (OBJECTS.has(path)) {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(`${path}: must be an object`);
        walk(value as Record<string, unknown>, `${path}.`);
      } else if (FIELDS[path]) {
        const { flag, kind: k } = FIELDS[path];
        try {
          const text = asFlag(path, k, value);
          set.add(path);
          if (!given.has(flag)) out[flag] = text;
        } catch (e) {
          throw fail((e as Error).message);
        }
      } else if (IGNORED.has(path)) {
        warnings.push(`${path}: ignored by this kubelet`);
      } else {
        throw fail(`strict decoding error: unknown field "${path}"`);
      }
    }
  };
  walk(fields, '');
  // KubeletConfiguration's own defaults where they differ from the flags' (upstream: SetDefaults_KubeletConfiguration)
  for (const [path, value] of Object.entries(CONFIG_DEFAULTS)) {
    const { flag } = FIELDS[path]!;
    if (!set.has(path) && !given.has(flag)) out[flag] = value;
  }
  return warnings;
};

/** The effective configuration as upstream's /configz shows it: {"kubeletconfig": {...}}. */
export const configz = (v: Values): Record<string, unknown> => {
  const root: Record<string, unknown> = {};
  for (const [path, { flag, kind }] of Object.entries(FIELDS)) {
    const value = v[flag];
    let shown: unknown = value;
    if (kind === 'thresholds') {
      shown = Object.fromEntries((value as string).split(',').filter(Boolean).map((t) => { const i = t.indexOf('<'); return [t.slice(0, i), t.slice(i + 1)]; }));
    } else if (kind === 'duration') {
      shown = goDuration(BigInt(parseGoDurationMs(value as string) ?? 0) * 1_000_000n);
    }
    if (shown === '' && kind === 'string') continue;
    const keys = path.split('.');
    let at = root;
    for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
    at[keys.at(-1)!] = shown;
  }
  return { kubeletconfig: root };
};
