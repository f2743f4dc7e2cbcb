// rbac/v1 computed defaults (upstream pkg/apis/rbac/v1/defaults.go).
import type { Defaulter } from '../../types.js';
import { R } from './definitions.js';

const GROUP = 'rbac.authorization.k8s.io';

const binding: Defaulter = (o) => {
  if (o.roleRef && !o.roleRef.apiGroup) o.roleRef.apiGroup = GROUP;
};

const subject: Defaulter = (s) => {
  if (s.apiGroup) return;
  if (s.kind === 'ServiceAccount') s.apiGroup = '';
  else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = GROUP;
};

export const defaulters: Record<string, Defaulter> = {
  [`${R}RoleBinding`]: binding,
  [`${R}ClusterRoleBinding`]: binding,
  [`${R}Subject`]: subject,
};
