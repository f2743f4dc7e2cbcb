// Discovery documents: /api, /apis, /apis/<group>, /apis/<group>/<version>.
import { arr, bool, obj, ref, str, type Definitions } from '../../schema.js';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const apiVersion = str('APIVersion defines the versioned schema of this representation of an object.');
const kindField = str('Kind is a string value representing the REST resource this object represents.');
const strings = (description: string) => arr(str(undefined, { default: '' }), description);
const v1Kind = (kind: string) => ({ 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind }] });

export const discoveryDefinitions: Definitions = {
  [`${M}APIResource`]: obj({
    categories: strings('Groups of resources this one belongs to, such as "all".'),
    group: str('Group of the resource when it differs from the list (subresources).'),
    kind: str('Kind of the resource.', { default: '' }),
    name: str('Plural name of the resource.', { default: '' }),
    namespaced: bool('Whether the resource is namespaced.', { default: false }),
    shortNames: strings('Suggested short names.'),
    singularName: str('Singular name of the resource.', { default: '' }),
    storageVersionHash: str('Opaque hash of the storage version.'),
    verbs: strings('Supported verbs.'),
    version: str('Version of the resource when it differs from the list (subresources).'),
  }, 'A served resource and whether it is namespaced.', {
    required: ['name', 'singularName', 'namespaced', 'kind', 'verbs'],
  }),

  [`${M}APIResourceList`]: obj({
    apiVersion,
    groupVersion: str('The group/version this list is for.', { default: '' }),
    kind: kindField,
    resources: arr(ref(`${M}APIResource`), 'The resources served in this group-version.'),
  }, 'The resources of one group-version.', { required: ['groupVersion', 'resources'], ...v1Kind('APIResourceList') }),

  [`${M}APIGroup`]: obj({
    apiVersion,
    kind: kindField,
    name: str('Name of the group.', { default: '' }),
    preferredVersion: ref(`${M}GroupVersionForDiscovery`, 'The version clients should prefer.'),
    serverAddressByClientCIDRs: arr(ref(`${M}ServerAddressByClientCIDR`), 'Server addresses by client network.'),
    versions: arr(ref(`${M}GroupVersionForDiscovery`), 'Versions served in the group.'),
  }, 'A group and its versions.', { required: ['name', 'versions'], ...v1Kind('APIGroup') }),

  [`${M}APIGroupList`]: obj({
    apiVersion,
    groups: arr(ref(`${M}APIGroup`), 'The groups served.'),
    kind: kindField,
  }, 'The groups served at /apis.', { required: ['groups'], ...v1Kind('APIGroupList') }),

  [`${M}APIVersions`]: obj({
    apiVersion,
    kind: kindField,
    serverAddressByClientCIDRs: arr(ref(`${M}ServerAddressByClientCIDR`), 'Server addresses by client network.'),
    versions: strings('Versions served at /api.'),
  }, 'The versions of the core API served at /api.', {
    required: ['versions', 'serverAddressByClientCIDRs'], ...v1Kind('APIVersions'),
  }),

  [`${M}GroupVersionForDiscovery`]: obj({
    groupVersion: str('"group/version".', { default: '' }),
    version: str('The version alone.', { default: '' }),
  }, 'A group-version named in discovery.', { required: ['groupVersion', 'version'] }),

  [`${M}ServerAddressByClientCIDR`]: obj({
    clientCIDR: str('The client network this address serves.', { default: '' }),
    serverAddress: str('Address (host:port) clients in that network should use.', { default: '' }),
  }, 'A server address for clients of one network.', { required: ['clientCIDR', 'serverAddress'] }),
};
