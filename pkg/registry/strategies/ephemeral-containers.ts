// pods/ephemeralcontainers: containers are only ever added, never changed or removed, and carry none of the
// fields that would make a pod depend on them (upstream: ValidatePodEphemeralContainersUpdate and
// validateEphemeralContainers, an allow-list so that a new container field is forbidden until considered).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, notFound, required } from '../../apimachinery/field.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { MIRROR_POD_ANNOTATION } from '../../../api/core/v1/annotations.js';

const ALLOWED = new Set([
  'name', 'image', 'command', 'args', 'workingDir', 'env', 'envFrom', 'volumeMounts', 'volumeDevices',
  'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty',
  'targetContainerName',
]);
const NOT_FOR_EPHEMERAL = 'cannot be set for an Ephemeral Container';

type Container = Record<string, unknown> & { name?: string };

/** Go's zero value as JSON shows it: a client sending `resources: {}` has set nothing. */
const isZero = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || v === false || v === 0
  || (typeof v === 'object' && !Array.isArray(v) && Object.values(v).every(isZero));

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
  return validateEphemeralContainers(pod);
}

function validateEphemeralContainers(pod: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const regular = [...((pod.spec?.initContainers ?? []) as Container[]), ...((pod.spec?.containers ?? []) as Container[])].map((c) => c.name);
  const seen = new Set(regular);
  for (const [i, c] of ((pod.spec?.ephemeralContainers ?? []) as Container[]).entries()) {
    const at = `spec.ephemeralContainers[${i}]`;
    if (!c.name) causes.push(required(`${at}.name`));
    else if (seen.has(c.name)) causes.push(duplicate(`${at}.name`, c.name));
    else seen.add(c.name);
    if (!c.image) causes.push(required(`${at}.image`));
    for (const [field, value] of Object.entries(c)) {
      if (!ALLOWED.has(field) && !isZero(value)) causes.push(forbidden(`${at}.${field}`, NOT_FOR_EPHEMERAL));
    }
    for (const [j, m] of ((c.volumeMounts ?? []) as { subPath?: string }[]).entries()) {
      if (m.subPath) causes.push(forbidden(`${at}.volumeMounts[${j}].subPath`, NOT_FOR_EPHEMERAL));
    }
    const target = c.targetContainerName as string | undefined;
    if (target !== undefined && target !== '' && !regular.includes(target)) causes.push(notFound(`${at}.targetContainerName`, target));
  }
  return causes;
}
