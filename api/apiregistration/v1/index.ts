// apiregistration.k8s.io/v1: APIServices, which say who serves each group-version (upstream:
// k8s.io/kube-aggregator/pkg/apis/apiregistration/v1). A "Local" one (no service) is served by this apiserver;
// one with a service is proxied to it by the aggregator (pkg/apiserver/aggregator).
import { bool, bytes, enumStr, int32, kind, listKind, mapList, obj, ref, str } from '../../schema.js';
import { ALL_VERBS, type GroupVersion } from '../../types.js';

const A = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const gvk = (k: string) => ({ group: 'apiregistration.k8s.io', version: 'v1', kind: k });

export interface APIServiceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface APIService {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; labels?: Record<string, string>; resourceVersion?: string; creationTimestamp?: string | null; [k: string]: unknown };
  spec: {
    service?: { namespace: string; name: string; port?: number } | null;
    group?: string;
    version?: string;
    insecureSkipTLSVerify?: boolean;
    /** base64 PEM */
    caBundle?: string;
    groupPriorityMinimum: number;
    versionPriority: number;
  };
  status?: { conditions?: APIServiceCondition[] };
}

export const groupVersion: GroupVersion = {
  group: 'apiregistration.k8s.io',
  version: 'v1',
  resources: [{
    group: 'apiregistration.k8s.io', version: 'v1', kind: 'APIService', plural: 'apiservices', singular: 'apiservice',
    namespaced: false, verbs: ALL_VERBS, categories: ['api-extensions'], definition: `${A}APIService`,
    subresources: [{ name: 'status', group: 'apiregistration.k8s.io', version: 'v1', kind: 'APIService', verbs: ['get', 'patch', 'update'] }],
  }],
  definitions: {
    [`${A}APIService`]: kind(gvk('APIService'), {
      spec: ref(`${A}APIServiceSpec`, 'Spec contains information for locating and communicating with a server'),
      status: ref(`${A}APIServiceStatus`, 'Status contains derived information about an API server'),
    }, 'APIService represents a server for a particular GroupVersion. Name must be "version.group".'),
    [`${A}APIServiceList`]: listKind(gvk('APIServiceList'), `${A}APIService`),
    [`${A}APIServiceSpec`]: obj({
      caBundle: { ...bytes('CABundle is a PEM encoded CA bundle which will be used to validate an API server\'s serving certificate. If unspecified, system trust roots on the apiserver are used.'), 'x-kubernetes-list-type': 'atomic' },
      group: str('Group is the API group name this server hosts'),
      groupPriorityMinimum: int32('GroupPriorityMinimum is the priority this group should have at least. Higher priority means that the group is preferred by clients over lower priority ones.'),
      insecureSkipTLSVerify: bool('InsecureSkipTLSVerify disables TLS certificate verification when communicating with this server. This is strongly discouraged.'),
      service: ref(`${A}ServiceReference`, 'Service is a reference to the service for this API server. It must communicate on port 443. If the Service is nil, that means the handling for the API groupversion is handled locally on this server.'),
      version: str('Version is the API version this server hosts.  For example, "v1"'),
      versionPriority: int32('VersionPriority controls the ordering of this API version inside of its group.  Must be greater than zero.'),
    }, 'APIServiceSpec contains information for locating and communicating with a server. Only https is supported, though you are able to disable certificate verification.', { required: ['groupPriorityMinimum', 'versionPriority'] }),
    [`${A}ServiceReference`]: obj({
      name: str('Name is the name of the service'),
      namespace: str('Namespace is the namespace of the service'),
      port: int32('If specified, the port on the service that hosting webhook. Default to 443 for backward compatibility. `port` should be a valid port number (1-65535, inclusive).', { default: 443 }),
    }, 'ServiceReference holds a reference to Service.legacy.k8s.io'),
    [`${A}APIServiceStatus`]: obj({
      conditions: mapList(ref(`${A}APIServiceCondition`), 'type', 'Current service state of apiService.'),
    }, 'APIServiceStatus contains derived information about an API server'),
    [`${A}APIServiceCondition`]: obj({
      lastTransitionTime: ref(`${M}Time`, 'Last time the condition transitioned from one status to another.'),
      message: str('Human-readable message indicating details about last transition.'),
      reason: str('Unique, one-word, CamelCase reason for the condition\'s last transition.'),
      status: enumStr(['True', 'False', 'Unknown'], 'Status is the status of the condition. Can be True, False, Unknown.'),
      type: str('Type is the type of the condition.'),
    }, 'APIServiceCondition describes the state of an APIService at a particular point', { required: ['type', 'status'] }),
  },
};
