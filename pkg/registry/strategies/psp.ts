// PodSecurityPolicies (upstream: pkg/registry/policy/podsecuritypolicy and the spec checks of
// pkg/apis/policy/validation): known strategy rules, sane ID ranges, known volume types, capabilities not both
// required-dropped and added, host path prefixes without "..", and sysctl patterns.
import { FS_TYPES } from '../../../api/policy/v1beta1/index.js';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';

type Range = { min?: number; max?: number };
type Spec = Record<string, any>;

const SORTED_FS_TYPES = [...FS_TYPES, '*'].sort();
const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_PATTERN_FMT = `(${SYSCTL_SEGMENT}[\\./])*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]`;
const SYSCTL_PATTERN = new RegExp(`^${SYSCTL_PATTERN_FMT}$`);
const SYSCTL_MAX_LENGTH = 253;

function rule(causes: StatusCause[], path: string, options: { rule?: string; ranges?: Range[] } | undefined, supported: string[]): void {
  if (!supported.includes(options?.rule ?? '')) causes.push(notSupported(`${path}.rule`, options?.rule ?? '', supported));
  (options?.ranges ?? []).forEach((r, i) => {
    const at = `${path}.ranges[${i}]`;
    const min = r.min ?? 0;
    const max = r.max ?? 0;
    if (min < 0) causes.push(invalidValue(`${at}.min`, min, 'min cannot be negative'));
    if (max < 0) causes.push(invalidValue(`${at}.max`, max, 'max cannot be negative'));
    if (min > max) causes.push(invalidValue(`${at}.min`, min, 'min cannot be greater than max'));
  });
}

function sysctls(causes: StatusCause[], path: string, list: string[] | undefined): void {
  let coversAll = false;
  (list ?? []).forEach((s, i) => {
    if (s === '') causes.push(invalidValue(`${path}[${i}]`, s, 'empty sysctl not allowed'));
    else if (s.length > SYSCTL_MAX_LENGTH || !SYSCTL_PATTERN.test(s)) {
      causes.push(invalidValue(`${path}[${i}]`, s, `must have at most ${SYSCTL_MAX_LENGTH} characters and match regex ${SYSCTL_PATTERN_FMT}`));
    } else if (s.startsWith('*')) coversAll = true;
  });
  if (coversAll && (list?.length ?? 0) > 1) causes.push(forbidden(`${path}.items`, "if '*' is present, must not specify other sysctls"));
}

/** An allowed entry and a forbidden one overlap when either, read as a prefix pattern, covers the other. */
function sysctlOverlaps(causes: StatusCause[], allowed: string[], forbiddenList: string[]): void {
  const prefix = (s: string) => (s.endsWith('*') ? s.slice(0, -1) : undefined);
  allowed.forEach((a, i) => forbiddenList.forEach((f, j) => {
    const pa = prefix(a);
    const pf = prefix(f);
    if (pa !== undefined && pf !== undefined) {
      if (pa.startsWith(pf)) causes.push(invalidValue(`spec.allowedUnsafeSysctls[${i}]`, a, `sysctl overlaps with ${f}`));
      else if (pf.startsWith(pa)) causes.push(invalidValue(`spec.forbiddenSysctls[${j}]`, f, `sysctl overlaps with ${a}`));
    } else if (pa !== undefined) {
      if (f.startsWith(pa)) causes.push(invalidValue(`spec.forbiddenSysctls[${j}]`, f, `sysctl overlaps with ${a}`));
    } else if (pf !== undefined) {
      if (a.startsWith(pf)) causes.push(invalidValue(`spec.allowedUnsafeSysctls[${i}]`, a, `sysctl overlaps with ${f}`));
    } else if (a === f) causes.push(invalidValue(`spec.allowedUnsafeSysctls[${i}]`, a, `sysctl overlaps with ${f}`));
  }));
}

export function validatePodSecurityPolicySpec(spec: Spec): StatusCause[] {
  const causes: StatusCause[] = [];
  rule(causes, 'spec.runAsUser', spec.runAsUser, ['MustRunAs', 'MustRunAsNonRoot', 'RunAsAny']);
  if (spec.runAsGroup) rule(causes, 'spec.runAsGroup', spec.runAsGroup, ['MayRunAs', 'MustRunAs', 'RunAsAny']);
  const seLinux = spec.seLinux?.rule ?? '';
  if (!['MustRunAs', 'RunAsAny'].includes(seLinux)) causes.push(notSupported('spec.seLinux.rule', seLinux, ['MustRunAs', 'RunAsAny']));
  rule(causes, 'spec.supplementalGroups', spec.supplementalGroups, ['MayRunAs', 'MustRunAs', 'RunAsAny']);
  rule(causes, 'spec.fsGroup', spec.fsGroup, ['MayRunAs', 'MustRunAs', 'RunAsAny']);
  for (const v of (spec.volumes ?? []) as string[]) {
    if (!SORTED_FS_TYPES.includes(v)) causes.push(notSupported('spec.volumes', v, SORTED_FS_TYPES));
  }
  const drops: string[] = spec.requiredDropCapabilities ?? [];
  if (drops.length && (spec.allowedCapabilities ?? []).includes('*')) {
    causes.push(invalidValue('requiredDropCapabilities', drops, 'must be empty when all capabilities are allowed by a wildcard'));
  }
  for (const f of ['defaultAddCapabilities', 'allowedCapabilities']) {
    for (const c of (spec[f] ?? []) as string[]) {
      if (drops.includes(c)) causes.push(invalidValue(f, c, `capability is listed in ${f} and requiredDropCapabilities`));
    }
  }
  if (spec.defaultAllowPrivilegeEscalation === true && spec.allowPrivilegeEscalation === false) {
    causes.push(invalidValue('spec.defaultAllowPrivilegeEscalation', true, 'Cannot set DefaultAllowPrivilegeEscalation to true without also setting AllowPrivilegeEscalation to true'));
  }
  for (const [i, p] of ((spec.allowedHostPaths ?? []) as Array<{ pathPrefix?: string }>).entries()) {
    if (!p.pathPrefix) {
      causes.push(required(`spec.allowedHostPaths[${i}]`, 'is required'));
      break;
    }
    if (p.pathPrefix.split('/').includes('..')) causes.push(invalidValue(`spec.allowedHostPaths[${i}]`, p.pathPrefix, "must not contain '..'"));
  }
  ((spec.allowedFlexVolumes ?? []) as Array<{ driver?: string }>).forEach((fv, i) => {
    if (!fv.driver) causes.push(required(`spec.allowedFlexVolumes.allowedFlexVolumes[${i}].driver`, 'must specify a driver'));
  });
  sysctls(causes, 'spec.allowedUnsafeSysctls', spec.allowedUnsafeSysctls);
  sysctls(causes, 'spec.forbiddenSysctls', spec.forbiddenSysctls);
  sysctlOverlaps(causes, spec.allowedUnsafeSysctls ?? [], spec.forbiddenSysctls ?? []);
  return causes;
}

const validate = (obj: KubeObject): StatusCause[] => validatePodSecurityPolicySpec(obj.spec ?? {});

export const podSecurityPolicyStrategy: Strategy = {
  validate,
  validateUpdate: validate,
};
