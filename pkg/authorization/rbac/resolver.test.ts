import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import type { ObjectCache } from '../cache.js';
import { rbacAuthorizer } from './authorizer.js';
import { RbacResolver } from './resolver.js';

/** A watch cache stand-in: objects by namespace/name, and the change callbacks the real one calls. */
function fakeCache(objects: KubeObject[]): ObjectCache & { put(o: KubeObject): void } {
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

const role = (verbs: string[]): KubeObject => ({ metadata: { name: 'r', namespace: 'ns' }, rules: [{ verbs, apiGroups: [''], resources: ['configmaps'] }] });

describe('RBAC resolution cache', () => {
  it('keeps a user\'s resolved rules until a role or binding changes', async () => {
    const roles = fakeCache([role(['get'])]);
    const roleBindings = fakeCache([{ metadata: { name: 'b', namespace: 'ns' }, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'u' }] }]);
    const resolver = new RbacResolver({ roles, roleBindings, clusterRoles: fakeCache([]), clusterRoleBindings: fakeCache([]) });
    const authz = rbacAuthorizer(resolver);
    const user = { name: 'u', groups: ['system:authenticated'] };
    const ask = (verb: string) => authz.authorize({ user, verb, isResourceRequest: true, path: '', namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'configmaps', subresource: '', name: '' });
    expect(await ask('get')).toEqual({ decision: 'allow', reason: 'RBAC: allowed by RoleBinding "b/ns" of Role "r" to User "u"' });
    expect(resolver.resolve(user, 'ns')).toBe(resolver.resolve(user, 'ns'));
    expect((await ask('create')).decision).toBe('noopinion');
    roles.put(role(['get', 'create']));
    expect((await ask('create')).decision).toBe('allow');
    roleBindings.put({ metadata: { name: 'b', namespace: 'ns' }, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'someone-else' }] });
    expect((await ask('get')).decision).toBe('noopinion');
    resolver.stop();
  });
});
