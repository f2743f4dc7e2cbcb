// rbac.authorization.k8s.io/v1: Roles, ClusterRoles and their bindings.
import { ALL_VERBS, type GroupVersion, type ResourceType } from '../../types.js';
import { defaulters } from './defaults.js';
import { R, definitions } from './definitions.js';

const group = 'rbac.authorization.k8s.io';
const version = 'v1';
const resource = (kind: string, namespaced: boolean): ResourceType => ({
  group, version, kind, plural: `${kind.toLowerCase()}s`, singular: kind.toLowerCase(), namespaced,
  verbs: ALL_VERBS, definition: R + kind,
});

export const groupVersion: GroupVersion = {
  group,
  version,
  resources: [
    resource('ClusterRoleBinding', false), resource('ClusterRole', false),
    resource('RoleBinding', true), resource('Role', true),
  ],
  definitions,
  defaulters,
};
