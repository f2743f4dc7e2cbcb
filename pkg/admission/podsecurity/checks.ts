// The Pod Security Standards' checks (upstream: k8s.io/pod-security-admission/policy/check_*.go), with upstream's
// reasons and details. Baseline checks first, then the restricted ones, each level sorted by check id; a restricted
// check replaces the baseline one it overrides. A policy pinned to a version (v1.X) gets the checks as they were in
// that version: a check introduced later is not applied, and checks that changed (sysctls, seLinuxOptions, the
// Windows exemptions of 1.25) answer as they did then.
import type { KubeObject } from '../../../api/types.js';

export type Level = 'privileged' | 'baseline' | 'restricted';

export interface CheckResult {
  reason: string;
  detail: string;
}

/** `minor` is the policy's version (1.minor; Infinity for latest). */
type PodCheck = (meta: KubeObject, spec: KubeObject, minor: number) => CheckResult | undefined;

interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** The minor version the check appeared in (upstream's first MinimumVersion). */
  since: number;
  overrides?: string;
  check: PodCheck;
}

type Container = KubeObject & { name: string };

const containers = (spec: KubeObject): Container[] =>
  [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])] as Container[];

const pluralize = (one: string, many: string, n: number): string => (n === 1 ? one : many);
const joinQuote = (items: string[]): string => items.map((s) => JSON.stringify(s)).join(', ');
const named = (names: string[]): string => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
/** Windows pods are exempt from the Linux-only restricted checks from 1.25 on. */
const windowsExempt = (spec: KubeObject, minor: number): boolean => minor >= 25 && spec.os?.name === 'windows';
/** User-namespaced pods get some restricted checks relaxed (KEP-127). */
const userNamespaced = (spec: KubeObject): boolean => spec.hostUsers === false;

const hostNamespaces: PodCheck = (_m, spec) => {
  const bad = [spec.hostNetwork && 'hostNetwork=true', spec.hostPID && 'hostPID=true', spec.hostIPC && 'hostIPC=true'].filter(Boolean) as string[];
  return bad.length ? { reason: 'host namespaces', detail: bad.join(', ') } : undefined;
};

const privileged: PodCheck = (_m, spec) => {
  const bad = containers(spec).filter((c) => c.securityContext?.privileged === true).map((c) => c.name);
  return bad.length ? { reason: 'privileged', detail: `${named(bad)} must not set securityContext.privileged=true` } : undefined;
};

const BASELINE_CAPS = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

const capabilitiesBaseline: PodCheck = (_m, spec) => {
  const bad: string[] = [];
  const caps = new Set<string>();
  for (const c of containers(spec)) {
    const added = ((c.securityContext?.capabilities?.add ?? []) as string[]).filter((x) => !BASELINE_CAPS.has(x));
    if (added.length) {
      bad.push(c.name);
      added.forEach((x) => caps.add(x));
    }
  }
  return bad.length ? { reason: 'non-default capabilities', detail: `${named(bad)} must not include ${joinQuote([...caps].sort())} in securityContext.capabilities.add` } : undefined;
};

const hostPathVolumes: PodCheck = (_m, spec) => {
  const bad = ((spec.volumes ?? []) as KubeObject[]).filter((v) => v.hostPath).map((v) => v.name as string);
  return bad.length ? { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}` } : undefined;
};

const hostPorts: PodCheck = (_m, spec) => {
  const bad: string[] = [];
  const ports = new Set<string>();
  for (const c of containers(spec)) {
    const used = ((c.ports ?? []) as KubeObject[]).filter((p) => p.hostPort);
    if (used.length) {
      bad.push(c.name);
      used.forEach((p) => ports.add(String(p.hostPort)));
    }
  }
  if (!bad.length) return undefined;
  return { reason: 'hostPort', detail: `${named(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', ports.size)} ${[...ports].sort().join(', ')}` };
};

const appArmorProfile: PodCheck = (meta, spec) => {
  const bad: string[] = [];
  const okType = (t: unknown): boolean => t === undefined || t === 'RuntimeDefault' || t === 'Localhost';
  if (!okType(spec.securityContext?.appArmorProfile?.type)) bad.push(`pod must not set securityContext.appArmorProfile.type to ${JSON.stringify(spec.securityContext.appArmorProfile.type)}`);
  const badContainers = containers(spec).filter((c) => !okType(c.securityContext?.appArmorProfile?.type)).map((c) => c.name);
  if (badContainers.length) bad.push(`${named(badContainers)} must not set securityContext.appArmorProfile.type to "Unconfined"`);
  const badAnnotations: string[] = [];
  for (const [k, v] of Object.entries((meta.annotations ?? {}) as Record<string, string>)) {
    if (k.startsWith('container.apparmor.security.beta.kubernetes.io/') && v !== 'runtime/default' && !v.startsWith('localhost/')) badAnnotations.push(`${k}="${v}"`);
  }
  if (badAnnotations.length) bad.push(`${pluralize('annotation', 'annotations', badAnnotations.length)} ${badAnnotations.sort().join(', ')}`);
  return bad.length ? { reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', bad.length), detail: bad.join(', ') } : undefined;
};

const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
/** Allowed from 1.31 on. */
const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES, 'container_engine_t']);

const seLinuxOptions: PodCheck = (_m, spec, minor) => {
  const allowed = minor >= 31 ? SELINUX_TYPES_1_31 : SELINUX_TYPES;
  const setters: string[] = [];
  const types = new Set<string>();
  let user = false;
  let role = false;
  const visit = (o: KubeObject | undefined): boolean => {
    if (!o) return false;
    let bad = false;
    if (o.type !== undefined && !allowed.has(o.type)) {
      types.add(o.type);
      bad = true;
    }
    if (o.user) user = bad = true;
    if (o.role) role = bad = true;
    return bad;
  };
  if (visit(spec.securityContext?.seLinuxOptions)) setters.push('pod');
  const bad = containers(spec).filter((c) => visit(c.securityContext?.seLinuxOptions)).map((c) => c.name);
  if (bad.length) setters.push(named(bad));
  if (!setters.length) return undefined;
  const what: string[] = [];
  if (types.size) what.push(`${pluralize('type', 'types', types.size)} ${joinQuote([...types].sort())}`);
  if (user) what.push('user may not be set');
  if (role) what.push('role may not be set');
  return { reason: 'seLinuxOptions', detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${what.join('; ')}` };
};

const procMount: PodCheck = (_m, spec) => {
  if (userNamespaced(spec)) return undefined;
  const bad = containers(spec).filter((c) => c.securityContext?.procMount !== undefined && c.securityContext.procMount !== 'Default').map((c) => c.name);
  return bad.length ? { reason: 'procMount', detail: `${named(bad)} must not set securityContext.procMount to "Unmasked"` } : undefined;
};

const seccompBaseline: PodCheck = (_m, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.seccompProfile?.type === 'Unconfined') setters.push('pod');
  const bad = containers(spec).filter((c) => c.securityContext?.seccompProfile?.type === 'Unconfined').map((c) => c.name);
  if (bad.length) setters.push(named(bad));
  return setters.length ? { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to "Unconfined"` } : undefined;
};

/** The safe sysctls, growing by version: [since minor, names]. */
const SAFE_SYSCTLS: [number, string[]][] = [
  [0, ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start']],
  [27, ['net.ipv4.ip_local_reserved_ports']],
  [29, ['net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']],
  [32, ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']],
];

const sysctls: PodCheck = (_m, spec, minor) => {
  const safe = new Set(SAFE_SYSCTLS.filter(([since]) => since <= minor).flatMap(([, names]) => names));
  const bad = ((spec.securityContext?.sysctls ?? []) as KubeObject[]).map((s) => s.name as string).filter((n) => !safe.has(n));
  return bad.length ? { reason: 'forbidden sysctls', detail: bad.join(', ') } : undefined;
};

const windowsHostProcess: PodCheck = (_m, spec) => {
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  const bad = containers(spec).filter((c) => c.securityContext?.windowsOptions?.hostProcess === true).map((c) => c.name);
  if (bad.length) setters.push(named(bad));
  return setters.length ? { reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` } : undefined;
};

const allowPrivilegeEscalation: PodCheck = (_m, spec, minor) => {
  if (windowsExempt(spec, minor)) return undefined;
  const bad = containers(spec).filter((c) => c.securityContext?.allowPrivilegeEscalation !== false).map((c) => c.name);
  return bad.length ? { reason: 'allowPrivilegeEscalation != false', detail: `${named(bad)} must set securityContext.allowPrivilegeEscalation=false` } : undefined;
};

const capabilitiesRestricted: PodCheck = (_m, spec, minor) => {
  if (windowsExempt(spec, minor)) return undefined;
  const missingDrop: string[] = [];
  const adding: string[] = [];
  const caps = new Set<string>();
  for (const c of containers(spec)) {
    const k = c.securityContext?.capabilities;
    if (!k) {
      missingDrop.push(c.name);
      continue;
    }
    if (!((k.drop ?? []) as string[]).includes('ALL')) missingDrop.push(c.name);
    const bad = ((k.add ?? []) as string[]).filter((x) => x !== 'NET_BIND_SERVICE');
    if (bad.length) {
      adding.push(c.name);
      bad.forEach((x) => caps.add(x));
    }
  }
  const details: string[] = [];
  if (missingDrop.length) details.push(`${named(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length) details.push(`${named(adding)} must not include ${joinQuote([...caps].sort())} in securityContext.capabilities.add`);
  return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
};

const ALLOWED_VOLUME_TYPES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret', 'image'];

const restrictedVolumes: PodCheck = (_m, spec) => {
  const bad: string[] = [];
  const types = new Set<string>();
  for (const v of (spec.volumes ?? []) as KubeObject[]) {
    const kinds = Object.keys(v).filter((k) => k !== 'name');
    const badKinds = kinds.filter((k) => !ALLOWED_VOLUME_TYPES.includes(k));
    if (badKinds.length || kinds.length === 0) {
      bad.push(v.name as string);
      (badKinds.length ? badKinds : ['unknown']).forEach((k) => types.add(k));
    }
  }
  if (!bad.length) return undefined;
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', types.size)} ${joinQuote([...types].sort())}`,
  };
};

const runAsNonRoot: PodCheck = (_m, spec) => {
  if (userNamespaced(spec)) return undefined;
  const setters: string[] = [];
  let podNonRoot = false;
  const podValue = spec.securityContext?.runAsNonRoot;
  if (podValue === false) setters.push('pod');
  else if (podValue === true) podNonRoot = true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const v = c.securityContext?.runAsNonRoot;
    if (v === false) explicit.push(c.name);
    else if (v === undefined && !podNonRoot) implicit.push(c.name);
  }
  if (explicit.length) setters.push(named(explicit));
  if (setters.length) return { reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length) return { reason: 'runAsNonRoot != true', detail: `pod or ${named(implicit)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser: PodCheck = (_m, spec) => {
  if (userNamespaced(spec)) return undefined;
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push('pod');
  const bad = containers(spec).filter((c) => c.securityContext?.runAsUser === 0).map((c) => c.name);
  if (bad.length) setters.push(named(bad));
  return setters.length ? { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` } : undefined;
};

const seccompRestricted: PodCheck = (_m, spec, minor) => {
  if (windowsExempt(spec, minor)) return undefined;
  const ok = (t: unknown): boolean => t === 'RuntimeDefault' || t === 'Localhost';
  const setters: string[] = [];
  const badValues = new Set<string>();
  const podType = spec.securityContext?.seccompProfile?.type;
  let podOk = false;
  if (podType !== undefined) {
    if (ok(podType)) podOk = true;
    else {
      setters.push('pod');
      badValues.add(String(podType));
    }
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const t = c.securityContext?.seccompProfile?.type;
    if (t !== undefined) {
      if (!ok(t)) {
        explicit.push(c.name);
        badValues.add(String(t));
      }
    } else if (!podOk) implicit.push(c.name);
  }
  if (explicit.length) setters.push(named(explicit));
  const details: string[] = [];
  if (setters.length) details.push(`${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote([...badValues].sort())}`);
  if (implicit.length) details.push(`pod or ${named(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
  return details.length ? { reason: 'seccompProfile', detail: details.join('; ') } : undefined;
};

const CHECKS: Check[] = [
  { id: 'appArmorProfile', level: 'baseline', since: 0, check: appArmorProfile },
  { id: 'capabilities_baseline', level: 'baseline', since: 0, check: capabilitiesBaseline },
  { id: 'hostNamespaces', level: 'baseline', since: 0, check: hostNamespaces },
  { id: 'hostPathVolumes', level: 'baseline', since: 0, check: hostPathVolumes },
  { id: 'hostPorts', level: 'baseline', since: 0, check: hostPorts },
  { id: 'privileged', level: 'baseline', since: 0, check: privileged },
  { id: 'procMount', level: 'baseline', since: 0, check: procMount },
  { id: 'seLinuxOptions', level: 'baseline', since: 0, check: seLinuxOptions },
  { id: 'seccompProfile_baseline', level: 'baseline', since: 0, check: seccompBaseline },
  { id: 'sysctls', level: 'baseline', since: 0, check: sysctls },
  { id: 'windowsHostProcess', level: 'baseline', since: 0, check: windowsHostProcess },
  { id: 'allowPrivilegeEscalation', level: 'restricted', since: 8, check: allowPrivilegeEscalation },
  { id: 'capabilities_restricted', level: 'restricted', since: 22, overrides: 'capabilities_baseline', check: capabilitiesRestricted },
  { id: 'restrictedVolumes', level: 'restricted', since: 0, overrides: 'hostPathVolumes', check: restrictedVolumes },
  { id: 'runAsNonRoot', level: 'restricted', since: 0, check: runAsNonRoot },
  { id: 'runAsUser', level: 'restricted', since: 23, check: runAsUser },
  { id: 'seccompProfile_restricted', level: 'restricted', since: 19, overrides: 'seccompProfile_baseline', check: seccompRestricted },
];

/** The minor version of a policy version: 'latest' (or anything unparsable, as upstream falls back) is the newest. */
export const minorOf = (version: string): number => {
  const m = /^v1\.(0|[1-9][0-9]*)$/.exec(version);
  return m ? Number(m[1]) : Infinity;
};

/** Every failed check of the level at the version, in upstream's order. */
export function evaluatePod(level: Level, meta: KubeObject | undefined, spec: KubeObject | undefined, version = 'latest'): CheckResult[] {
  if (level === 'privileged') return [];
  const minor = minorOf(version);
  const active = CHECKS.filter((c) => c.since <= minor && (level === 'restricted' || c.level === 'baseline'));
  // A restricted check replaces the baseline one it overrides only in the versions where it exists.
  const overridden = new Set(level === 'restricted' ? active.map((c) => c.overrides) : []);
  const out: CheckResult[] = [];
  for (const c of active) {
    if (overridden.has(c.id)) continue;
    const r = c.check(meta ?? {}, spec ?? {}, minor);
    if (r) out.push(r);
  }
  return out;
}

/** `reason (detail), reason (detail)` (upstream: AggregateCheckResult.ForbiddenReason). */
export const forbiddenReason = (results: CheckResult[]): string =>
  results.map((r) => (r.detail ? `${r.reason} (${r.detail})` : r.reason)).join(', ');
