// The "Local" APIServices this apiserver registers itself, as upstream's kube-apiserver does: one per built-in
// group-version at start (cmd/kube-apiserver/app/aggregator.go: apiVersionPriorities, label "onstart"), and one per
// served version of every CRD, kept in step with the CRDs (pkg/controlplane/controller/crdregistration, label
// "true"). Their priorities order the groups in discovery.
import type { CustomResourceDefinition } from '../../../api/apiextensions/v1/index.js';
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

/** CRDs rank below every built-in group; versions of a group then sort kube-like, as upstream sets them. */
const CRD_PRIORITY: [number, number] = [1000, 100];

const local = (group: string, version: string, [groupPriorityMinimum, versionPriority]: [number, number], automanaged: string): APIService => ({
  apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
  metadata: { name: `${version}.${group}`, labels: { [AUTOMANAGED_LABEL]: automanaged } },
  spec: { group, version, groupPriorityMinimum, versionPriority },
});

/** One Local APIService per built-in group-version upstream has a priority for (upstream skips the others too). */
export const builtinApiServices = (builtin: GroupVersion[]): APIService[] =>
  builtin.flatMap((gv) => {
    const p = PRIORITIES[`${gv.group}/${gv.version}`];
    return p && gv.resources.length ? [local(gv.group, gv.version, p, 'onstart')] : [];
  });

/** One Local APIService per served version of the CRDs, by name. */
export const crdApiServices = (crds: CustomResourceDefinition[]): Map<string, APIService> => new Map(
  crds.flatMap((crd) => (crd.spec?.versions ?? []).filter((v) => v.served).map((v) => local(crd.spec.group, v.name, CRD_PRIORITY, 'true')))
    .map((a) => [a.metadata.name, a]),
);

/** The priority of a group with no APIService (a CRD's before its APIService is made). */
export const CRD_GROUP_PRIORITY = CRD_PRIORITY[0];
