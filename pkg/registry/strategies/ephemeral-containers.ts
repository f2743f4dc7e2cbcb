// pods/ephemeralcontainers: containers are only ever added, never changed or removed, and not to static pods
// (upstream: ValidatePodEphemeralContainersUpdate).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden } from '../../apimachinery/field.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { MIRROR_POD_ANNOTATION } from '../../../api/core/v1/annotations.js';

type Container = Record<string, unknown> & { name?: string };

/** The update's own rules; the containers themselves are checked with the pod spec (validation/container.ts). */
export function validateEphemeralContainersUpdate(pod: KubeObject, old: KubeObject): StatusCause[] {
  if (old.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return [forbidden('', 'static pods do not support ephemeral containers')];
  const next = (pod.spec?.ephemeralContainers ?? []) as Container[];
  const before = (old.spec?.ephemeralContainers ?? []) as Container[];
  const byName = new Map(next.map((c) => [c.name, c]));
  for (const c of before) {
    const now = byName.get(c.name);
    if (!now) return [forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(c.name)} may not be removed`)];
    if (!jsonEqual(now, c)) return [forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(c.name)} may not be changed`)];
  }
  return [];
}
