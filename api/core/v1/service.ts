// Services, their ports and load balancer status, and the Endpoints that back them.
import { arr, bool, enumStr, int32, kind, listKind, mapList, obj, ref, str, strMap, type Definitions } from '../../schema.js';
import { INT_OR_STRING, core, meta, v1 } from './names.js';

export const serviceDefinitions: Definitions = {
  [core('Service')]: kind(v1('Service'), {
    spec: ref(core('ServiceSpec'), 'Behaviour of the service.'),
    status: ref(core('ServiceStatus'), 'Most recently observed status of the service.'),
  }, 'A named abstraction of software service: a local port proxied to the pods its selector picks.'),
  [core('ServiceList')]: listKind(v1('ServiceList'), core('Service')),
  [core('ServiceSpec')]: obj({
    allocateLoadBalancerNodePorts: bool('Whether node ports are allocated for a LoadBalancer service; true if unset.'),
    clusterIP: str('Virtual IP of the service, allocated at random if unset; None makes it headless.'),
    clusterIPs: arr(str(), 'Virtual IPs of the service, one per IP family; the first equals clusterIP.'),
    externalIPs: arr(str(), "IPs outside the cluster for which nodes also accept the service's traffic."),
    externalName: str('DNS name returned as a CNAME for an ExternalName service.'),
    externalTrafficPolicy: enumStr(['Cluster', 'Local'], 'How external traffic reaches endpoints: Cluster or Local (keeps the client IP).'),
    healthCheckNodePort: int32('Health check node port of a LoadBalancer service with Local traffic policy.'),
    internalTrafficPolicy: enumStr(['Cluster', 'Local'], 'How in-cluster traffic reaches endpoints: Cluster or Local.'),
    ipFamilies: arr(enumStr(['', 'IPv4', 'IPv6']), 'IP families (IPv4, IPv6) of the service, in order.'),
    ipFamilyPolicy: enumStr(['PreferDualStack', 'RequireDualStack', 'SingleStack'], 'Dual-stack policy: SingleStack, PreferDualStack or RequireDualStack.'),
    loadBalancerClass: str('Load balancer implementation serving this LoadBalancer service.'),
    loadBalancerIP: str('Deprecated requested IP of the load balancer.'),
    loadBalancerSourceRanges: arr(str(), 'Client IP ranges the cloud load balancer admits.'),
    ports: mapList(ref(core('ServicePort')), 'port', 'Ports the service exposes.', { mapKeys: ['port', 'protocol'] }),
    publishNotReadyAddresses: bool('Publish addresses of endpoints whether or not they are ready.'),
    selector: strMap('Labels of the pods traffic is routed to.', { 'x-kubernetes-map-type': 'atomic' }),
    sessionAffinity: enumStr(['ClientIP', 'None'], 'Session affinity: ClientIP or None.', { default: 'None' }),
    sessionAffinityConfig: ref(core('SessionAffinityConfig'), 'Configuration of session affinity.'),
    trafficDistribution: str('Preference for how traffic spreads over endpoints, such as PreferClose.'),
    type: enumStr(['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'], 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.', { default: 'ClusterIP' }),
  }, 'Attributes a user creates a service with.'),
  [core('ServicePort')]: obj({
    appProtocol: str('Application protocol of the port, as an IANA service name or a domain-prefixed name.'),
    name: str('Name of the port, unique within the service; required with several ports.'),
    nodePort: int32('Port on each node where a NodePort or LoadBalancer service is exposed.'),
    port: int32('Port the service exposes.'),
    protocol: enumStr(['SCTP', 'TCP', 'UDP'], 'IP protocol of the port: TCP, UDP or SCTP.', { default: 'TCP' }),
    targetPort: ref(INT_OR_STRING, 'Number or name of the port on the pods; the value of port if unset.'),
  }, 'A port of a service.', { required: ['port'] }),
  [core('ServiceStatus')]: obj({
    conditions: mapList(ref(meta('Condition')), 'type', 'Current conditions of the service.'),
    loadBalancer: ref(core('LoadBalancerStatus'), 'Status of the load balancer, if any.'),
  }, 'Current status of a service.'),
  [core('LoadBalancerStatus')]: obj({
    ingress: arr(ref(core('LoadBalancerIngress')), 'Ingress points of the load balancer.'),
  }, 'Status of a load balancer.'),
  [core('LoadBalancerIngress')]: obj({
    hostname: str('DNS-based ingress point.'),
    ip: str('IP-based ingress point.'),
    ipMode: str('How traffic to the IP is handled: VIP or Proxy.'),
    ports: arr(ref(core('PortStatus')), "Records of the service's ports."),
  }, 'An ingress point of a load balancer.'),
  [core('PortStatus')]: obj({
    error: str('CamelCase error of the port, if any.'),
    port: int32('Port number of the service port.'),
    protocol: enumStr(['SCTP', 'TCP', 'UDP'], 'Protocol of the service port: TCP, UDP or SCTP.'),
  }, 'Status of one port of a load balancer.', { required: ['port', 'protocol'] }),
  [core('SessionAffinityConfig')]: obj({
    clientIP: ref(core('ClientIPConfig'), 'Configuration of ClientIP session affinity.'),
  }, 'Configuration of session affinity.'),
  [core('ClientIPConfig')]: obj({
    timeoutSeconds: int32('Seconds a ClientIP session sticks, 1 to 86400; 10800 by default.'),
  }, 'Configuration of ClientIP session affinity.'),
  [core('Endpoints')]: kind(v1('Endpoints'), {
    subsets: arr(ref(core('EndpointSubset')), 'Sets of addresses and ports that make up the service.'),
  }, 'The endpoints that implement a service.'),
  [core('EndpointsList')]: listKind(v1('EndpointsList'), core('Endpoints')),
  [core('EndpointSubset')]: obj({
    addresses: arr(ref(core('EndpointAddress')), 'Ready addresses.'),
    notReadyAddresses: arr(ref(core('EndpointAddress')), 'Addresses not ready yet.'),
    ports: arr(ref(core('EndpointPort')), 'Port numbers available on the addresses.'),
  }, 'Addresses sharing a set of ports.'),
  [core('EndpointAddress')]: obj({
    hostname: str('Host name of this endpoint.'),
    ip: str('IP of this endpoint.'),
    nodeName: str('Node hosting this endpoint.'),
    targetRef: ref(core('ObjectReference'), 'Object providing the endpoint.'),
  }, 'One endpoint of a service.', { required: ['ip'], 'x-kubernetes-map-type': 'atomic' }),
  [core('EndpointPort')]: obj({
    appProtocol: str('Application protocol of the port.'),
    name: str("Name of the port, matching the service port's name."),
    port: int32('Port number of the endpoint.'),
    protocol: enumStr(['SCTP', 'TCP', 'UDP'], 'IP protocol of the port: TCP, UDP or SCTP.', { default: 'TCP' }),
  }, 'A port number of an endpoint.', { required: ['port'], 'x-kubernetes-map-type': 'atomic' }),
};
