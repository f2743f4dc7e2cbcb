import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { rbacAuthorizer } from './authorizer.js';
import { RbacResolver } from './resolver.js';
import { fakeCache } from './testing.js';

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
