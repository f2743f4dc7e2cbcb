// Every built-in admission plugin by name, and the chain the flags and the configuration file ask
// for: what the apiserver calls once at start.
import type { AdmissionDeps } from './deps.js';
import { AlwaysAdmit, AlwaysDeny } from './always.js';
import { AlwaysPullImages } from './always-pull-images.js';
import { CertificateApproval, CertificateSigning, CertificateSubjectRestriction } from './certificates.js';
import { expectKind, readAdmissionConfiguration, type PluginConfigs } from './config.js';
import { DefaultIngressClass } from './default-ingress-class.js';
import { DefaultTolerationSeconds } from './default-toleration-seconds.js';
import { DenyServiceExternalIPs } from './deny-service-external-ips.js';
import { EventRateLimit, readEventRateLimitConfig } from './event-rate-limit.js';
import { ExtendedResourceToleration } from './extended-resource-toleration.js';
import { Initializers } from './initializers.js';
import type { Admission } from './interface.js';
import { LimitRanger } from './limit-ranger.js';
import { ALL_ORDERED_PLUGINS, DEFAULT_OFF_PLUGINS, validatePluginNames, type PluginName } from './names.js';
import { NamespaceAutoProvision } from './namespace-autoprovision.js';
import { NamespaceExists } from './namespace-exists.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { NodeRestriction } from './node-restriction.js';
import { OwnerReferencesPermissionEnforcement } from './owner-references-permission.js';
import { LimitPodHardAntiAffinityTopology } from './pod-anti-affinity.js';
import { PodNodeSelector, readNodeSelectorConfig } from './pod-node-selector.js';
import { PodTolerationRestriction, readTolerationRestrictionConfig } from './pod-toleration-restriction.js';
import { PodSecurity, type PodSecurityConfiguration } from './podsecurity/plugin.js';
import { Priority } from './priority.js';
import { RuntimeClass } from './runtimeclass.js';
import { PodSecurityPolicy, policyUseAuthorizer } from './psp/plugin.js';
import { buildAdmission, type PluginFactory } from './registry.js';
import { ResourceQuota } from './resource-quota.js';
import { ServiceAccount } from './service-account.js';
import { TaintNodesByCondition } from './taint-nodes-by-condition.js';
import { DefaultStorageClass, PersistentVolumeClaimResize, StorageObjectInUseProtection } from './storage.js';
import { ValidatingAdmissionPolicy } from './policy/validating.js';
import { MutatingWebhook, ValidatingWebhook } from './webhook/plugins.js';

export interface AdmissionOptions {
  enable: string[];
  disable: string[];
  /** --admission-control-config-file */
  configFile?: string;
  /** Background failures (quota status writes). */
  onError?: (err: unknown, msg: string) => void;
  /** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds (300 each). */
  tolerationSeconds?: { notReady: number; unreachable: number };
}

const POD_SECURITY_VERSIONS = ['pod-security.admission.config.k8s.io/v1', 'pod-security.admission.config.k8s.io/v1beta1', 'pod-security.admission.config.k8s.io/v1alpha1'];

export function pluginFactories(deps: AdmissionDeps, configs: PluginConfigs, opts: Pick<AdmissionOptions, 'onError' | 'tolerationSeconds'> = {}): Record<PluginName, PluginFactory> {
  return {
    AlwaysAdmit: () => new AlwaysAdmit(),
    NamespaceAutoProvision: () => new NamespaceAutoProvision(deps),
    NamespaceLifecycle: () => new NamespaceLifecycle((name) => deps.get('', 'namespaces', undefined, name)),
    NamespaceExists: () => new NamespaceExists(deps),
    LimitPodHardAntiAffinityTopology: () => new LimitPodHardAntiAffinityTopology(),
    LimitRanger: () => new LimitRanger(deps),
    ServiceAccount: () => new ServiceAccount(deps),
    NodeRestriction: () => new NodeRestriction(deps),
    TaintNodesByCondition: () => new TaintNodesByCondition(),
    AlwaysPullImages: () => new AlwaysPullImages(),
    PodSecurity: () => {
      const c = configs.get('PodSecurity');
      if (c) expectKind('PodSecurity', c, 'PodSecurityConfiguration', POD_SECURITY_VERSIONS);
      return new PodSecurity(deps, c as PodSecurityConfiguration | undefined);
    },
    PodSecurityPolicy: () => new PodSecurityPolicy(deps, policyUseAuthorizer(deps.authorize)),
    PodNodeSelector: () => new PodNodeSelector(deps, readNodeSelectorConfig(configs.get('PodNodeSelector'))),
    Priority: () => new Priority(deps),
    DefaultTolerationSeconds: () => new DefaultTolerationSeconds(opts.tolerationSeconds?.notReady, opts.tolerationSeconds?.unreachable),
    PodTolerationRestriction: () => new PodTolerationRestriction(deps, readTolerationRestrictionConfig(configs.get('PodTolerationRestriction'))),
    EventRateLimit: () => new EventRateLimit(readEventRateLimitConfig(configs.get('EventRateLimit'))),
    ExtendedResourceToleration: () => new ExtendedResourceToleration(),
    Initializers: () => new Initializers(deps),
    DefaultStorageClass: () => new DefaultStorageClass(deps),
    StorageObjectInUseProtection: () => new StorageObjectInUseProtection(),
    OwnerReferencesPermissionEnforcement: () => new OwnerReferencesPermissionEnforcement(deps),
    PersistentVolumeClaimResize: () => new PersistentVolumeClaimResize(deps),
    RuntimeClass: () => new RuntimeClass(deps),
    CertificateApproval: () => new CertificateApproval(deps),
    CertificateSigning: () => new CertificateSigning(deps),
    CertificateSubjectRestriction: () => new CertificateSubjectRestriction(),
    DefaultIngressClass: () => new DefaultIngressClass(deps),
    DenyServiceExternalIPs: () => new DenyServiceExternalIPs(),
    MutatingAdmissionWebhook: () => new MutatingWebhook(deps),
    ValidatingAdmissionPolicy: () => new ValidatingAdmissionPolicy(deps),
    ValidatingAdmissionWebhook: () => new ValidatingWebhook(deps),
    ResourceQuota: () => new ResourceQuota(deps, { onError: opts.onError }),
    AlwaysDeny: () => new AlwaysDeny(),
  };
}

/** The admission chain of kube-apiserver's flags; throws on an unknown plugin name or a bad configuration. */
export async function newAdmission(deps: AdmissionDeps, opts: AdmissionOptions): Promise<Admission> {
  const errs = validatePluginNames(opts.enable, opts.disable);
  if (errs.length) throw new Error(errs.join('; '));
  const configs = await readAdmissionConfiguration(opts.configFile);
  return buildAdmission(pluginFactories(deps, configs, opts), ALL_ORDERED_PLUGINS, {
    enable: opts.enable, disable: opts.disable, offByDefault: DEFAULT_OFF_PLUGINS,
  });
}
