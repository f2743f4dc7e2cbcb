// Storage keys: /registry/<group>/<resource>/<namespace>/<name>, core without a group segment,
// as upstream lays out etcd.
import type { ResourceType } from '../../api/types.js';

export const resourcePrefix = (rt: ResourceType): string => groupPrefix(rt.storageGroup ?? rt.group, rt.plural);

/** Where a group's resource is kept, whichever group serves it. */
export const groupPrefix = (group: string, plural: string): string => (group ? `/registry/${group}/${plural}/` : `/registry/${plural}/`);

/** The prefix of one namespace, or of everything when namespace is empty. */
export const listPrefix = (rt: ResourceType, namespace?: string): string =>
  rt.namespaced && namespace ? `${resourcePrefix(rt)}${namespace}/` : resourcePrefix(rt);

export const objectKey = (rt: ResourceType, namespace: string | undefined, name: string): string =>
  rt.namespaced ? `${resourcePrefix(rt)}${namespace}/${name}` : `${resourcePrefix(rt)}${name}`;

/** The namespace in an object key of `rt` ('' for a cluster-scoped resource): objectKey read back. */
export const namespaceOfKey = (rt: ResourceType, key: string): string => {
  if (!rt.namespaced) return '';
  const from = resourcePrefix(rt).length;
  return key.slice(from, key.indexOf('/', from));
};
