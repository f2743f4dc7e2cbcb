// /configz of the scheduler as upstream's: `{"componentconfig": <configuration>}`, the configuration being the
// internal KubeSchedulerConfiguration type, which has no JSON tags: its keys are the Go field names (Parallelism,
// LeaderElection.LeaseDuration as a Go duration string, Profiles[].SchedulerName, ...), only TypeMeta's are lower case.
import { goDuration } from '../apimachinery/protobuf/scalars.js';
import type { ExtenderConfig, PluginSet, Profile, SchedulerConfiguration } from './config.js';

const duration = (ms: number): string => goDuration(BigInt(Math.round(ms * 1e6)));
const capitalized = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

const pluginSet = (p: PluginSet | undefined) => ({
  Enabled: p?.enabled?.map((e) => ({ Name: e.name, Weight: e.weight ?? 0 })) ?? null,
  Disabled: p?.disabled?.map((d) => ({ Name: d.name, Weight: 0 })) ?? null,
});

const profile = (p: Profile) => ({
  SchedulerName: p.schedulerName,
  ...(p.percentageOfNodesToScore !== undefined ? { PercentageOfNodesToScore: p.percentageOfNodesToScore } : {}),
  Plugins: p.plugins ? Object.fromEntries(Object.entries(p.plugins).map(([point, set]) => [capitalized(point), pluginSet(set)])) : null,
  PluginConfig: p.pluginConfig?.map((c) => ({ Name: c.name, Args: c.args ?? null })) ?? null,
});

const extender = (e: ExtenderConfig) => ({
  URLPrefix: e.urlPrefix, FilterVerb: e.filterVerb ?? '', PreemptVerb: e.preemptVerb ?? '', PrioritizeVerb: e.prioritizeVerb ?? '',
  Weight: e.weight, BindVerb: e.bindVerb ?? '', EnableHTTPS: e.enableHTTPS,
  TLSConfig: e.tlsConfig ? {
    Insecure: e.tlsConfig.insecure ?? false, ServerName: e.tlsConfig.serverName ?? '', CertFile: e.tlsConfig.certFile ?? '',
    KeyFile: e.tlsConfig.keyFile ?? '', CAFile: e.tlsConfig.caFile ?? '', CertData: e.tlsConfig.certData ?? null,
    KeyData: e.tlsConfig.keyData ?? null, CAData: e.tlsConfig.caData ?? null,
  } : null,
  HTTPTimeout: duration(e.httpTimeoutMs), NodeCacheCapable: e.nodeCacheCapable,
  ManagedResources: e.managedResources.map((r) => ({ Name: r.name, IgnoredByScheduler: r.ignoredByScheduler })), Ignorable: e.ignorable,
});

/** The body of the scheduler's /configz. */
export function schedulerConfigz(c: SchedulerConfiguration): { componentconfig: Record<string, unknown> } {
  const le = c.leaderElection;
  const cc = c.clientConnection;
  return {
    componentconfig: {
      kind: c.kind, apiVersion: c.apiVersion,
      Parallelism: c.parallelism,
      LeaderElection: {
        LeaderElect: le.leaderElect, LeaseDuration: duration(le.leaseDurationMs), RenewDeadline: duration(le.renewDeadlineMs),
        RetryPeriod: duration(le.retryPeriodMs), ResourceLock: 'leases', ResourceName: le.resourceName, ResourceNamespace: le.resourceNamespace,
      },
      ClientConnection: { Kubeconfig: cc.kubeconfig ?? '', AcceptContentTypes: '', ContentType: cc.contentType ?? 'application/vnd.kubernetes.protobuf', QPS: cc.qps, Burst: cc.burst },
      HealthzBindAddress: '', MetricsBindAddress: '',
      EnableProfiling: false, EnableContentionProfiling: false,
      PercentageOfNodesToScore: c.percentageOfNodesToScore,
      PodInitialBackoffSeconds: c.podInitialBackoffSeconds,
      PodMaxBackoffSeconds: c.podMaxBackoffSeconds,
      Profiles: c.profiles.map(profile),
      Extenders: c.extenders.length ? c.extenders.map(extender) : null,
    },
  };
}
