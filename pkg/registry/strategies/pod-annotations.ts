// Pod annotations fixed at creation (upstream: ValidatePodSpecificAnnotationUpdates, for updates and status
// writes alike): a container's AppArmor profile, and the mirror annotation that makes a pod a static pod's mirror.
import { APPARMOR_CONTAINER_ANNOTATION_PREFIX, MIRROR_POD_ANNOTATION } from '../../../api/core/v1/annotations.js';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden } from '../../apimachinery/field.js';

const fixed = (key: string): string | undefined =>
  (key.startsWith(APPARMOR_CONTAINER_ANNOTATION_PREFIX) ? 'AppArmor annotations' : key === MIRROR_POD_ANNOTATION ? 'mirror pod annotation' : undefined);

export function validatePodAnnotationUpdates(pod: KubeObject, old: KubeObject): StatusCause[] {
  const now = pod.metadata?.annotations ?? {};
  const was = old.metadata?.annotations ?? {};
  const causes: StatusCause[] = [];
  for (const [key, value] of Object.entries(was)) {
    const what = fixed(key);
    if (what && (!Object.hasOwn(now, key) || now[key] !== value)) causes.push(forbidden(`metadata.annotations[${key}]`, `may not remove or update ${what}`));
  }
  for (const key of Object.keys(now)) {
    const what = fixed(key);
    if (what && !Object.hasOwn(was, key)) causes.push(forbidden(`metadata.annotations[${key}]`, `may not add ${what}`));
  }
  return causes;
}
