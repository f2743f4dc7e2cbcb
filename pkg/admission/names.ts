// The admission plugins mini-kube knows, in upstream's order (kube-apiserver's AllOrderedPlugins,
// pkg/kubeapiserver/options/plugins.go, minus what mini-kube does not have), and those off by
// default. No imports: cmd/ checks --enable/--disable-admission-plugins before loading the server.

export const ALL_ORDERED_PLUGINS = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'PodSecurity',
  'PodSecurityPolicy',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'Initializers',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
] as const;

export type PluginName = typeof ALL_ORDERED_PLUGINS[number];

/**
 * Upstream's DefaultOffAdmissionPlugins among ours (1.24's, for PodSecurityPolicy): everything but NamespaceLifecycle,
 * LimitRanger, ServiceAccount, TaintNodesByCondition, PodSecurity, Priority, DefaultTolerationSeconds, the three
 * storage plugins, RuntimeClass, the three certificate plugins, DefaultIngressClass, the three dynamic admission
 * plugins and ResourceQuota. So also off: the scheduling restrictions (LimitPodHardAntiAffinityTopology,
 * PodNodeSelector, PodTolerationRestriction, ExtendedResourceToleration), EventRateLimit (it needs a configuration),
 * OwnerReferencesPermissionEnforcement and DenyServiceExternalIPs.
 */
export const DEFAULT_OFF_PLUGINS: readonly PluginName[] = [
  'AlwaysAdmit', 'NamespaceAutoProvision', 'NamespaceExists', 'LimitPodHardAntiAffinityTopology', 'NodeRestriction', 'AlwaysPullImages',
  'PodSecurityPolicy', 'PodNodeSelector', 'PodTolerationRestriction', 'EventRateLimit', 'ExtendedResourceToleration', 'Initializers',
  'OwnerReferencesPermissionEnforcement', 'DenyServiceExternalIPs', 'AlwaysDeny',
];

/** kube-apiserver's checks of the two flags, with its messages (apiserver/pkg/server/options/admission.go). */
export function validatePluginNames(enable: readonly string[], disable: readonly string[]): string[] {
  const known = new Set<string>(ALL_ORDERED_PLUGINS);
  const errs: string[] = [];
  for (const n of enable) if (!known.has(n)) errs.push(`enable-admission-plugins plugin "${n}" is unknown`);
  for (const n of disable) if (!known.has(n)) errs.push(`disable-admission-plugins plugin "${n}" is unknown`);
  const both = [...new Set(enable.filter((n) => disable.includes(n)))].sort();
  if (both.length) errs.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errs;
}
