// PodSecurity: the Pod Security Standards, per namespace, from the labels
// pod-security.kubernetes.io/{enforce,audit,warn}[-version] (upstream: plugin/pkg/admission/security/podsecurity
// over k8s.io/pod-security-admission). Pods violating the enforce level are refused; the warn level
// becomes Warning headers and the audit level's violations audit annotations (with enforce-policy and exempt, under
// upstream's pod-security.kubernetes.io/ keys); workloads (pod templates) are only warned and audited, as upstream.
import type { KubeObject } from '../../../api/types.js';
import { StatusError } from '../../apimachinery/errors.js';
import type { AdmissionDeps } from '../deps.js';
import { admissionForbidden, isResource } from '../errors.js';
import { addAuditAnnotation, type AdmissionAttributes, type ValidatingPlugin } from '../interface.js';
import { evaluatePod, forbiddenReason, type CheckResult, type Level } from './checks.js';

const PREFIX = 'pod-security.kubernetes.io/';
const LEVELS: Level[] = ['privileged', 'baseline', 'restricted'];
const MODES = ['enforce', 'audit', 'warn'] as const;
type Mode = typeof MODES[number];

export interface LevelVersion {
  level: Level;
  version: string;
}

/** PodSecurityConfiguration (pod-security.admission.config.k8s.io/v1). */
export interface PodSecurityConfiguration {
  defaults?: Partial<Record<Mode | `${Mode}-version`, string>>;
  exemptions?: { usernames?: string[]; namespaces?: string[]; runtimeClasses?: string[] };
}

const VERSION = /^v1\.(0|[1-9][0-9]*)$/;

/** Workload kinds and where their pod template sits. */
const TEMPLATES: Record<string, (o: KubeObject) => KubeObject | undefined> = {
  '/replicationcontrollers': (o) => o.spec?.template,
  '/podtemplates': (o) => o.template,
  'apps/deployments': (o) => o.spec?.template,
  'apps/replicasets': (o) => o.spec?.template,
  'apps/statefulsets': (o) => o.spec?.template,
  'apps/daemonsets': (o) => o.spec?.template,
  'batch/jobs': (o) => o.spec?.template,
  'batch/cronjobs': (o) => o.spec?.jobTemplate?.spec?.template,
};

const label = (lv: LevelVersion): string => `${lv.level}:${lv.version}`;
/** The plugin's audit annotations carry upstream's prefix: pod-security.kubernetes.io/enforce-policy, ... */
const annotate = (a: AdmissionAttributes, key: string, value: string): void => addAuditAnnotation(a, `pod-security.kubernetes.io/${key}`, value);

export function validateConfiguration(c: PodSecurityConfiguration): void {
  for (const m of MODES) {
    const lvl = c.defaults?.[m];
    if (lvl !== undefined && !LEVELS.includes(lvl as Level)) throw new Error(`PodSecurityConfiguration: defaults.${m}: Invalid value: "${lvl}": must be one of ${LEVELS.join(', ')}`);
    const v = c.defaults?.[`${m}-version`];
    if (v !== undefined && v !== 'latest' && !VERSION.test(v)) throw new Error(`PodSecurityConfiguration: defaults.${m}-version: Invalid value: "${v}": must be 'latest' or of the form v1.x`);
  }
}

export class PodSecurity implements ValidatingPlugin {
  readonly name = 'PodSecurity';
  private readonly defaults: Record<Mode, LevelVersion>;

  constructor(private readonly deps: Pick<AdmissionDeps, 'get' | 'list'>, private readonly config: PodSecurityConfiguration = {}) {
    validateConfiguration(config);
    const d = config.defaults ?? {};
    const lv = (m: Mode): LevelVersion => ({ level: (d[m] as Level | undefined) ?? 'privileged', version: d[`${m}-version`] ?? 'latest' });
    this.defaults = { enforce: lv('enforce'), audit: lv('audit'), warn: lv('warn') };
  }

  validate(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
    if (isResource(a, '', 'namespaces')) return this.validateNamespace(a);
    if (!a.namespace || !a.object) return;
    const key = `${a.resource.group}/${a.resource.plural}`;
    const isPod = key === '/pods';
    if (isPod ? (a.subresource && a.subresource !== 'ephemeralcontainers') : (a.subresource || !TEMPLATES[key])) return;
    const extract = (o: KubeObject | undefined): { meta?: KubeObject; spec?: KubeObject } =>
      (isPod ? { meta: o?.metadata, spec: o?.spec } : { meta: TEMPLATES[key]!(o ?? {})?.metadata, spec: TEMPLATES[key]!(o ?? {})?.spec });
    const now = extract(a.object);
    if (!now.spec) return;
    const exemption = this.exemption(a, now.spec);
    if (exemption) return annotate(a, 'exempt', exemption);
    // only a pod's update is weighed for what it changes (upstream's isSignificantPodUpdate); a workload's always
    if (isPod && a.operation === 'UPDATE' && !significantPodUpdate(now, extract(a.oldObject))) return;
    const policy = this.policy(a.namespace);
    // Each level is evaluated once; audit and warn reuse an equal enforce (or audit) result, as upstream caches them.
    const results = new Map<string, CheckResult[]>();
    const evaluate = (lv: LevelVersion): CheckResult[] => {
      const k = label(lv);
      return results.get(k) ?? results.set(k, evaluatePod(lv.level, now.meta, now.spec, lv.version)).get(k)!;
    };
    if (isPod) {
      annotate(a, 'enforce-policy', label(policy.enforce));
      const failed = policy.enforce.level === 'privileged' ? [] : evaluate(policy.enforce);
      if (failed.length) {
        this.audit(a, policy.audit, evaluate);
        throw admissionForbidden(a, `violates PodSecurity "${label(policy.enforce)}": ${forbiddenReason(failed)}`);
      }
    }
    this.audit(a, policy.audit, evaluate);
    // Warnings only for what is admitted; workloads are never refused, only warned about (upstream).
    if (policy.warn.level === 'privileged') return;
    const failed = evaluate(policy.warn);
    if (failed.length) a.warnings?.push(`would violate PodSecurity "${label(policy.warn)}": ${forbiddenReason(failed)}`);
  }

  /** The audit level's violations go to the request's audit event. */
  private audit(a: AdmissionAttributes, lv: LevelVersion, evaluate: (lv: LevelVersion) => CheckResult[]): void {
    if (lv.level === 'privileged') return;
    const failed = evaluate(lv);
    if (failed.length) annotate(a, 'audit-violations', `would violate PodSecurity "${label(lv)}": ${forbiddenReason(failed)}`);
  }

  /** The namespace's levels: its labels, else the configured defaults (upstream: api.PolicyToEvaluate). */
  policy(namespace: string): Record<Mode, LevelVersion> {
    const labels: Record<string, string> = this.deps.get('', 'namespaces', undefined, namespace)?.metadata?.labels ?? {};
    return policyOf(labels, this.defaults);
  }

  /** Why the request is exempt (upstream's exempt annotation: namespace, user or runtimeClass), if it is. */
  private exemption(a: AdmissionAttributes, spec: KubeObject): 'namespace' | 'user' | 'runtimeClass' | undefined {
    const ex = this.config.exemptions ?? {};
    if (a.namespace && ex.namespaces?.includes(a.namespace)) return 'namespace';
    if (a.user && ex.usernames?.includes(a.user.name)) return 'user';
    const rc: string | undefined = spec.runtimeClassName;
    return rc && ex.runtimeClasses?.includes(rc) ? 'runtimeClass' : undefined;
  }

  /** Label values are checked; a stricter enforce level warns about the pods already there. */
  private validateNamespace(a: AdmissionAttributes): void {
    if (a.subresource || !a.object) return;
    const labels: Record<string, string> = a.object.metadata?.labels ?? {};
    // upstream's invalidResponse: 422 Invalid with the label errors alone as the message (kubectl, finding no causes,
    // prints `The namespaces "x" is invalid`); an update is refused only for errors it changes
    const errors = labelErrors(labels);
    if (errors && (a.operation === 'CREATE' || errors !== labelErrors(a.oldObject?.metadata?.labels ?? {}))) {
      throw new StatusError(422, 'Invalid', errors, { name: a.object.metadata?.name ?? '', kind: 'namespaces' });
    }
    if (a.operation !== 'UPDATE' || !a.name) return;
    const before = policyOf(a.oldObject?.metadata?.labels ?? {}, this.defaults).enforce;
    const after = policyOf(labels, this.defaults).enforce;
    // as upstream: not when enforce is unchanged, privileged, or relaxed at the same version, nor for an exempt namespace
    const relaxed = after.version === before.version && LEVELS.indexOf(after.level) <= LEVELS.indexOf(before.level);
    if (label(before) === label(after) || after.level === 'privileged' || relaxed || (this.config.exemptions?.namespaces ?? []).includes(a.name)) return;
    const byReason = new Map<string, { first: string; count: number }>();
    for (const pod of this.deps.list('', 'pods', a.name)) {
      if (pod.spec?.runtimeClassName && this.config.exemptions?.runtimeClasses?.includes(pod.spec.runtimeClassName)) continue;
      const failed = evaluatePod(after.level, pod.metadata, pod.spec, after.version);
      if (!failed.length) continue;
      const why = failed.map((r) => r.reason).join(', ');
      const name = pod.metadata?.name as string;
      const c = byReason.get(why);
      byReason.set(why, c ? { first: name < c.first ? name : c.first, count: c.count + 1 } : { first: name, count: 1 });
    }
    if (byReason.size === 0) return;
    a.warnings?.push(`existing pods in namespace "${a.name}" violate the new PodSecurity enforce level "${label(after)}"`);
    const lines = [...byReason].map(([why, c]) => {
      const who = c.count === 1 ? c.first : c.count === 2 ? `${c.first} (and 1 other pod)` : `${c.first} (and ${c.count - 1} other pods)`;
      return `${who}: ${why}`;
    });
    a.warnings?.push(...lines.sort());
  }
}

export function policyOf(labels: Record<string, string>, defaults: Record<Mode, LevelVersion>): Record<Mode, LevelVersion> {
  const read = (m: Mode): LevelVersion => {
    const lvl = labels[PREFIX + m];
    const ver = labels[`${PREFIX}${m}-version`];
    // An invalid level is taken as restricted (audit fails open to privileged), an invalid version as latest.
    const bad: Level = m === 'audit' ? 'privileged' : 'restricted';
    return {
      level: lvl === undefined ? defaults[m].level : LEVELS.includes(lvl as Level) ? (lvl as Level) : bad,
      version: ver === undefined ? defaults[m].version : ver === 'latest' || VERSION.test(ver) ? ver : 'latest',
    };
  };
  return { enforce: read('enforce'), audit: read('audit'), warn: read('warn') };
}

/** Only a new image, a container added or a seccomp annotation can change a pod's verdict (upstream's isSignificantPodUpdate). */
function significantPodUpdate(now: { meta?: KubeObject; spec?: KubeObject }, old: { meta?: KubeObject; spec?: KubeObject }): boolean {
  const seccomp = (m?: KubeObject): string => JSON.stringify(Object.entries(m?.annotations ?? {}).filter(([k]) => k.startsWith('seccomp.security.alpha.kubernetes.io/') || k.startsWith('container.seccomp.security.alpha.kubernetes.io/')));
  if (seccomp(now.meta) !== seccomp(old.meta)) return true;
  for (const k of ['containers', 'initContainers']) {
    const a = (now.spec?.[k] ?? []) as KubeObject[];
    const b = (old.spec?.[k] ?? []) as KubeObject[];
    if (a.length !== b.length || a.some((c, i) => c.image !== b[i]?.image)) return true;
  }
  const olds = new Map(((old.spec?.ephemeralContainers ?? []) as KubeObject[]).map((c) => [c.name, c]));
  return ((now.spec?.ephemeralContainers ?? []) as KubeObject[]).some((c) => olds.get(c.name)?.image !== c.image);
}

/** Upstream's PolicyToEvaluate errors as their aggregate prints them (one alone, several as `[a, b]`), '' when none. */
function labelErrors(labels: Record<string, string>): string {
  const errors: string[] = [];
  const invalidLabel = (key: string, value: string, detail: string): number =>
    errors.push(`metadata.labels[${key}]: Invalid value: ${JSON.stringify(value)}: ${detail}`);
  for (const m of MODES) {
    const lvl = labels[PREFIX + m];
    if (lvl !== undefined && !LEVELS.includes(lvl as Level)) invalidLabel(PREFIX + m, lvl, `must be one of ${LEVELS.join(', ')}`);
    const v = labels[`${PREFIX}${m}-version`];
    if (v !== undefined && v !== 'latest' && !VERSION.test(v)) invalidLabel(`${PREFIX}${m}-version`, v, 'must be "latest" or "v1.x"');
  }
  return errors.length > 1 ? `[${errors.join(', ')}]` : errors[0] ?? '';
}
