// --allow-privileged=false (kube-apiserver's default; upstream: capabilities.AllowPrivileged, checked by the pod spec
// validation of every kind that carries one, see pod-spec-kinds.ts): no container of a pod or pod template may be
// privileged or a Windows host process. kubeadm, kind and `mini-kube up` turn it on.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden } from '../../apimachinery/field.js';

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
