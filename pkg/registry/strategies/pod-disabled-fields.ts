// Fields of a pod spec behind feature gates that are off in 1.32 by default: upstream drops them before validation
// (pkg/api/pod's dropDisabledFields, for pods and every pod template), unless the stored object already used them.
import type { KubeObject } from '../../../api/types.js';
import { isObj } from '../validation/field-checks.js';

type Obj = Record<string, any>;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const containersOf = (spec: Obj | undefined): Obj[] =>
  spec ? [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)] : [];

interface Gated {
  /** Whether a spec uses the field (checked on the stored object: then the new one keeps it). */
  inUse(spec: Obj): boolean;
  drop(spec: Obj): void;
}

const securityContextField = (field: string): Gated => ({
  inUse: (spec) => spec.securityContext?.[field] !== undefined,
  drop: (spec) => { if (isObj(spec.securityContext)) delete spec.securityContext[field]; },
});

const GATED: Gated[] = [
  // UserNamespacesSupport (beta, off)
  { inUse: (spec) => spec.hostUsers !== undefined, drop: (spec) => { delete spec.hostUsers; } },
  // PodLevelResources (alpha)
  { inUse: (spec) => spec.resources !== undefined, drop: (spec) => { delete spec.resources; } },
  // InPlacePodVerticalScaling (alpha)
  {
    inUse: (spec) => containersOf(spec).some((c) => c.resizePolicy !== undefined),
    drop: (spec) => { for (const c of containersOf(spec)) delete c.resizePolicy; },
  },
  // DynamicResourceAllocation (beta, off)
  {
    inUse: (spec) => spec.resourceClaims !== undefined || containersOf(spec).some((c) => c.resources?.claims !== undefined),
    drop: (spec) => {
      delete spec.resourceClaims;
      for (const c of containersOf(spec)) if (isObj(c.resources)) delete c.resources.claims;
    },
  },
  // ProcMountType (beta, off): Unmasked becomes Default
  {
    inUse: (spec) => containersOf(spec).some((c) => c.securityContext?.procMount !== undefined && c.securityContext.procMount !== 'Default'),
    drop: (spec) => { for (const c of containersOf(spec)) if (c.securityContext?.procMount === 'Unmasked') c.securityContext.procMount = 'Default'; },
  },
  // SupplementalGroupsPolicy, SELinuxChangePolicy (alpha)
  securityContextField('supplementalGroupsPolicy'),
  securityContextField('seLinuxChangePolicy'),
  // ImageVolume (alpha)
  {
    inUse: (spec) => list(spec.volumes).some((v) => v.image !== undefined),
    drop: (spec) => { for (const v of list(spec.volumes)) delete v.image; },
  },
  // ClusterTrustBundleProjection (alpha)
  {
    inUse: (spec) => list(spec.volumes).some((v) => list(v.projected?.sources).some((s) => s.clusterTrustBundle !== undefined)),
    drop: (spec) => { for (const v of list(spec.volumes)) for (const s of list(v.projected?.sources)) delete s.clusterTrustBundle; },
  },
];

/** Drops from `spec` (in place) the gated-off fields `old` (the stored spec, on an update) does not use. */
export function dropDisabledPodFields(spec: KubeObject, old?: KubeObject): void {
  for (const g of GATED) if (g.inUse(spec) && !(old && g.inUse(old))) g.drop(spec);
}
