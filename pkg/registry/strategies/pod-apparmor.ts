// A new pod's AppArmor annotations and fields, kept in step for kubelets of either kind (upstream 1.32:
// applyAppArmorVersionSkew in pkg/registry/core/pod/strategy.go, run by PrepareForCreate; Windows pods are left
// alone). Per container: without the annotation, the container's profile (or else the pod's) is written to it; with
// the annotation and no container profile, a valid profile it names is copied to the container unless it is the
// pod's, and the annotation is warned of as deprecated whenever it was copied or named nothing valid. The warning is
// the pod's only one for these annotations (a template's come from pod-warnings.ts). Validation, which upstream runs
// after this step, holds each annotation to its field (validation/pod-apparmor-annotations.ts).
import { APPARMOR_CONTAINER_ANNOTATION_PREFIX } from '../../../api/core/v1/annotations.js';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import type { RequestContext } from '../context.js';
import { asObj, isObj } from '../validation/field-checks.js';
import { annotationForProfile, PROFILE_LOCALHOST_PREFIX as LOCALHOST_PREFIX, PROFILE_RUNTIME_DEFAULT, PROFILE_UNCONFINED } from '../validation/profile-annotations.js';
import { checkAppArmorProfile, eachContainer } from '../validation/pod-security.js';

interface Profile { type: string; localhostProfile?: string }

/** The valid profile an annotation names, if any. */
function profileFor(annotation: string): Profile | undefined {
  let profile: Profile | undefined;
  if (annotation === PROFILE_UNCONFINED) profile = { type: 'Unconfined' };
  else if (annotation === PROFILE_RUNTIME_DEFAULT) profile = { type: 'RuntimeDefault' };
  else if (annotation.startsWith(LOCALHOST_PREFIX) && annotation.length > LOCALHOST_PREFIX.length) {
    profile = { type: 'Localhost', localhostProfile: annotation.slice(LOCALHOST_PREFIX.length) };
  }
  const causes: StatusCause[] = [];
  checkAppArmorProfile(causes, profile, '');
  return causes.length ? undefined : profile;
}

const sameProfile = (a: Profile, b: KubeObject | undefined): boolean =>
  b !== undefined && a.type === b.type && a.localhostProfile === (b.localhostProfile ?? undefined);

export function applyAppArmorVersionSkew(pod: KubeObject, ctx: RequestContext): void {
  const spec = asObj(pod.spec);
  if (!spec || asObj(spec.os)?.name === 'windows') return;
  const podProfile = asObj(asObj(spec.securityContext)?.appArmorProfile);
  eachContainer(spec, 'spec', (c) => {
    const key = APPARMOR_CONTAINER_ANNOTATION_PREFIX + String(c.name ?? '');
    const annotations = asObj(pod.metadata?.annotations);
    const containerProfile = asObj(asObj(c.securityContext)?.appArmorProfile);
    const annotation = annotations?.[key];
    if (annotation === undefined) {
      const profile = containerProfile ?? podProfile;
      const value = profile ? annotationForProfile(profile) : '';
      if (value) ((pod.metadata ??= {}).annotations ??= {})[key] = value;
      return;
    }
    if (containerProfile) return;
    const profile = profileFor(String(annotation));
    if (profile && sameProfile(profile, podProfile)) return;
    if (profile) c.securityContext = { ...(isObj(c.securityContext) ? c.securityContext : {}), appArmorProfile: profile };
    ctx.warnings.push(`metadata.annotations[${key}]: deprecated since v1.30; use the "appArmorProfile" field instead`);
  });
}
