// NetworkPolicy.
import { arr, enumStr, int32, kind, listKind, obj, ref, str, type Definitions } from '../../schema.js';
import { N, PROTOCOLS, gvk, labelSelector } from './common.js';

export const networkPolicyDefinitions: Definitions = {
  [`${N}NetworkPolicy`]: kind(gvk('NetworkPolicy'), {
    spec: ref(`${N}NetworkPolicySpec`, 'Desired behavior of the policy.'),
  }, 'Which network traffic is allowed for a set of pods.'),
  [`${N}NetworkPolicyList`]: listKind(gvk('NetworkPolicyList'), `${N}NetworkPolicy`),
  [`${N}NetworkPolicySpec`]: obj({
    egress: arr(ref(`${N}NetworkPolicyEgressRule`), 'Allowed outgoing traffic.'),
    ingress: arr(ref(`${N}NetworkPolicyIngressRule`), 'Allowed incoming traffic.'),
    podSelector: labelSelector('Pods the policy applies to; empty selects all in the namespace.'),
    policyTypes: arr(enumStr(['Egress', 'Ingress'], undefined, { default: '' }), 'Directions the policy covers: Ingress, Egress or both.'),
  }, 'Desired behavior of a NetworkPolicy.', { required: ['podSelector'] }),
  [`${N}NetworkPolicyIngressRule`]: obj({
    from: arr(ref(`${N}NetworkPolicyPeer`), 'Sources allowed; empty allows all.'),
    ports: arr(ref(`${N}NetworkPolicyPort`), 'Ports allowed; empty allows all.'),
  }, 'Incoming traffic allowed.'),
  [`${N}NetworkPolicyEgressRule`]: obj({
    ports: arr(ref(`${N}NetworkPolicyPort`), 'Ports allowed; empty allows all.'),
    to: arr(ref(`${N}NetworkPolicyPeer`), 'Destinations allowed; empty allows all.'),
  }, 'Outgoing traffic allowed.'),
  [`${N}NetworkPolicyPeer`]: obj({
    ipBlock: ref(`${N}IPBlock`, 'A CIDR range.'),
    namespaceSelector: labelSelector('Namespaces whose pods are selected.'),
    podSelector: labelSelector('Pods selected (in the selected namespaces, or the policy\'s).'),
  }, 'A set of peers traffic is allowed from or to.'),
  [`${N}IPBlock`]: obj({
    cidr: str('The CIDR range, such as "192.168.1.0/24".', { default: '' }),
    except: arr(str(undefined, { default: '' }), 'CIDRs inside cidr that are excluded.'),
  }, 'A CIDR with exceptions.', { required: ['cidr'] }),
  [`${N}NetworkPolicyPort`]: obj({
    endPort: int32('Last port of a range starting at port.'),
    port: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString', 'Port number or named port.'),
    protocol: enumStr(PROTOCOLS, 'TCP (default), UDP or SCTP.'),
  }, 'A port (or range) and protocol.'),
};
