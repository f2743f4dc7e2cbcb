import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

const { definitions, defaulters } = groupVersion;
const R = 'io.k8s.api.rbac.v1.';

describe('rbac/v1', () => {
  it('references only known definitions', () => {
    expect(danglingRefs(definitions, { ...meta, ...definitions })).toEqual([]);
  });

  it('defaults roleRef.apiGroup and subject apiGroups by kind', () => {
    const rb: Record<string, any> = { roleRef: { kind: 'Role', name: 'r' } };
    defaulters![`${R}RoleBinding`](rb);
    expect(rb.roleRef.apiGroup).toBe('rbac.authorization.k8s.io');
    const subjects = [{ kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 's' }, { kind: 'Group', name: 'g', apiGroup: 'x' }];
    for (const s of subjects) defaulters![`${R}Subject`](s);
    expect(subjects.map((s) => s.apiGroup)).toEqual(['rbac.authorization.k8s.io', undefined, 'x']);
  });

  it('serves cluster-scoped clusterroles and namespaced roles with plural names', () => {
    const plurals = groupVersion.resources.map((r) => `${r.plural}:${r.namespaced}`);
    expect(plurals).toEqual(['clusterrolebindings:false', 'clusterroles:false', 'rolebindings:true', 'roles:true']);
  });
});
