// The profile strategies a PodSecurityPolicy sets by annotation (upstream 1.24: pkg/security/podsecuritypolicy/
// seccomp and apparmor). Seccomp: `seccomp.security.alpha.kubernetes.io/defaultProfileName` is given to pods that
// name no profile, `.../allowedProfileNames` (comma list, `*` for any) bounds what the pod and each container run
// with, read from the securityContext.seccompProfile fields or the pod's seccomp annotations. AppArmor:
// `apparmor.security.beta.kubernetes.io/defaultProfileName` is given to each container without a profile annotation,
// `.../allowedProfileNames` bounds them (absent: anything goes).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden } from '../../apimachinery/field.js';
import type { Container } from '../pod-helpers.js';
import { APPARMOR_CONTAINER_ANNOTATION_PREFIX, SECCOMP_CONTAINER_ANNOTATION_PREFIX, SECCOMP_POD_ANNOTATION } from '../../../api/core/v1/annotations.js';

const SECCOMP_DEFAULT = 'seccomp.security.alpha.kubernetes.io/defaultProfileName';
const SECCOMP_ALLOWED = 'seccomp.security.alpha.kubernetes.io/allowedProfileNames';
const APPARMOR_DEFAULT = 'apparmor.security.beta.kubernetes.io/defaultProfileName';
const APPARMOR_ALLOWED = 'apparmor.security.beta.kubernetes.io/allowedProfileNames';
const ALLOW_ANY = '*';

type SeccompProfile = { type?: string; localhostProfile?: string };
type Annotations = Record<string, string>;

/** The annotation value a seccompProfile field stands for (upstream's SeccompAnnotationForField); '' when none. */
export function seccompAnnotationForField(p: SeccompProfile | undefined): string {
  switch (p?.type) {
    case 'Unconfined': return 'unconfined';
    case 'RuntimeDefault': return 'runtime/default';
    case 'Localhost': return p.localhostProfile ? `localhost/${p.localhostProfile}` : '';
    default: return '';
  }
}

/** The field an annotation value stands for (the pod strategy's version skew, annotation to field); undefined when none. */
function seccompFieldForAnnotation(value: string): SeccompProfile | undefined {
  if (value === 'unconfined') return { type: 'Unconfined' };
  if (value === 'runtime/default' || value === 'docker/default') return { type: 'RuntimeDefault' };
  if (value.startsWith('localhost/')) return { type: 'Localhost', localhostProfile: value.slice('localhost/'.length) };
  return undefined;
}

const annotationPath = (key: string): string => `pod.metadata.annotations[${key}]`;
const annotationsOf = (pod: KubeObject): Annotations => (pod.metadata?.annotations ?? {}) as Annotations;

/** The pod's profile: its annotation, else its securityContext field. */
const podSeccompProfile = (pod: KubeObject): string =>
  annotationsOf(pod)[SECCOMP_POD_ANNOTATION] || seccompAnnotationForField(pod.spec?.securityContext?.seccompProfile);

/** A container's profile: its field, its annotation, then the pod's field and annotation (upstream's order). */
function containerSeccompProfile(pod: KubeObject, c: Container): string {
  if (c.securityContext?.seccompProfile) return seccompAnnotationForField(c.securityContext.seccompProfile as SeccompProfile);
  const own = annotationsOf(pod)[SECCOMP_CONTAINER_ANNOTATION_PREFIX + c.name];
  if (own !== undefined) return own;
  if (pod.spec?.securityContext?.seccompProfile) return seccompAnnotationForField(pod.spec.securityContext.seccompProfile);
  return annotationsOf(pod)[SECCOMP_POD_ANNOTATION] ?? '';
}

export interface ProfileStrategies {
  /** Defaults the pod's seccomp profile (pod level: containers inherit it) and each container's AppArmor profile. */
  mutatePod(pod: KubeObject, containers: Container[]): void;
  validatePod(pod: KubeObject): StatusCause[];
  validateContainer(pod: KubeObject, c: Container): StatusCause[];
}

export function profileStrategies(pspAnnotations: Annotations): ProfileStrategies {
  const seccompDefault = pspAnnotations[SECCOMP_DEFAULT] ?? '';
  const seccompAllowedString = pspAnnotations[SECCOMP_ALLOWED];
  const seccompList = seccompAllowedString === undefined ? [] : seccompAllowedString.split(',');
  const seccompAny = seccompList.includes(ALLOW_ANY);
  const seccompAllowed = new Set(seccompList.filter((p) => p !== ALLOW_ANY));
  const appArmorDefault = pspAnnotations[APPARMOR_DEFAULT] ?? '';
  const appArmorAllowedString = pspAnnotations[APPARMOR_ALLOWED];
  const appArmorAllowed = appArmorAllowedString === undefined ? undefined : new Set(appArmorAllowedString.split(','));

  const validateSeccomp = (key: string, profile: string): StatusCause[] => {
    if (!seccompAny && seccompAllowed.size === 0) return profile ? [forbidden(annotationPath(key), 'seccomp may not be set')] : [];
    // Without a list, an empty profile (the runtime's default) is fine.
    if (seccompAny || seccompAllowed.has(profile)) return [];
    return [forbidden(annotationPath(key), `${profile} is not an allowed seccomp profile. Valid values are ${seccompAllowedString ?? ''}`)];
  };

  return {
    mutatePod(pod, containers) {
      const annotations = annotationsOf(pod);
      const psc = pod.spec?.securityContext as { seccompProfile?: SeccompProfile } | undefined;
      const seccomp = annotations[SECCOMP_POD_ANNOTATION] || seccompAnnotationForField(psc?.seccompProfile) || seccompDefault;
      const added: Annotations = {};
      if (seccomp) {
        added[SECCOMP_POD_ANNOTATION] = seccomp;
        // Upstream's pod strategy then gives the field the annotation's value (version skew); ours does not, so here.
        const field = psc?.seccompProfile ? undefined : seccompFieldForAnnotation(seccomp);
        if (field) ((pod.spec ??= {}).securityContext ??= {}).seccompProfile = field;
      }
      if (appArmorDefault) {
        for (const c of containers) {
          const key = APPARMOR_CONTAINER_ANNOTATION_PREFIX + c.name;
          if (!annotations[key]) added[key] = appArmorDefault;
        }
      }
      if (Object.entries(added).some(([k, v]) => annotations[k] !== v)) pod.metadata = { ...pod.metadata, annotations: { ...annotations, ...added } };
    },
    validatePod: (pod) => validateSeccomp(SECCOMP_POD_ANNOTATION, podSeccompProfile(pod)),
    validateContainer(pod, c) {
      const errs: StatusCause[] = [];
      if (appArmorAllowed) {
        const key = APPARMOR_CONTAINER_ANNOTATION_PREFIX + c.name;
        const profile = annotationsOf(pod)[key] ?? '';
        if (!profile) {
          if (appArmorAllowed.size > 0) errs.push(forbidden(annotationPath(key), 'AppArmor profile must be set'));
        } else if (!appArmorAllowed.has(profile)) {
          errs.push(forbidden(annotationPath(key), `${profile} is not an allowed profile. Allowed values: ${JSON.stringify(appArmorAllowedString)}`));
        }
      }
      errs.push(...validateSeccomp(SECCOMP_CONTAINER_ANNOTATION_PREFIX + c.name, containerSeccompProfile(pod, c)));
      return errs;
    },
  };
}
