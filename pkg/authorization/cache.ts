// What authorizers read objects through: the apiserver's watch caches, injected (never the registry itself).
import type { KubeObject } from '../../api/types.js';

export interface ObjectCache {
  get(namespace: string | undefined, name: string): KubeObject | undefined;
  /** Every object, or those of one namespace. */
  list(namespace?: string): KubeObject[];
  /** Called after every change; returns the unsubscribe function. */
  subscribe(onChange: (obj: KubeObject, type: 'ADDED' | 'MODIFIED' | 'DELETED') => void): () => void;
  /** True while writes the store acknowledged may not have reached the cache yet. */
  stale(): boolean;
  /** Resolves once the cache holds every acknowledged write. */
  fresh(): Promise<void>;
}

export interface RbacCaches {
  roles: ObjectCache;
  roleBindings: ObjectCache;
  clusterRoles: ObjectCache;
  clusterRoleBindings: ObjectCache;
}
