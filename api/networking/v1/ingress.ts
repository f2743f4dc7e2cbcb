// Ingress and IngressClass.
import { arr, enumStr, int32, kind, listKind, obj, ref, str, type Definitions } from '../../schema.js';
import { N, PROTOCOLS, gvk } from './common.js';

export const ingressDefinitions: Definitions = {
  [`${N}Ingress`]: kind(gvk('Ingress'), {
    spec: ref(`${N}IngressSpec`, 'Desired state of the Ingress.'),
    status: ref(`${N}IngressStatus`, 'Current state of the Ingress.'),
  }, 'Rules routing external HTTP(S) traffic to services.'),
  [`${N}IngressList`]: listKind(gvk('IngressList'), `${N}Ingress`),
  [`${N}IngressSpec`]: obj({
    defaultBackend: ref(`${N}IngressBackend`, 'Backend for requests no rule matches.'),
    ingressClassName: str('Name of the IngressClass that implements this Ingress.'),
    rules: arr(ref(`${N}IngressRule`), 'Host rules; traffic matching none goes to the default backend.'),
    tls: arr(ref(`${N}IngressTLS`), 'TLS configuration per set of hosts.'),
  }, 'Desired state of an Ingress.'),
  [`${N}IngressBackend`]: obj({
    resource: ref('io.k8s.api.core.v1.TypedLocalObjectReference', 'An object in the same namespace to route to.'),
    service: ref(`${N}IngressServiceBackend`, 'A service to route to.'),
  }, 'Where matching traffic is sent: a service or a resource.'),
  [`${N}IngressServiceBackend`]: obj({
    name: str('Name of the service.', { default: '' }),
    port: ref(`${N}ServiceBackendPort`, 'Port of the service.'),
  }, 'A service used as a backend.', { required: ['name'] }),
  [`${N}ServiceBackendPort`]: obj({
    name: str('Name of the service port; exclusive with number.'),
    number: int32('Number of the service port; exclusive with name.'),
  }, 'A port of a backend service.', { 'x-kubernetes-map-type': 'atomic' }),
  [`${N}IngressRule`]: obj({
    host: str('Fully qualified host name, possibly with a leading "*." wildcard.'),
    http: ref(`${N}HTTPIngressRuleValue`, 'HTTP paths of the host.'),
  }, 'Routes the traffic of one host.'),
  [`${N}HTTPIngressRuleValue`]: obj({
    paths: arr(ref(`${N}HTTPIngressPath`), 'Paths and their backends.'),
  }, 'HTTP paths of a rule.', { required: ['paths'] }),
  [`${N}HTTPIngressPath`]: obj({
    backend: ref(`${N}IngressBackend`, 'Where traffic matching the path goes.'),
    path: str('Path matched against the request path; must start with "/".'),
    pathType: enumStr(['Exact', 'ImplementationSpecific', 'Prefix'], 'How the path is matched.'),
  }, 'A path and its backend.', { required: ['pathType', 'backend'] }),
  [`${N}IngressTLS`]: obj({
    hosts: arr(str(undefined, { default: '' }), 'Hosts the certificate covers.'),
    secretName: str('Secret holding the certificate and key.'),
  }, 'TLS settings for some hosts.'),
  [`${N}IngressStatus`]: obj({
    loadBalancer: ref(`${N}IngressLoadBalancerStatus`, 'The load balancer in front of the Ingress.'),
  }, 'Observed state of an Ingress.'),
  [`${N}IngressLoadBalancerStatus`]: obj({
    ingress: arr(ref(`${N}IngressLoadBalancerIngress`), 'Ingress points of the load balancer.'),
  }, 'Status of the load balancer of an Ingress.'),
  [`${N}IngressLoadBalancerIngress`]: obj({
    hostname: str('DNS name of the ingress point.'),
    ip: str('IP address of the ingress point.'),
    ports: arr(ref(`${N}IngressPortStatus`), 'Status of the ports of the ingress point.'),
  }, 'One ingress point of a load balancer.'),
  [`${N}IngressPortStatus`]: obj({
    error: str('Problem with the port, as a CamelCase reason.'),
    port: int32('Port number.', { default: 0 }),
    protocol: enumStr(PROTOCOLS, 'TCP, UDP or SCTP.', { default: '' }),
  }, 'Status of one port.', { required: ['port', 'protocol'] }),

  [`${N}IngressClass`]: kind(gvk('IngressClass'), {
    spec: ref(`${N}IngressClassSpec`, 'Desired state of the IngressClass.'),
  }, 'A class of Ingresses and the controller implementing it.'),
  [`${N}IngressClassList`]: listKind(gvk('IngressClassList'), `${N}IngressClass`),
  [`${N}IngressClassSpec`]: obj({
    controller: str('Name of the controller implementing the class, such as "example.com/ingress".'),
    parameters: ref(`${N}IngressClassParametersReference`, 'Extra configuration for the controller.'),
  }, 'Desired state of an IngressClass.'),
  [`${N}IngressClassParametersReference`]: obj({
    apiGroup: str('Group of the referenced object.'),
    kind: str('Kind of the referenced object.', { default: '' }),
    name: str('Name of the referenced object.', { default: '' }),
    namespace: str('Namespace of the referenced object, when scope is Namespace.'),
    scope: str('Cluster (default) or Namespace.'),
  }, 'Reference to an object holding controller parameters.', { required: ['kind', 'name'] }),
};
