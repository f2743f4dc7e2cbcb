// Protobuf field numbers of networking/v1 messages, by definition name. Generated; see ./index.ts.
import type { ProtoFields } from './types.js';

export const networkingV1: ProtoFields = {
  'io.k8s.api.networking.v1.HTTPIngressPath': { 1: 'path', 2: 'backend', 3: 'pathType*' },
  'io.k8s.api.networking.v1.HTTPIngressRuleValue': { 1: 'paths' },
  'io.k8s.api.networking.v1.IPBlock': { 1: 'cidr*', 2: 'except' },
  'io.k8s.api.networking.v1.Ingress': { 1: 'metadata', 2: 'spec', 3: 'status' },
  'io.k8s.api.networking.v1.IngressBackend': { 3: 'resource', 4: 'service' },
  'io.k8s.api.networking.v1.IngressClass': { 1: 'metadata', 2: 'spec' },
  'io.k8s.api.networking.v1.IngressClassList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.networking.v1.IngressClassParametersReference': {
    1: 'apiGroup*', 2: 'kind*', 3: 'name*', 4: 'scope*', 5: 'namespace*',
  },
  'io.k8s.api.networking.v1.IngressClassSpec': { 1: 'controller', 2: 'parameters' },
  'io.k8s.api.networking.v1.IngressList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.networking.v1.IngressLoadBalancerIngress': { 1: 'ip', 2: 'hostname', 4: 'ports' },
  'io.k8s.api.networking.v1.IngressLoadBalancerStatus': { 1: 'ingress' },
  'io.k8s.api.networking.v1.IngressPortStatus': { 1: 'port*', 2: 'protocol*', 3: 'error*' },
  'io.k8s.api.networking.v1.IngressRule': { 1: 'host', 2: { inline: 'io.k8s.api.networking.v1.IngressRuleValue' } },
  'io.k8s.api.networking.v1.IngressServiceBackend': { 1: 'name*', 2: 'port' },
  'io.k8s.api.networking.v1.IngressSpec': { 1: 'defaultBackend', 2: 'tls', 3: 'rules', 4: 'ingressClassName*' },
  'io.k8s.api.networking.v1.IngressStatus': { 1: 'loadBalancer' },
  'io.k8s.api.networking.v1.IngressTLS': { 1: 'hosts', 2: 'secretName' },
  'io.k8s.api.networking.v1.NetworkPolicy': { 1: 'metadata', 2: 'spec' },
  'io.k8s.api.networking.v1.NetworkPolicyEgressRule': { 1: 'ports', 2: 'to' },
  'io.k8s.api.networking.v1.NetworkPolicyIngressRule': { 1: 'ports', 2: 'from' },
  'io.k8s.api.networking.v1.NetworkPolicyList': { 1: 'metadata', 2: 'items' },
  'io.k8s.api.networking.v1.NetworkPolicyPeer': { 1: 'podSelector', 2: 'namespaceSelector', 3: 'ipBlock' },
  'io.k8s.api.networking.v1.NetworkPolicyPort': { 1: 'protocol*', 2: 'port', 3: 'endPort*' },
  'io.k8s.api.networking.v1.NetworkPolicySpec': { 1: 'podSelector', 2: 'ingress', 3: 'egress', 4: 'policyTypes' },
  'io.k8s.api.networking.v1.ServiceBackendPort': { 1: 'name', 2: 'number' },
  'io.k8s.api.networking.v1.IngressRuleValue': { 1: 'http' },
};
