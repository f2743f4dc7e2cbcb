// The per-field strategies of a PodSecurityPolicy (upstream: pkg/security/podsecuritypolicy/{user,group,selinux,
// capabilities}): what each generates for a pod that sets nothing, and the field errors of what the pod sets.
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, required } from '../../apimachinery/field.js';

export interface IdRange {
  min: number;
  max: number;
}

/** A bad value as Go's field.Error renders a non-scalar (%#v): `[]int64{1, 2}`. */
const invalidRendered = (field: string, rendered: string, detail: string): StatusCause =>
  fieldCause('FieldValueInvalid', field, `Invalid value: ${rendered}: ${detail}`);

/** Ranges as Go's %v prints []IDRange: `[{1 65535} {70000 80000}]`. */
export const formatRanges = (ranges: IdRange[]): string => `[${ranges.map((r) => `{${r.min} ${r.max}}`).join(' ')}]`;
const formatGroups = (groups: number[]): string => `[]int64{${groups.join(', ')}}`;
const inRanges = (id: number, ranges: IdRange[]): boolean => ranges.some((r) => id >= r.min && id <= r.max);

export interface UserStrategy {
  generate(): number | undefined;
  validate(scPath: string, runAsNonRoot: boolean | undefined, runAsUser: number | undefined): StatusCause[];
}

export function userStrategy(opts: { rule?: string; ranges?: IdRange[] }): UserStrategy {
  const ranges = opts.ranges ?? [];
  switch (opts.rule) {
    case 'MustRunAs':
      if (!ranges.length) throw new Error('MustRunAs requires at least one range');
      return {
        generate: () => ranges[0]!.min,
        validate: (scPath, _nonRoot, uid) => {
          if (uid === undefined) return [required(`${scPath}.runAsUser`)];
          return inRanges(uid, ranges) ? [] : [invalidValue(`${scPath}.runAsUser`, uid, `must be in the ranges: ${formatRanges(ranges)}`)];
        },
      };
    case 'MustRunAsNonRoot':
      return {
        generate: () => undefined,
        validate: (scPath, nonRoot, uid) => {
          if (nonRoot === undefined && uid === undefined) return [required(`${scPath}.runAsNonRoot`, 'must be true')];
          if (nonRoot === false) return [invalidValue(`${scPath}.runAsNonRoot`, false, 'must be true')];
          if (uid === 0) return [invalidValue(`${scPath}.runAsUser`, 0, 'running with the root UID is forbidden')];
          return [];
        },
      };
    case 'RunAsAny':
      return { generate: () => undefined, validate: () => [] };
    default:
      throw new Error(`Unrecognized RunAsUser strategy type ${opts.rule ?? ''}`);
  }
}

export interface GroupStrategy {
  /** The groups a pod that sets none gets (supplementalGroups); the first is the single one (fsGroup, runAsGroup). */
  generate(): number[] | undefined;
  validate(path: string, groups: number[]): StatusCause[];
}

const validateInRanges = (path: string, ranges: IdRange[], groups: number[]): StatusCause[] =>
  groups.filter((g) => !inRanges(g, ranges))
    .map((g) => invalidRendered(path, formatGroups(groups), `group ${g} must be in the ranges: ${formatRanges(ranges)}`));

/** fsGroup, supplementalGroups and runAsGroup share one shape of strategy; `what` names it in errors. */
export function groupStrategy(opts: { rule?: string; ranges?: IdRange[] }, what: string): GroupStrategy {
  const ranges = opts.ranges ?? [];
  switch (opts.rule) {
    case 'MustRunAs':
      if (!ranges.length) throw new Error('ranges must be supplied for MustRunAs');
      return {
        generate: () => [ranges[0]!.min],
        validate: (path, groups) => [
          ...(groups.length === 0 ? [invalidRendered(path, formatGroups(groups), 'unable to validate empty groups against required ranges')] : []),
          ...validateInRanges(path, ranges, groups),
        ],
      };
    case 'MayRunAs':
      if (!ranges.length) throw new Error('ranges must be supplied for MayRunAs');
      return { generate: () => undefined, validate: (path, groups) => validateInRanges(path, ranges, groups) };
    case 'RunAsAny':
      return { generate: () => undefined, validate: () => [] };
    default:
      throw new Error(`Unrecognized ${what} strategy type ${opts.rule ?? ''}`);
  }
}

export type SELinuxOptions = { user?: string; role?: string; type?: string; level?: string };

export interface SELinuxStrategy {
  generate(): SELinuxOptions | undefined;
  validate(path: string, options: SELinuxOptions | undefined): StatusCause[];
}

export function seLinuxStrategy(opts: { rule?: string; seLinuxOptions?: SELinuxOptions }): SELinuxStrategy {
  switch (opts.rule) {
    case 'MustRunAs': {
      const want = opts.seLinuxOptions;
      if (!want) throw new Error('MustRunAs requires SELinuxOptions');
      return {
        generate: () => structuredClone(want),
        validate: (path, have) => {
          if (!have) return [required(path)];
          return (['level', 'role', 'type', 'user'] as const)
            .filter((k) => (have[k] ?? '') !== (want[k] ?? ''))
            .map((k) => invalidValue(`${path}.${k}`, have[k] ?? '', `must be ${want[k] ?? ''}`));
        },
      };
    }
    case 'RunAsAny':
      return { generate: () => undefined, validate: () => [] };
    default:
      throw new Error(`Unrecognized SELinuxContext strategy type ${opts.rule ?? ''}`);
  }
}

export type Capabilities = { add?: string[]; drop?: string[] };

/** Upstream's defaultCapabilities: required drops and default adds folded into what the container asks for. */
export function capabilitiesStrategy(defaultAdd: string[], requiredDrop: string[], allowed: string[]) {
  return {
    /** The container's capabilities with the policy's defaults; the same object when nothing changes. */
    generate(have: Capabilities | undefined): Capabilities | undefined {
      const containerAdd = new Set(have?.add ?? []);
      const containerDrop = new Set(have?.drop ?? []);
      const add = new Set([...defaultAdd.filter((c) => !containerDrop.has(c)), ...containerAdd]);
      const drop = new Set([...requiredDrop, ...containerDrop]);
      if (add.size === containerAdd.size && drop.size === containerDrop.size) return have;
      const out: Capabilities = {};
      if (add.size) out.add = [...add].sort();
      if (drop.size) out.drop = [...drop].sort();
      return out;
    },
    validate(path: string, caps: Capabilities | undefined): StatusCause[] {
      if (!caps) {
        if (!defaultAdd.length && !requiredDrop.length) return [];
        return [invalidValue(path, null, 'required capabilities are not set on the securityContext')];
      }
      if (allowed.includes('*')) return [];
      const errs: StatusCause[] = [];
      for (const c of caps.add ?? []) {
        if (!defaultAdd.includes(c) && !allowed.includes(c)) errs.push(invalidValue(`${path}.add`, c, 'capability may not be added'));
      }
      const drops = caps.drop ?? [];
      for (const d of requiredDrop) {
        if (!drops.includes(d)) errs.push(invalidRendered(`${path}.drop`, `[]core.Capability{${drops.map((x) => JSON.stringify(x)).join(', ')}}`, `${d} is required to be dropped but was not found`));
      }
      return errs;
    },
  };
}
