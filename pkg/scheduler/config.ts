// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1): read, defaulted and merged with the default plugins
// as upstream's v1 defaulting does (a profile's enabled plugins first, then the defaults it did not disable).
import { readFile } from 'node:fs/promises';
import { parseYaml } from '../apimachinery/yaml.js';
import { DEFAULT_SCHEDULER_NAME } from './types.js';

export const EXTENSION_POINTS = ['preEnqueue', 'queueSort', 'preFilter', 'filter', 'postFilter', 'preScore', 'score', 'reserve', 'permit', 'preBind', 'bind', 'postBind'] as const;
export type ExtensionPoint = typeof EXTENSION_POINTS[number];

export interface PluginRef { name: string; weight?: number }
export interface PluginSet { enabled?: PluginRef[]; disabled?: { name: string }[] }
export type Plugins = Partial<Record<ExtensionPoint | 'multiPoint', PluginSet>>;

export interface Profile {
  schedulerName: string;
  percentageOfNodesToScore?: number;
  plugins?: Plugins;
  pluginConfig?: { name: string; args?: Record<string, any> }[];
}

/** One entry of `extenders` (upstream's Extender). */
export interface ExtenderConfig {
  urlPrefix: string;
  filterVerb?: string;
  preemptVerb?: string;
  prioritizeVerb?: string;
  bindVerb?: string;
  weight: number;
  enableHTTPS: boolean;
  tlsConfig?: { insecure?: boolean; serverName?: string; certFile?: string; keyFile?: string; caFile?: string; certData?: string; keyData?: string; caData?: string };
  httpTimeoutMs: number;
  nodeCacheCapable: boolean;
  managedResources: { name: string; ignoredByScheduler: boolean }[];
  ignorable: boolean;
}

export interface SchedulerConfiguration {
  apiVersion: string;
  kind: string;
  parallelism: number;
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  clientConnection: { kubeconfig?: string; qps: number; burst: number; contentType?: string };
  leaderElection: {
    leaderElect: boolean; leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number;
    resourceNamespace: string; resourceName: string;
  };
  profiles: Profile[];
  extenders: ExtenderConfig[];
}

/** Upstream's default multiPoint set, in order, with score weights. */
export const DEFAULT_PLUGINS: PluginRef[] = [
  { name: 'SchedulingGates' },
  { name: 'PrioritySort' },
  { name: 'NodeUnschedulable' },
  { name: 'NodeName' },
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodePorts' },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'VolumeRestrictions' },
  { name: 'NodeVolumeLimits' },
  { name: 'VolumeBinding' },
  { name: 'VolumeZone' },
  { name: 'PodTopologySpread', weight: 2 },
  { name: 'InterPodAffinity', weight: 2 },
  { name: 'DefaultPreemption' },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
  { name: 'DefaultBinder' },
];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const duration = (v: unknown, def: number): number => {
  if (v === undefined || v === null) return def;
  if (typeof v === 'number') return v / 1e6; // a Go duration in nanoseconds
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(String(v));
  if (!m) throw new ConfigError(`invalid duration ${JSON.stringify(v)}`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms'];
};

export const defaultConfiguration = (): SchedulerConfiguration => parseConfiguration({});

/** Defaults and checks a decoded document. */
export const parseConfiguration = (doc: Record<string, any>): SchedulerConfiguration => {
  if (doc.apiVersion && doc.apiVersion !== 'kubescheduler.config.k8s.io/v1') {
    throw new ConfigError(`no kind "KubeSchedulerConfiguration" is registered for version "${doc.apiVersion}"`);
  }
  if (doc.kind && doc.kind !== 'KubeSchedulerConfiguration') throw new ConfigError(`unexpected kind "${doc.kind}"`);
  const le = doc.leaderElection ?? {};
  const cc = doc.clientConnection ?? {};
  const pct = doc.percentageOfNodesToScore ?? 0;
  if (pct < 0 || pct > 100) throw new ConfigError(`percentageOfNodesToScore: Invalid value: ${pct}: not in valid range [0-100]`);
  const profiles = ((doc.profiles as Profile[] | undefined) ?? [{ schedulerName: DEFAULT_SCHEDULER_NAME }]).map((p) => ({
    ...p, schedulerName: p.schedulerName || DEFAULT_SCHEDULER_NAME,
  }));
  if (!profiles.length) profiles.push({ schedulerName: DEFAULT_SCHEDULER_NAME });
  const names = new Set<string>();
  for (const p of profiles) {
    if (names.has(p.schedulerName)) throw new ConfigError(`profiles[].schedulerName: Duplicate value: "${p.schedulerName}"`);
    names.add(p.schedulerName);
  }
  const extenders = parseExtenders(doc.extenders);
  // as upstream: resources an extender manages and the scheduler ignores are NodeResourcesFit's ignoredResources
  const ignored = extenders.flatMap((e) => e.managedResources.filter((r) => r.ignoredByScheduler).map((r) => r.name));
  if (ignored.length) {
    for (const p of profiles) {
      const others = (p.pluginConfig ?? []).filter((c) => c.name !== 'NodeResourcesFit');
      const fit = p.pluginConfig?.find((c) => c.name === 'NodeResourcesFit');
      p.pluginConfig = [...others, { name: 'NodeResourcesFit', args: { ...fit?.args, ignoredResources: ignored } }];
    }
  }
  return {
    apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration',
    parallelism: doc.parallelism ?? 16,
    percentageOfNodesToScore: pct,
    podInitialBackoffSeconds: doc.podInitialBackoffSeconds ?? 1,
    podMaxBackoffSeconds: doc.podMaxBackoffSeconds ?? 10,
    clientConnection: { kubeconfig: cc.kubeconfig, qps: cc.qps ?? 50, burst: cc.burst ?? 100, contentType: cc.contentType },
    leaderElection: {
      leaderElect: le.leaderElect ?? true,
      leaseDurationMs: duration(le.leaseDuration, 15_000),
      renewDeadlineMs: duration(le.renewDeadline, 10_000),
      retryPeriodMs: duration(le.retryPeriod, 2_000),
      resourceNamespace: le.resourceNamespace ?? 'kube-system',
      resourceName: le.resourceName ?? 'kube-scheduler',
    },
    profiles,
    extenders,
  };
};

/** `extenders`, defaulted and validated as upstream's ValidateKubeSchedulerConfiguration does. */
const parseExtenders = (raw: unknown): ExtenderConfig[] => {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ConfigError('extenders: Invalid value: not a list');
  const out = raw.map((e: Record<string, any>, i): ExtenderConfig => {
    const path = `extenders[${i}]`;
    if (!e?.urlPrefix || typeof e.urlPrefix !== 'string') throw new ConfigError(`${path}.urlPrefix: Required value`);
    const weight = e.weight ?? 0;
    if (e.prioritizeVerb && !(weight > 0)) throw new ConfigError(`${path}.weight: Invalid value: ${weight}: must have a positive weight applied to it`);
    const managed = ((e.managedResources ?? []) as { name?: string; ignoredByScheduler?: boolean }[]).map((r, j) => {
      if (!r?.name) throw new ConfigError(`${path}.managedResources[${j}].name: Required value`);
      return { name: r.name, ignoredByScheduler: !!r.ignoredByScheduler };
    });
    const names = new Set<string>();
    for (const [j, r] of managed.entries()) {
      if (names.has(r.name)) throw new ConfigError(`${path}.managedResources[${j}].name: Invalid value: "${r.name}": duplicate extender managed resource name`);
      names.add(r.name);
    }
    return {
      urlPrefix: e.urlPrefix, filterVerb: e.filterVerb || undefined, preemptVerb: e.preemptVerb || undefined,
      prioritizeVerb: e.prioritizeVerb || undefined, bindVerb: e.bindVerb || undefined, weight,
      enableHTTPS: !!e.enableHTTPS, tlsConfig: e.tlsConfig ?? undefined, httpTimeoutMs: duration(e.httpTimeout, 5_000) || 5_000,
      nodeCacheCapable: !!e.nodeCacheCapable, managedResources: managed, ignorable: !!e.ignorable,
    };
  });
  const binders = out.filter((e) => e.bindVerb).length;
  if (binders > 1) throw new ConfigError(`extenders: Invalid value: "found ${binders} extenders implementing bind": only one extender can implement bind`);
  return out;
};

export const loadConfiguration = async (path: string): Promise<SchedulerConfiguration> => {
  const text = await readFile(path, 'utf8');
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new ConfigError(`${path}: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object') throw new ConfigError(`${path}: not a KubeSchedulerConfiguration`);
  return parseConfiguration(doc as Record<string, any>);
};

/**
 * The plugins of one extension point: the point's own enabled list, then the multiPoint ones (defaults plus the
 * profile's multiPoint) that implement it, minus what either disables ("*" disables every default).
 */
export const pluginsFor = (profile: Profile, point: ExtensionPoint, implementsPoint: (name: string) => boolean): PluginRef[] => {
  const plugins = profile.plugins ?? {};
  const set = plugins[point] ?? {};
  const multi = plugins.multiPoint ?? {};
  const disabled = new Set((set.disabled ?? []).map((d) => d.name));
  const multiDisabled = new Set((multi.disabled ?? []).map((d) => d.name));
  const out: PluginRef[] = [];
  const seen = new Set<string>();
  for (const p of set.enabled ?? []) {
    if (seen.has(p.name)) continue;
    seen.add(p.name);
    out.push(p);
  }
  const defaults = multiDisabled.has('*') ? [] : DEFAULT_PLUGINS.filter((p) => !multiDisabled.has(p.name));
  const candidates = [...(multi.enabled ?? []), ...defaults.filter((d) => !(multi.enabled ?? []).some((m) => m.name === d.name))];
  for (const p of candidates) {
    if (seen.has(p.name) || disabled.has(p.name) || (disabled.has('*') && DEFAULT_PLUGINS.some((d) => d.name === p.name))) continue;
    if (!implementsPoint(p.name)) continue;
    seen.add(p.name);
    out.push(p);
  }
  return out;
};

export const pluginArgs = (profile: Profile, name: string): Record<string, any> =>
  profile.pluginConfig?.find((c) => c.name === name)?.args ?? {};
