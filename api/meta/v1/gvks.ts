// The group-versions that share the meta kinds (DeleteOptions, WatchEvent) in a 1.32 apiserver's OpenAPI.
import type { GroupVersionKind } from '../../schema.js';

const SHARED_GROUP_VERSIONS: [string, string][] = [
  ['', 'v1'], ['admission.k8s.io', 'v1'], ['admissionregistration.k8s.io', 'v1'], ['apiextensions.k8s.io', 'v1'],
  ['apiregistration.k8s.io', 'v1'], ['apps', 'v1'], ['authentication.k8s.io', 'v1'], ['authorization.k8s.io', 'v1'],
  ['autoscaling', 'v1'], ['autoscaling', 'v2'], ['batch', 'v1'], ['certificates.k8s.io', 'v1'],
  ['coordination.k8s.io', 'v1'], ['discovery.k8s.io', 'v1'], ['events.k8s.io', 'v1'],
  ['flowcontrol.apiserver.k8s.io', 'v1'], ['networking.k8s.io', 'v1'], ['node.k8s.io', 'v1'], ['policy', 'v1'],
  ['rbac.authorization.k8s.io', 'v1'], ['scheduling.k8s.io', 'v1'], ['storage.k8s.io', 'v1'],
];

/** One GVK per shared group-version for a meta kind. */
export const sharedGvks = (kind: string): GroupVersionKind[] =>
  SHARED_GROUP_VERSIONS.map(([group, version]) => ({ group, version, kind }));
