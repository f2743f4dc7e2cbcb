import { describe, expect, it } from 'vitest';
import { serviceWarnings } from './service-warnings.js';

describe('serviceWarnings', () => {
  it('warns as upstream 1.32: the deprecated annotation, addresses, fields the type ignores', () => {
    expect(serviceWarnings({
      metadata: { name: 's', annotations: { 'service.kubernetes.io/topology-aware-hints': 'auto' } },
      spec: { type: 'LoadBalancer', clusterIP: '10.96.0.010', clusterIPs: ['10.96.0.010'], externalIPs: ['1.2.3.04'], loadBalancerIP: '2001:DB8::1', loadBalancerSourceRanges: ['10.0.0.0/08'], externalName: 'x.example.com' },
    })).toEqual([
      'annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
      'spec.clusterIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("10.96.0.010"): IPv4 field has octet with leading zero',
      'spec.externalIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("1.2.3.04"): IPv4 field has octet with leading zero',
      'spec.loadBalancerIP: IPv6 address "2001:DB8::1" is not in RFC 5952 canonical format ("2001:db8::1"), which may cause controller apply-loops',
      'spec.loadBalancerSourceRanges[0]: IP prefix was accepted, but will be invalid in a future Kubernetes release: netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08"',
      'spec.externalName is ignored when spec.type is not "ExternalName"',
    ]);
    expect(serviceWarnings({ metadata: { name: 's' }, spec: { type: 'ExternalName', externalName: 'x.example.com', externalIPs: ['1.2.3.4'] } }))
      .toEqual(['spec.externalIPs is ignored when spec.type is "ExternalName"']);
    // a headless service's clusterIPs are not addresses; a plain one warns of nothing
    expect(serviceWarnings({ metadata: { name: 's' }, spec: { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] } })).toEqual([]);
    expect(serviceWarnings({ metadata: { name: 's' }, spec: { type: 'ClusterIP', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] } })).toEqual([]);
  });
});
