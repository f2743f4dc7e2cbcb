// A pod's deprecated AppArmor annotations (container.apparmor.security.beta.kubernetes.io/<container>), as upstream
// 1.32 validates them: on every write of a pod or a pod template, each must name one of its containers and a profile
// (ValidateAppArmorPodAnnotations); on a pod's create, after PrepareForCreate kept annotations and fields in step,
// each must say what the container's field (or else the pod's) says (validateAppArmorAnnotationsAndFieldsMatchOnCreate).
import { APPARMOR_CONTAINER_ANNOTATION_PREFIX } from '../../../api/core/v1/annotations.js';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { asObj } from './field-checks.js';
import { eachContainer } from './pod-security.js';
import { PROFILE_LOCALHOST_PREFIX, PROFILE_RUNTIME_DEFAULT, PROFILE_UNCONFINED, profileMismatch } from './profile-annotations.js';

/** ValidateAppArmorPodAnnotations: `annotations` are at `path`, the containers in `spec`. */
export function validateAppArmorPodAnnotations(annotations: Record<string, unknown>, spec: KubeObject, path: string): StatusCause[] {
  const names = new Set<unknown>();
  eachContainer(spec, '', (c) => names.add(c.name));
  const causes: StatusCause[] = [];
  for (const [key, value] of Object.entries(annotations)) {
    if (!key.startsWith(APPARMOR_CONTAINER_ANNOTATION_PREFIX)) continue;
    const at = `${path}[${key}]`;
    const container = key.slice(APPARMOR_CONTAINER_ANNOTATION_PREFIX.length);
    if (!names.has(container)) causes.push(invalidValue(at, container, 'container not found'));
    // ValidateAppArmorProfileFormat: '' means none; any localhost/ name passes here
    const profile = String(value);
    if (profile !== '' && profile !== PROFILE_RUNTIME_DEFAULT && profile !== PROFILE_UNCONFINED && !profile.startsWith(PROFILE_LOCALHOST_PREFIX)) {
      causes.push(invalidValue(at, profile, `invalid AppArmor profile name: ${JSON.stringify(profile)}`));
    }
  }
  return causes;
}

/** validateAppArmorAnnotationsAndFieldsMatchOnCreate (not for Windows pods); errors are at the container's field. */
export function validateAppArmorAnnotationsMatchFields(annotations: Record<string, unknown>, spec: KubeObject, specPath: string): StatusCause[] {
  if (asObj(spec.os)?.name === 'windows') return [];
  const podProfile = asObj(asObj(spec.securityContext)?.appArmorProfile);
  const causes: StatusCause[] = [];
  eachContainer(spec, specPath, (c, path) => {
    const profile = asObj(asObj(c.securityContext)?.appArmorProfile) ?? podProfile;
    const key = APPARMOR_CONTAINER_ANNOTATION_PREFIX + String(c.name ?? '');
    if (!profile || !Object.hasOwn(annotations, key)) return;
    const cause = profileMismatch('apparmor', String(annotations[key]), profile, `${path}.securityContext.appArmorProfile`);
    if (cause) causes.push(cause);
  });
  return causes;
}
