// The claims a pod's volumes use, as upstream's volume plugins read them: a persistentVolumeClaim volume names its
// claim; a generic ephemeral volume uses the claim `<pod>-<volume>` its controller creates.
import type { Pod } from './types.js';

export interface PodClaim { name: string; ephemeral: boolean }

const cache = new WeakMap<object, PodClaim[]>();

export const podClaims = (pod: Pod): PodClaim[] => {
  let claims = cache.get(pod);
  if (!claims) {
    claims = [];
    for (const v of (pod.spec?.volumes ?? []) as { name: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown }[]) {
      if (v.persistentVolumeClaim?.claimName) claims.push({ name: v.persistentVolumeClaim.claimName, ephemeral: false });
      else if (v.ephemeral) claims.push({ name: `${pod.metadata?.name}-${v.name}`, ephemeral: true });
    }
    cache.set(pod, claims);
  }
  return claims;
};

/** "namespace/claim" of each claim the pod uses. */
export const podClaimKeys = (pod: Pod): string[] => podClaims(pod).map((c) => `${pod.metadata?.namespace ?? ''}/${c.name}`);
