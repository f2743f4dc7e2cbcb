// discovery.k8s.io/v1: EndpointSlices.
import { arr, bool, enumStr, int32, kind, listKind, obj, ref, setOf, str, strMap } from '../../schema.js';
import { ALL_VERBS, type Defaulter, type GroupVersion } from '../../types.js';

const D = 'io.k8s.api.discovery.v1.';
const gvk = (k: string) => ({ group: 'discovery.k8s.io', version: 'v1', kind: k });

/** Upstream SetDefaults_EndpointPort: an unnamed TCP port unless told otherwise. */
const endpointPort: Defaulter = (p) => {
  p.name ??= '';
  p.protocol ??= 'TCP';
};

/** Well-known labels of EndpointSlices (upstream discovery/v1 well_known_labels.go). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';

export const groupVersion: GroupVersion = {
  group: 'discovery.k8s.io',
  version: 'v1',
  resources: [{
    group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', singular: 'endpointslice',
    namespaced: true, verbs: ALL_VERBS, definition: `${D}EndpointSlice`,
  }],
  definitions: {
    [`${D}EndpointSlice`]: kind(gvk('EndpointSlice'), {
      addressType: enumStr(['FQDN', 'IPv4', 'IPv6'], 'Type of the addresses: IPv4, IPv6 or FQDN.', { default: '' }),
      endpoints: arr(ref(`${D}Endpoint`), 'The endpoints of the slice (at most 1000).'),
      ports: arr(ref(`${D}EndpointPort`), 'Ports every endpoint of the slice exposes.'),
    }, 'A subset of the endpoints of a service.', { required: ['addressType', 'endpoints'] }),
    [`${D}EndpointSliceList`]: listKind(gvk('EndpointSliceList'), `${D}EndpointSlice`),
    [`${D}Endpoint`]: obj({
      addresses: setOf(str(undefined, { default: '' }), 'Addresses of the endpoint, interpreted per addressType.'),
      conditions: ref(`${D}EndpointConditions`, 'Current state of the endpoint.'),
      deprecatedTopology: strMap('Deprecated topology labels; use zone and nodeName.'),
      hints: ref(`${D}EndpointHints`, 'Hints for topology-aware routing.'),
      hostname: str('Hostname of the endpoint.'),
      nodeName: str('Node hosting the endpoint.'),
      targetRef: ref('io.k8s.api.core.v1.ObjectReference', 'The object the endpoint stands for, usually a pod.'),
      zone: str('Zone the endpoint is in.'),
    }, 'One endpoint of a service.', { required: ['addresses'] }),
    [`${D}EndpointConditions`]: obj({
      ready: bool('Whether the endpoint is ready for traffic.'),
      serving: bool('Whether the endpoint can serve, even while terminating.'),
      terminating: bool('Whether the endpoint is terminating.'),
    }, 'State of an endpoint.'),
    [`${D}EndpointHints`]: obj({
      forZones: arr(ref(`${D}ForZone`), 'Zones that should consume this endpoint.'),
    }, 'Topology hints of an endpoint.'),
    [`${D}ForZone`]: obj({
      name: str('Name of the zone.', { default: '' }),
    }, 'A zone that should consume an endpoint.', { required: ['name'] }),
    [`${D}EndpointPort`]: obj({
      appProtocol: str('Application protocol of the port.'),
      name: str('Name of the port, unique within the slice.'),
      port: int32('Port number.'),
      protocol: enumStr(['SCTP', 'TCP', 'UDP'], 'TCP (default), UDP or SCTP.'),
    }, 'A port of the endpoints of a slice.', { 'x-kubernetes-map-type': 'atomic' }),
  },
  defaulters: { [`${D}EndpointPort`]: endpointPort },
};
