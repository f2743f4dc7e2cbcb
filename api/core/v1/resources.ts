// The resources of the core group as a 1.32 apiserver's discovery lists them.
import { ALL_VERBS, type ResourceType, type Subresource, type Verb } from '../../types.js';
import { core } from './names.js';

const group = '';
const version = 'v1';
const readWrite = ['get', 'patch', 'update'];
const connect = ['create', 'get'];
const proxyVerbs = ['create', 'delete', 'get', 'patch', 'update'];

const sub = (name: string, kind: string, verbs: string[], gv = { group, version }): Subresource => ({ name, ...gv, kind, verbs });
const status = (kind: string): Subresource => sub('status', kind, readWrite);

interface Options {
  namespaced?: boolean;
  shortNames?: string[];
  categories?: string[];
  subresources?: Subresource[];
  verbs?: Verb[];
  singular?: string;
}

const resource = (kind: string, plural: string, o: Options = {}): ResourceType => ({
  group, version, kind, plural,
  singular: o.singular ?? kind.toLowerCase(),
  namespaced: o.namespaced ?? true,
  verbs: o.verbs ?? ALL_VERBS,
  ...(o.shortNames && { shortNames: o.shortNames }),
  ...(o.categories && { categories: o.categories }),
  ...(o.subresources && { subresources: o.subresources }),
  definition: core(kind),
});

export const resources: ResourceType[] = [
  // stored nowhere: a create binds the pod the Binding names (upstream's LegacyBindingREST; handlers/binding.ts)
  resource('Binding', 'bindings', { verbs: ['create'] }),
  resource('ComponentStatus', 'componentstatuses', { namespaced: false, verbs: ['get', 'list'], shortNames: ['cs'] }),
  resource('ConfigMap', 'configmaps', { shortNames: ['cm'] }),
  resource('Endpoints', 'endpoints', { shortNames: ['ep'], singular: 'endpoints' }),
  resource('Event', 'events', { shortNames: ['ev'] }),
  resource('LimitRange', 'limitranges', { shortNames: ['limits'] }),
  resource('Namespace', 'namespaces', {
    namespaced: false, shortNames: ['ns'],
    verbs: ALL_VERBS.filter((v) => v !== 'deletecollection'),
    subresources: [sub('finalize', 'Namespace', ['update']), status('Namespace')],
  }),
  resource('Node', 'nodes', {
    namespaced: false, shortNames: ['no'],
    subresources: [sub('proxy', 'NodeProxyOptions', proxyVerbs), status('Node')],
  }),
  resource('PersistentVolumeClaim', 'persistentvolumeclaims', {
    shortNames: ['pvc'], subresources: [status('PersistentVolumeClaim')],
  }),
  resource('PersistentVolume', 'persistentvolumes', {
    namespaced: false, shortNames: ['pv'], subresources: [status('PersistentVolume')],
  }),
  resource('Pod', 'pods', {
    shortNames: ['po'], categories: ['all'],
    subresources: [
      sub('attach', 'PodAttachOptions', connect),
      sub('binding', 'Binding', ['create']),
      sub('ephemeralcontainers', 'Pod', readWrite),
      sub('eviction', 'Eviction', ['create'], { group: 'policy', version: 'v1' }),
      sub('exec', 'PodExecOptions', connect),
      sub('log', 'Pod', ['get']),
      sub('portforward', 'PodPortForwardOptions', connect),
      sub('proxy', 'PodProxyOptions', proxyVerbs),
      // no pods/resize: 1.32 serves it only behind the alpha InPlacePodVerticalScaling gate (on by default from 1.33)
      status('Pod'),
    ],
  }),
  resource('PodTemplate', 'podtemplates'),
  resource('ReplicationController', 'replicationcontrollers', {
    shortNames: ['rc'], categories: ['all'],
    subresources: [sub('scale', 'Scale', readWrite, { group: 'autoscaling', version: 'v1' }), status('ReplicationController')],
  }),
  resource('ResourceQuota', 'resourcequotas', { shortNames: ['quota'], subresources: [status('ResourceQuota')] }),
  resource('Secret', 'secrets'),
  resource('ServiceAccount', 'serviceaccounts', {
    shortNames: ['sa'],
    subresources: [sub('token', 'TokenRequest', ['create'], { group: 'authentication.k8s.io', version: 'v1' })],
  }),
  resource('Service', 'services', {
    shortNames: ['svc'], categories: ['all'],
    subresources: [sub('proxy', 'ServiceProxyOptions', proxyVerbs), status('Service')],
  }),
];
