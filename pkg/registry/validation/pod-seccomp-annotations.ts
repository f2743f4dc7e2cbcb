// A pod's deprecated seccomp annotations (seccomp.security.alpha.kubernetes.io/pod and
// container.seccomp.security.alpha.kubernetes.io/<container>), as upstream 1.32 validates them: on every write of a
// pod or a pod template, each must name a profile (ValidateSeccompPodAnnotations); on a pod's create, each must say
// what the seccompProfile field it stands for says, where that field is set (validateSeccompAnnotationsAndFields).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { asObj, checkLocalDescendingPath } from './field-checks.js';
import { eachContainer } from './pod-security.js';
import { PROFILE_DOCKER_DEFAULT, PROFILE_LOCALHOST_PREFIX, PROFILE_RUNTIME_DEFAULT, PROFILE_UNCONFINED, profileMismatch } from './profile-annotations.js';
import { SECCOMP_CONTAINER_ANNOTATION_PREFIX, SECCOMP_POD_ANNOTATION } from '../../../api/core/v1/annotations.js';

/** ValidateSeccompProfile: a known profile, or a localhost one relative to the kubelet's seccomp directory. */
function checkSeccompProfileName(causes: StatusCause[], profile: string, path: string): void {
  if (profile === PROFILE_RUNTIME_DEFAULT || profile === PROFILE_DOCKER_DEFAULT || profile === PROFILE_UNCONFINED) return;
  if (profile.startsWith(PROFILE_LOCALHOST_PREFIX)) checkLocalDescendingPath(causes, path, profile.slice(PROFILE_LOCALHOST_PREFIX.length));
  else causes.push(invalidValue(path, profile, 'must be a valid seccomp profile'));
}

/** ValidateSeccompPodAnnotations: the pod's annotation first; each at `path`.<key> (a child, not a [key]). */
export function validateSeccompPodAnnotations(annotations: Record<string, unknown>, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (Object.hasOwn(annotations, SECCOMP_POD_ANNOTATION)) checkSeccompProfileName(causes, String(annotations[SECCOMP_POD_ANNOTATION]), `${path}.${SECCOMP_POD_ANNOTATION}`);
  for (const [key, value] of Object.entries(annotations)) {
    if (key.startsWith(SECCOMP_CONTAINER_ANNOTATION_PREFIX)) checkSeccompProfileName(causes, String(value), `${path}.${key}`);
  }
  return causes;
}

/**
 * validateSeccompAnnotationsAndFields (a pod's create, Windows pods too): the pod's annotation against the pod's
 * field, then each container's against the container's own field (a container without one is not checked).
 */
export function validateSeccompAnnotationsMatchFields(annotations: Record<string, unknown>, spec: KubeObject, specPath: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const check = (key: string, profile: KubeObject | undefined, path: string): void => {
    if (!profile || !Object.hasOwn(annotations, key)) return;
    const cause = profileMismatch('seccomp', String(annotations[key]), profile, `${path}.seccompProfile`);
    if (cause) causes.push(cause);
  };
  check(SECCOMP_POD_ANNOTATION, asObj(asObj(spec.securityContext)?.seccompProfile), `${specPath}.securityContext`);
  eachContainer(spec, specPath, (c, path) => {
    check(SECCOMP_CONTAINER_ANNOTATION_PREFIX + String(c.name ?? ''), asObj(asObj(c.securityContext)?.seccompProfile), `${path}.securityContext`);
  });
  return causes;
}
