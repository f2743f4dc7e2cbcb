// Test helpers for the RBAC resolver and checks.
import type { KubeObject } from '../../../api/types.js';
import type { ObjectCache } from '../cache.js';

/** A watch cache stand-in: objects by namespace/name, and the change callbacks the real one calls. */
export function fakeCache(objects: KubeObject[]): ObjectCache & { put(o: KubeObject): void } {
  const subs = new Set<(o: KubeObject, t: 'ADDED' | 'MODIFIED' | 'DELETED') => void>();
  const key = (ns: string | undefined, name: string): string => `${ns ?? ''}/${name}`;
  const byKey = new Map(objects.map((o) => [key(o.metadata?.namespace, o.metadata!.name!), o]));
  return {
    get: (ns, name) => byKey.get(key(ns, name)),
    list: (ns) => [...byKey.values()].filter((o) => ns === undefined || o.metadata?.namespace === ns),
    subscribe: (cb) => { subs.add(cb); return () => subs.delete(cb); },
    stale: () => false,
    fresh: async () => {},
    put(o) {
      byKey.set(key(o.metadata?.namespace, o.metadata!.name!), o);
      subs.forEach((cb) => cb(o, 'MODIFIED'));
    },
  };
}
