// The "Local" APIServices of the built-in group-versions, made at start as upstream's kube-apiserver makes them
// (cmd/kube-apiserver/app/aggregator.go: apiVersionPriorities, and the autoregister controller's onstart label).
// Their priorities order the groups in discovery, as upstream's do.
import type { APIService } from '../../../api/apiregistration/v1/index.js';
import type { GroupVersion } from '../../../api/types.js';

/** group/version -> [groupPriorityMinimum, versionPriority], upstream's table for what mini-kube serves. */
const PRIORITIES: Record<string, [number, number]> = {
  '/v1': [18000, 1],
  'apiregistration.k8s.io/v1': [18000, 15],
  'apps/v1': [17800, 15],
  'events.k8s.io/v1': [17750, 15],
  'authentication.k8s.io/v1': [17700, 15],
  'authorization.k8s.io/v1': [17600, 15],
  'autoscaling/v1': [17500, 15],
  'autoscaling/v2': [17500, 30],
  'batch/v1': [17400, 15],
  'certificates.k8s.io/v1': [17300, 15],
  'networking.k8s.io/v1': [17200, 15],
  'policy/v1': [17100, 15],
  'policy/v1beta1': [17100, 9],
  'rbac.authorization.k8s.io/v1': [17000, 15],
  'storage.k8s.io/v1': [16800, 15],
  'admissionregistration.k8s.io/v1': [16700, 15],
  'apiextensions.k8s.io/v1': [16700, 15],
  'scheduling.k8s.io/v1': [16600, 15],
  'coordination.k8s.io/v1': [16500, 15],
  'node.k8s.io/v1': [16300, 15],
  'discovery.k8s.io/v1': [16200, 15],
  'flowcontrol.apiserver.k8s.io/v1': [16100, 21],
};

export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';

/** One Local APIService per built-in group-version upstream has a priority for (upstream skips the others too). */
export function localApiServices(builtin: GroupVersion[]): APIService[] {
  return builtin.flatMap((gv) => {
    const p = PRIORITIES[`${gv.group}/${gv.version}`];
    if (!p || gv.resources.length === 0) return [];
    return [{
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
      metadata: { name: `${gv.version}.${gv.group}`, labels: { [AUTOMANAGED_LABEL]: 'onstart' } },
      spec: { group: gv.group, version: gv.version, groupPriorityMinimum: p[0], versionPriority: p[1] },
    }];
  });
}
