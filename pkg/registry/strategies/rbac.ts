// Roles, ClusterRoles and their bindings (upstream: pkg/registry/rbac/*/strategy.go and
// pkg/apis/rbac/validation): names are path segments (`system:node` is fine), a binding's roleRef
// cannot change, and a ClusterRole's rules stay with it. The escalation checks live with authorization
// (pkg/authorization/rbac/escalation.ts), run as a validating step before the write.
import type { KubeObject } from '../../../api/types.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { nameIsPathSegment } from '../../apimachinery/names.js';
import type { Strategy } from '../strategy.js';
import { goQuote, goStringSlice, goStruct, invalidRendered } from '../validation/go-values.js';

const RBAC = 'rbac.authorization.k8s.io';
const SUBJECT_KINDS = ['User', 'Group', 'ServiceAccount'];

function validateBinding(obj: KubeObject, namespaced: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const ref = (obj.roleRef ?? {}) as Record<string, string | undefined>;
  if (ref.apiGroup !== RBAC) causes.push(fieldCause('FieldValueNotSupported', 'roleRef.apiGroup', `Unsupported value: "${ref.apiGroup ?? ''}": supported values: "${RBAC}"`));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind ?? '')) causes.push(fieldCause('FieldValueNotSupported', 'roleRef.kind', `Unsupported value: "${ref.kind ?? ''}": supported values: ${kinds.map((k) => `"${k}"`).join(', ')}`));
  if (!ref.name) causes.push(fieldCause('FieldValueRequired', 'roleRef.name', 'Required value'));
  ((obj.subjects ?? []) as Array<Record<string, string | undefined>>).forEach((s, i) => {
    const f = `subjects[${i}]`;
    if (!s.name) causes.push(fieldCause('FieldValueRequired', `${f}.name`, 'Required value'));
    if (!SUBJECT_KINDS.includes(s.kind ?? '')) {
      causes.push(fieldCause('FieldValueNotSupported', `${f}.kind`, `Unsupported value: "${s.kind ?? ''}": supported values: "ServiceAccount", "User", "Group"`));
    } else if (s.kind === 'ServiceAccount') {
      if (s.apiGroup) causes.push(fieldCause('FieldValueNotSupported', `${f}.apiGroup`, `Unsupported value: "${s.apiGroup}": supported values: ""`));
      if (!namespaced && !s.namespace) causes.push(fieldCause('FieldValueRequired', `${f}.namespace`, 'Required value'));
    } else if (s.apiGroup !== RBAC) {
      causes.push(fieldCause('FieldValueNotSupported', `${f}.apiGroup`, `Unsupported value: "${s.apiGroup ?? ''}": supported values: "${RBAC}"`));
    }
  });
  return causes;
}

function validateRules(obj: KubeObject, namespaced: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  ((obj.rules ?? []) as Array<Record<string, string[] | undefined>>).forEach((r, i) => {
    const f = `rules[${i}]`;
    if (!r.verbs?.length) causes.push(fieldCause('FieldValueRequired', `${f}.verbs`, 'Required value: verbs must contain at least one value'));
    if (r.nonResourceURLs?.length) {
      if (namespaced) causes.push(fieldCause('FieldValueInvalid', `${f}.nonResourceURLs`, `Invalid value: ${goStringSlice(r.nonResourceURLs)}: namespaced rules cannot apply to non-resource URLs`));
      if (r.apiGroups?.length || r.resources?.length || r.resourceNames?.length) {
        causes.push(fieldCause('FieldValueInvalid', `${f}.nonResourceURLs`, `Invalid value: ${goStringSlice(r.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`));
      }
    } else {
      if (!r.apiGroups?.length) causes.push(fieldCause('FieldValueRequired', `${f}.apiGroups`, 'Required value: resource rules must supply at least one api group'));
      if (!r.resources?.length) causes.push(fieldCause('FieldValueRequired', `${f}.resources`, 'Required value: resource rules must supply at least one resource'));
    }
  });
  return causes;
}

/** The internal rbac.RoleRef as field.Invalid prints it (%#v). */
const goRoleRef = (ref: { apiGroup?: string; kind?: string; name?: string } | undefined): string =>
  goStruct('rbac.RoleRef', [['APIGroup', goQuote(ref?.apiGroup ?? '')], ['Kind', goQuote(ref?.kind ?? '')], ['Name', goQuote(ref?.name ?? '')]]);

const immutableRoleRef = (obj: KubeObject, old: KubeObject): StatusCause[] =>
  JSON.stringify(obj.roleRef) === JSON.stringify(old.roleRef) ? [] : [invalidRendered('roleRef', goRoleRef(obj.roleRef), 'cannot change roleRef')];

export const roleStrategy: Strategy = { nameFn: nameIsPathSegment, validate: (o) => validateRules(o, true) };
export const clusterRoleStrategy: Strategy = { nameFn: nameIsPathSegment, validate: (o) => validateRules(o, false) };
export const roleBindingStrategy: Strategy = {
  nameFn: nameIsPathSegment,
  validate: (o) => validateBinding(o, true),
  validateUpdate: immutableRoleRef,
};
export const clusterRoleBindingStrategy: Strategy = {
  nameFn: nameIsPathSegment,
  validate: (o) => validateBinding(o, false),
  validateUpdate: immutableRoleRef,
};
