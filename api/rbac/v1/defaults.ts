// rbac/v1 computed defaults (upstream pkg/apis/rbac/v1/defaults.go).
import type { Defaulter } from '../../types.js';
import { R } from './definitions.js';

const GROUP = 'rbac.authorization.k8s.io';

const binding: Defaulter = (o) => {
  if (o.roleRef && !o.roleRef.apiGroup) o.roleRef.apiGroup = GROUP;
};

// a ServiceAccount's group is "", which omitempty leaves out of what upstream stores and serves
const subject: Defaulter = (s) => {
  if (!s.apiGroup && (s.kind === 'User' || s.kind === 'Group')) s.apiGroup = GROUP;
};

export const defaulters: Record<string, Defaulter> = {
  [`${R}RoleBinding`]: binding,
  [`${R}ClusterRoleBinding`]: binding,
  [`${R}Subject`]: subject,
};
