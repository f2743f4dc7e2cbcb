import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { rbacAuthorizer } from './authorizer.js';
import { escalationCheck, type RbacWrite } from './escalation.js';
import { RbacResolver } from './resolver.js';
import { fakeCache } from './testing.js';

const GROUP = 'rbac.authorization.k8s.io';
const jane = { name: 'jane', groups: ['system:authenticated'] };
const secretsReader: KubeObject = { metadata: { name: 'secrets', namespace: 'ns' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }] };
const binding: KubeObject = { metadata: { name: 'b', namespace: 'ns' }, roleRef: { apiGroup: GROUP, kind: 'Role', name: 'secrets' }, subjects: [{ kind: 'User', name: 'x' }] };
// jane may write roles and bindings in ns, and holds nothing else
const writer: KubeObject = {
  metadata: { name: 'writer' },
  rules: [{ verbs: ['create', 'update', 'patch'], apiGroups: [GROUP], resources: ['roles', 'rolebindings', 'clusterroles'] }],
};
const writerBinding: KubeObject = {
  metadata: { name: 'jane-writer' }, roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'writer' }, subjects: [{ kind: 'User', name: 'jane' }],
};

function setup(): { check: (w: Partial<RbacWrite> & Pick<RbacWrite, 'operation' | 'object'>, plural: string) => Promise<unknown> } {
  const resolver = new RbacResolver({
    roles: fakeCache([secretsReader]),
    roleBindings: fakeCache([]),
    clusterRoles: fakeCache([writer]),
    clusterRoleBindings: fakeCache([writerBinding]),
  });
  const authorizer = rbacAuthorizer(resolver);
  const esc = escalationCheck(resolver, () => authorizer);
  return {
    check: async (w, plural) => {
      try {
        await esc.validate({ resource: { group: GROUP, plural }, namespace: plural.startsWith('cluster') ? undefined : 'ns', name: w.object!.metadata!.name!, user: jane, ...w });
        return undefined;
      } catch (err) {
        return err;
      }
    },
  };
}

const labelled = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, labels: { foo: 'bar' } } });
const gcOnly = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, finalizers: ['x'], ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u' }] } });

describe('RBAC escalation checks', () => {
  it('check an update that changes only metadata, and let through one that changes only GC fields', async () => {
    const { check } = setup();
    const err = await check({ operation: 'UPDATE', object: labelled(secretsReader), oldObject: secretsReader }, 'roles');
    expect(err).toMatchObject({ code: 403, message: expect.stringContaining('roles.rbac.authorization.k8s.io "secrets" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}') });
    expect(await check({ operation: 'UPDATE', object: gcOnly(secretsReader), oldObject: secretsReader }, 'roles')).toBeUndefined();

    expect(await check({ operation: 'UPDATE', object: labelled(binding), oldObject: binding }, 'rolebindings')).toMatchObject({ code: 403 });
    expect(await check({ operation: 'UPDATE', object: gcOnly(binding), oldObject: binding }, 'rolebindings')).toBeUndefined();
  });

  it('answer a binding to a missing role with the registry\'s 404', async () => {
    const { check } = setup();
    const toMissing = { ...binding, roleRef: { apiGroup: GROUP, kind: 'Role', name: 'nope' } };
    expect(await check({ operation: 'CREATE', object: toMissing }, 'rolebindings')).toMatchObject({
      code: 404, reason: 'NotFound', message: 'roles.rbac.authorization.k8s.io "nope" not found',
    });
    const toMissingCluster = { metadata: { name: 'cb' }, roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'nope' }, subjects: [] };
    expect(await check({ operation: 'CREATE', object: toMissingCluster }, 'clusterrolebindings')).toMatchObject({
      code: 404, message: 'clusterroles.rbac.authorization.k8s.io "nope" not found',
    });
  });

  it('check the rules of an aggregating ClusterRole before asking for cluster-admin', async () => {
    const { check } = setup();
    const aggregationRule = { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] };
    const escalating = { metadata: { name: 'agg' }, aggregationRule, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }] };
    expect(await check({ operation: 'CREATE', object: escalating }, 'clusterroles')).toMatchObject({ message: expect.stringContaining('is attempting to grant RBAC permissions not currently held') });
    const empty = { metadata: { name: 'agg' }, aggregationRule, rules: [] };
    expect(await check({ operation: 'CREATE', object: empty }, 'clusterroles')).toMatchObject({
      message: 'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    });
    // removing the rule is as much a change of it
    const plain = { metadata: { name: 'agg' }, rules: [] };
    expect(await check({ operation: 'UPDATE', object: plain, oldObject: empty }, 'clusterroles')).toMatchObject({ code: 403 });
    expect(await check({ operation: 'CREATE', object: { ...plain, aggregationRule: { clusterRoleSelectors: [] } } }, 'clusterroles')).toBeUndefined();
  });
});
