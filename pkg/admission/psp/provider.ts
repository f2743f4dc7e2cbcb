// One PodSecurityPolicy applied to a pod (upstream: pkg/security/podsecuritypolicy/provider.go): MutatePod fills
// what the pod leaves unset with the policy's defaults, ValidatePod lists every field the policy does not allow.
// Pods are plain v1 JSON; a container's effective security context is its own over the pod's.
import { FS_TYPES } from '../../../api/policy/v1beta1/index.js';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue } from '../../apimachinery/field.js';
import { containersWithPath, type Container } from '../pod-helpers.js';
import { deepEqual } from '../../apimachinery/semantic-equal.js';
import { profileStrategies } from './profiles.js';
import {
  capabilitiesStrategy, groupStrategy, seLinuxStrategy, userStrategy, type Capabilities, type GroupStrategy, type IdRange, type SELinuxOptions,
} from './strategies.js';

type Spec = Record<string, any>;

/** Security context fields a container inherits from the pod when it sets none. */
const INHERITED = ['runAsUser', 'runAsGroup', 'runAsNonRoot', 'seLinuxOptions'] as const;
/** Sysctls every pod may set (upstream's SafeSysctlAllowlist). */
const SAFE_SYSCTLS = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const VOLUME_KEY_TO_FS_TYPE: Record<string, string> = Object.fromEntries(FS_TYPES.map((t) => [t === 'cephFS' ? 'cephfs' : t, t]));

const effective = (pod: KubeObject, c: Container, key: string): any =>
  c.securityContext?.[key] ?? ((INHERITED as readonly string[]).includes(key) ? pod.spec?.securityContext?.[key] : undefined);

/** Sets a container field only where the effective value would change (upstream's effective mutator). */
function setEffective(pod: KubeObject, c: Container, key: string, value: unknown): void {
  if (deepEqual(effective(pod, c, key), value)) return;
  if (value === undefined) {
    if (c.securityContext) delete c.securityContext[key];
    return;
  }
  (c.securityContext ??= {})[key] = value;
}

const matchesPattern = (name: string, patterns: string[]): boolean =>
  patterns.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p));

/** Whether a host path falls under a prefix, by whole path segments ("/foo" covers "/foo/bar", not "/food"). */
function hasPathPrefix(path: string, prefix: string): boolean {
  const segs = (p: string) => p.split('/').filter(Boolean);
  const a = segs(path);
  const b = segs(prefix);
  return b.length <= a.length && b.every((s, i) => s === a[i]) && path.startsWith('/') === prefix.startsWith('/');
}

export interface Provider {
  readonly name: string;
  mutatePod(pod: KubeObject): void;
  validatePod(pod: KubeObject): StatusCause[];
}

/** A provider for a policy; throws when the policy cannot be applied (a MustRunAs without ranges, ...). */
export function newProvider(psp: KubeObject): Provider {
  const spec: Spec = psp.spec ?? {};
  const name = psp.metadata?.name ?? '';
  const user = userStrategy(spec.runAsUser ?? {});
  const runAsGroup: GroupStrategy | undefined = spec.runAsGroup ? groupStrategy(spec.runAsGroup, 'RunAsGroup') : undefined;
  const fsGroup = groupStrategy(spec.fsGroup ?? {}, 'FSGroup');
  const supplemental = groupStrategy(spec.supplementalGroups ?? {}, 'SupplementalGroups');
  const seLinux = seLinuxStrategy(spec.seLinux ?? {});
  const caps = capabilitiesStrategy(spec.defaultAddCapabilities ?? [], spec.requiredDropCapabilities ?? [], spec.allowedCapabilities ?? []);
  const allowEscalation = spec.allowPrivilegeEscalation !== false;
  const profiles = profileStrategies((psp.metadata?.annotations ?? {}) as Record<string, string>);

  const mutateContainer = (pod: KubeObject, c: Container): void => {
    if (effective(pod, c, 'runAsUser') === undefined) setEffective(pod, c, 'runAsUser', user.generate());
    if (runAsGroup && effective(pod, c, 'runAsGroup') === undefined) setEffective(pod, c, 'runAsGroup', runAsGroup.generate()?.[0]);
    if (effective(pod, c, 'seLinuxOptions') === undefined) setEffective(pod, c, 'seLinuxOptions', seLinux.generate());
    if (effective(pod, c, 'runAsNonRoot') === undefined && effective(pod, c, 'runAsUser') === undefined && spec.runAsUser?.rule === 'MustRunAsNonRoot') {
      setEffective(pod, c, 'runAsNonRoot', true);
    }
    setEffective(pod, c, 'capabilities', caps.generate(c.securityContext?.capabilities as Capabilities | undefined));
    if (spec.readOnlyRootFilesystem && c.securityContext?.readOnlyRootFilesystem === undefined) setEffective(pod, c, 'readOnlyRootFilesystem', true);
    if (spec.defaultAllowPrivilegeEscalation !== undefined && c.securityContext?.allowPrivilegeEscalation === undefined) {
      setEffective(pod, c, 'allowPrivilegeEscalation', spec.defaultAllowPrivilegeEscalation);
    }
    if (!allowEscalation && c.securityContext?.allowPrivilegeEscalation === undefined) setEffective(pod, c, 'allowPrivilegeEscalation', false);
  };

  const validateVolumes = (pod: KubeObject): StatusCause[] => {
    const errs: StatusCause[] = [];
    const allowed: string[] = spec.volumes ?? [];
    ((pod.spec?.volumes ?? []) as Array<Record<string, any>>).forEach((v, i) => {
      const at = `spec.volumes[${i}]`;
      const key = Object.keys(v).find((k) => VOLUME_KEY_TO_FS_TYPE[k] !== undefined);
      if (!key) return errs.push(invalidValue(at, '', `unknown volume type for volume: ${v.name}`));
      const fsType = VOLUME_KEY_TO_FS_TYPE[key]!;
      if (!allowed.includes('*') && !allowed.includes(fsType)) return errs.push(invalidValue(at, fsType, `${fsType} volumes are not allowed to be used`));
      if (fsType === 'hostPath') errs.push(...validateHostPath(pod, v, at));
      else if (fsType === 'flexVolume' && spec.allowedFlexVolumes?.length && !spec.allowedFlexVolumes.some((f: { driver: string }) => f.driver === v.flexVolume?.driver)) {
        errs.push(invalidValue(`${at}.driver`, v.flexVolume?.driver ?? '', 'Flexvolume driver is not allowed to be used'));
      } else if (fsType === 'csi' && spec.allowedCSIDrivers?.length && !spec.allowedCSIDrivers.some((d: { name: string }) => d.name === v.csi?.driver)) {
        errs.push(invalidValue(`${at}.csi.driver`, v.csi?.driver ?? '', 'Inline CSI driver is not allowed to be used'));
      }
      return undefined;
    });
    return errs;
  };

  /** allowedHostPaths: empty allows any path; a matching read-only prefix needs every mount of the volume read-only. */
  const validateHostPath = (pod: KubeObject, v: Record<string, any>, at: string): StatusCause[] => {
    const prefixes: Array<{ pathPrefix: string; readOnly?: boolean }> = spec.allowedHostPaths ?? [];
    if (!prefixes.length) return [];
    const path: string = v.hostPath?.path ?? '';
    const matching = prefixes.filter((p) => hasPathPrefix(path, p.pathPrefix));
    if (!matching.length) return [invalidValue(`${at}.hostPath.pathPrefix`, path, 'is not allowed to be used')];
    if (matching.some((p) => !p.readOnly)) return [];
    return containersWithPath(pod.spec).flatMap(({ c, path: cpath }) => ((c.volumeMounts ?? []) as Array<Record<string, any>>)
      .flatMap((m, j) => (m.name === v.name && !m.readOnly ? [invalidValue(`${cpath}.volumeMounts[${j}].readOnly`, false, 'must be read-only')] : [])));
  };

  const validateSysctls = (pod: KubeObject): StatusCause[] => {
    const forbiddenList: string[] = spec.forbiddenSysctls ?? [];
    const allowedUnsafe: string[] = spec.allowedUnsafeSysctls ?? [];
    return ((pod.spec?.securityContext?.sysctls ?? []) as Array<{ name: string }>).flatMap((s, i) => {
      const at = `spec.securityContext.sysctls[${i}]`;
      if (matchesPattern(s.name, forbiddenList)) return [forbidden(at, `sysctl "${s.name}" is not allowed`)];
      if (SAFE_SYSCTLS.includes(s.name) || matchesPattern(s.name, allowedUnsafe)) return [];
      return [forbidden(at, `unsafe sysctl "${s.name}" is not allowed`)];
    });
  };

  const validateContainer = (pod: KubeObject, c: Container, cpath: string): StatusCause[] => {
    const sc = `${cpath}.securityContext`;
    const own = c.securityContext ?? {};
    const errs: StatusCause[] = [...user.validate(sc, effective(pod, c, 'runAsNonRoot'), effective(pod, c, 'runAsUser'))];
    if (runAsGroup) {
      const g = effective(pod, c, 'runAsGroup');
      errs.push(...runAsGroup.validate(sc, g === undefined ? [] : [g]));
    }
    errs.push(...seLinux.validate(`${sc}.seLinuxOptions`, effective(pod, c, 'seLinuxOptions') as SELinuxOptions | undefined));
    errs.push(...profiles.validateContainer(pod, c));
    if (!spec.privileged && own.privileged === true) errs.push(invalidValue(`${sc}.privileged`, true, 'Privileged containers are not allowed'));
    const procMounts: string[] = spec.allowedProcMountTypes?.length ? spec.allowedProcMountTypes : ['Default'];
    const procMount = own.procMount ?? 'Default';
    if (!procMounts.includes(procMount)) errs.push(invalidValue(`${sc}.procMount`, procMount, 'ProcMountType is not allowed'));
    errs.push(...caps.validate(`${sc}.capabilities`, own.capabilities));
    for (const p of (c.ports ?? []) as Array<{ hostPort?: number }>) {
      if (p.hostPort && !((spec.hostPorts ?? []) as IdRange[]).some((r) => p.hostPort! >= r.min && p.hostPort! <= r.max)) {
        const allowedPorts = ((spec.hostPorts ?? []) as IdRange[]).map((r) => (r.min === r.max ? `${r.min}` : `${r.min}-${r.max}`)).join(',');
        errs.push(invalidValue(`${cpath}.hostPort`, p.hostPort, `Host port ${p.hostPort} is not allowed to be used. Allowed ports: [${allowedPorts}]`));
      }
    }
    if (spec.readOnlyRootFilesystem) {
      if (own.readOnlyRootFilesystem === undefined) errs.push(invalidValue(`${sc}.readOnlyRootFilesystem`, null, 'ReadOnlyRootFilesystem may not be nil and must be set to true'));
      else if (!own.readOnlyRootFilesystem) errs.push(invalidValue(`${sc}.readOnlyRootFilesystem`, false, 'ReadOnlyRootFilesystem must be set to true'));
    }
    if (!allowEscalation && own.allowPrivilegeEscalation !== false) {
      errs.push(invalidValue(`${sc}.allowPrivilegeEscalation`, own.allowPrivilegeEscalation ?? null, 'Allowing privilege escalation for containers is not allowed'));
    }
    return errs;
  };

  return {
    name,
    mutatePod(pod) {
      const podSpec = (pod.spec ??= {});
      const psc = (podSpec.securityContext ??= {});
      if (psc.supplementalGroups === undefined) {
        const groups = supplemental.generate();
        if (groups) psc.supplementalGroups = groups;
      }
      if (psc.fsGroup === undefined) {
        const g = fsGroup.generate()?.[0];
        if (g !== undefined) psc.fsGroup = g;
      }
      if (psc.seLinuxOptions === undefined) {
        const o = seLinux.generate();
        if (o) psc.seLinuxOptions = o;
      }
      if (spec.runtimeClass?.defaultRuntimeClassName && podSpec.runtimeClassName === undefined) podSpec.runtimeClassName = spec.runtimeClass.defaultRuntimeClassName;
      const containers = containersWithPath(podSpec).map(({ c }) => c);
      profiles.mutatePod(pod, containers);
      for (const c of containers) mutateContainer(pod, c);
    },
    validatePod(pod) {
      const podSpec = pod.spec ?? {};
      const psc = podSpec.securityContext ?? {};
      const scPath = 'spec.securityContext';
      const errs: StatusCause[] = [
        ...fsGroup.validate(`${scPath}.fsGroup`, psc.fsGroup === undefined ? [] : [psc.fsGroup]),
        ...supplemental.validate(`${scPath}.supplementalGroups`, psc.supplementalGroups ?? []),
        ...profiles.validatePod(pod),
        ...seLinux.validate(`${scPath}.seLinuxOptions`, psc.seLinuxOptions),
      ];
      if (!spec.hostNetwork && podSpec.hostNetwork) errs.push(invalidValue(`${scPath}.hostNetwork`, true, 'Host network is not allowed to be used'));
      if (!spec.hostPID && podSpec.hostPID) errs.push(invalidValue(`${scPath}.hostPID`, true, 'Host PID is not allowed to be used'));
      if (!spec.hostIPC && podSpec.hostIPC) errs.push(invalidValue(`${scPath}.hostIPC`, true, 'Host IPC is not allowed to be used'));
      errs.push(...validateSysctls(pod), ...validateVolumes(pod));
      const runtimeClass = podSpec.runtimeClassName as string | undefined;
      const allowedClasses: string[] | undefined = spec.runtimeClass?.allowedRuntimeClassNames;
      if (allowedClasses && runtimeClass !== undefined && !allowedClasses.includes('*') && !allowedClasses.includes(runtimeClass)) {
        errs.push(invalidValue('spec.runtimeClassName', runtimeClass, ''));
      }
      for (const { c, path } of containersWithPath(podSpec)) errs.push(...validateContainer(pod, c, path));
      return errs;
    },
  };
}
