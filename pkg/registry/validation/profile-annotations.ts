// The deprecated seccomp and AppArmor annotations' shared vocabulary (upstream's v1.SeccompProfileRuntimeDefault,
// DeprecatedAppArmorBetaProfile*): `unconfined`, `runtime/default` (seccomp also takes `docker/default`) and
// `localhost/<profile>`, each standing for a securityContext profile field of that type.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden } from '../../apimachinery/field.js';

export const PROFILE_UNCONFINED = 'unconfined';
export const PROFILE_RUNTIME_DEFAULT = 'runtime/default';
/** Seccomp's older name for the runtime's default. */
export const PROFILE_DOCKER_DEFAULT = 'docker/default';
export const PROFILE_LOCALHOST_PREFIX = 'localhost/';

export type ProfileKind = 'seccomp' | 'apparmor';

/** The annotation a profile field stands for (SeccompAnnotationForField, appArmorAnnotationForField); '' for none. */
export function annotationForProfile(profile: KubeObject): string {
  switch (profile.type) {
    case 'Unconfined': return PROFILE_UNCONFINED;
    case 'RuntimeDefault': return PROFILE_RUNTIME_DEFAULT;
    case 'Localhost': return typeof profile.localhostProfile === 'string' ? PROFILE_LOCALHOST_PREFIX + profile.localhostProfile : '';
    default: return '';
  }
}

/**
 * Upstream's annotation-and-field match on a pod's create: the cause, at `path` (the field's), when `annotation` says
 * otherwise than `profile`; none for an unknown type (the field's own validation refuses it).
 */
export function profileMismatch(kind: ProfileKind, annotation: string, profile: KubeObject, path: string): StatusCause | undefined {
  const typeMismatch = (): StatusCause => forbidden(`${path}.type`, `${kind} type in annotation and field must match`);
  switch (profile.type) {
    case 'Unconfined': return annotation === PROFILE_UNCONFINED ? undefined : typeMismatch();
    case 'RuntimeDefault':
      return annotation === PROFILE_RUNTIME_DEFAULT || (kind === 'seccomp' && annotation === PROFILE_DOCKER_DEFAULT) ? undefined : typeMismatch();
    case 'Localhost':
      if (!annotation.startsWith(PROFILE_LOCALHOST_PREFIX)) return typeMismatch();
      return typeof profile.localhostProfile === 'string' && annotation.slice(PROFILE_LOCALHOST_PREFIX.length) === profile.localhostProfile
        ? undefined : forbidden(`${path}.localhostProfile`, `${kind} profile in annotation and field must match`);
    default: return undefined;
  }
}
