// --allow-privileged=false (kube-apiserver's default; upstream: capabilities.AllowPrivileged, checked by the pod spec
// validation of every kind that carries one): no container of a pod or pod template may be privileged or a Windows
// host process. kubeadm, kind and `mini-kube up` turn it on.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';

/** Where each built-in kind keeps its pod spec (group/plural → path). */
const POD_SPEC_PATHS: Record<string, readonly string[]> = {
  '/pods': ['spec'],
  '/podtemplates': ['template', 'spec'],
  '/replicationcontrollers': ['spec', 'template', 'spec'],
  'apps/deployments': ['spec', 'template', 'spec'],
  'apps/replicasets': ['spec', 'template', 'spec'],
  'apps/statefulsets': ['spec', 'template', 'spec'],
  'apps/daemonsets': ['spec', 'template', 'spec'],
  'batch/jobs': ['spec', 'template', 'spec'],
  'batch/cronjobs': ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

const hostProcess = (securityContext: KubeObject | undefined): boolean => securityContext?.windowsOptions?.hostProcess === true;

/** The causes upstream's validation gives a pod spec at `path` when privileged containers are not allowed. */
export function privilegedCauses(spec: KubeObject | undefined, path: string): StatusCause[] {
  if (!spec) return [];
  const causes: StatusCause[] = [];
  let anyHostProcess = hostProcess(spec.securityContext);
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c: KubeObject, i: number) => {
      if (c?.securityContext?.privileged === true) {
        causes.push(forbidden(`${path}.${list}[${i}].securityContext.privileged`, 'disallowed by cluster policy'));
      }
      anyHostProcess ||= hostProcess(c?.securityContext);
    });
  }
  if (anyHostProcess) causes.push(forbidden(path, 'hostProcess containers are disallowed by cluster policy'));
  return causes;
}

const at = (obj: KubeObject, path: readonly string[]): KubeObject | undefined =>
  path.reduce<KubeObject | undefined>((o, k) => (o && typeof o === 'object' ? o[k] : undefined), obj);

/** `base` with the check added to creates, updates and pods/ephemeralcontainers; `base` itself for kinds without a pod spec. */
export function withoutPrivileged(key: string, base: Strategy): Strategy {
  const path = POD_SPEC_PATHS[key];
  if (!path) return base;
  const field = path.join('.');
  const check = (obj: KubeObject): StatusCause[] => privilegedCauses(at(obj, path), field);
  const strategy: Strategy = { ...base, validate: (obj, ctx) => [...(base.validate?.(obj, ctx) ?? []), ...check(obj)] };
  // `validate` guards updates too, unless the kind's update validation stands alone
  if (base.updateValidationIsComplete) strategy.validateUpdate = (obj, old, ctx) => [...(base.validateUpdate?.(obj, old, ctx) ?? []), ...check(obj)];
  if (key === '/pods') {
    strategy.validateSubresource = (obj, old, ctx, subresource) => [
      ...(base.validateSubresource?.(obj, old, ctx, subresource) ?? []),
      ...(subresource === 'ephemeralcontainers' ? check(obj) : []),
    ];
  }
  return strategy;
}
