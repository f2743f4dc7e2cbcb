// References from one object to another.
import { bool, obj, ref, str, type Definitions } from '../../schema.js';
import { QUANTITY, core, v1 } from './names.js';

export const referenceDefinitions: Definitions = {
  [core('ObjectReference')]: obj({
    apiVersion: str('API version of the referent.'),
    fieldPath: str('Path to a piece of the object instead of the whole, such as spec.containers{name}.'),
    kind: str('Kind of the referent.'),
    name: str('Name of the referent.'),
    namespace: str('Namespace of the referent.'),
    resourceVersion: str('Resource version of the referent the reference was made against.'),
    uid: str('UID of the referent.'),
  }, 'Enough information to inspect or change the object it refers to.', { 'x-kubernetes-map-type': 'atomic' }),
  [core('LocalObjectReference')]: obj({
    name: str('Name of the referent.', { default: '' }),
  }, 'Names an object in the same namespace.', { 'x-kubernetes-map-type': 'atomic' }),
  [core('TypedLocalObjectReference')]: obj({
    apiGroup: str('API group of the referent; empty for the core group.'),
    kind: str('Kind of the referent.'),
    name: str('Name of the referent.'),
  }, 'Names an object of a given kind in the same namespace.', { required: ['kind', 'name'], 'x-kubernetes-map-type': 'atomic' }),
  [core('TypedObjectReference')]: obj({
    apiGroup: str('API group of the referent; empty for the core group.'),
    kind: str('Kind of the referent.'),
    name: str('Name of the referent.'),
    namespace: str('Namespace of the referent; the local one if unset (other namespaces need a ReferenceGrant).'),
  }, 'Names an object of a given kind, possibly in another namespace.', { required: ['kind', 'name'] }),
  [core('SecretReference')]: obj({
    name: str('Name of the secret, unique within its namespace.'),
    namespace: str('Namespace in which the secret name is unique.'),
  }, 'Names a secret, possibly in another namespace.', { 'x-kubernetes-map-type': 'atomic' }),
  [core('ObjectFieldSelector')]: obj({
    apiVersion: str('Version of the schema the field path is written in; defaults to v1.', { default: 'v1' }),
    fieldPath: str('Path of the field to select in that API version.'),
  }, 'Selects a field of the object.', { required: ['fieldPath'], 'x-kubernetes-map-type': 'atomic' }),
  [core('ResourceFieldSelector')]: obj({
    containerName: str('Container name; required for volumes, optional for env vars.'),
    divisor: ref(QUANTITY, 'Output format of the exposed resources; 1 if unset.'),
    resource: str('Resource to select.'),
  }, 'Selects a resource of a container: limits.cpu, requests.memory and the like.', { required: ['resource'], 'x-kubernetes-map-type': 'atomic' }),
  [core('ConfigMapKeySelector')]: obj({
    key: str('The key to select.'),
    name: str('Name of the referent.', { default: '' }),
    optional: bool('Whether the ConfigMap or its key may be absent.'),
  }, 'Selects a key of a ConfigMap.', { required: ['key'], 'x-kubernetes-map-type': 'atomic' }),
  [core('SecretKeySelector')]: obj({
    key: str('Key of the secret to select from; must be a valid secret key.'),
    name: str('Name of the referent.', { default: '' }),
    optional: bool('Whether the Secret or its key may be absent.'),
  }, 'Selects a key of a Secret.', { required: ['key'], 'x-kubernetes-map-type': 'atomic' }),
};
