import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateService, validateServiceUpdate } from './service.js';

const msgs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
/** A Service as defaulting and the strategy's prepareForCreate leave it. */
const svc = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'd', annotations },
  spec: {
    type: 'ClusterIP', sessionAffinity: 'None', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster',
    ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], ...spec,
  },
});
const check = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): string[] => msgs(validateService(svc(spec, annotations)));

describe('Service validation', () => {
  it('takes the usual services', () => {
    expect(check()).toEqual([]);
    expect(check({ clusterIP: 'None', ports: [] })).toEqual([]);
    expect(check({ type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ name: 'a', port: 80, protocol: 'TCP', targetPort: 'http', nodePort: 30001 }, { name: 'b', port: 80, protocol: 'UDP', targetPort: 53 }] })).toEqual([]);
    expect(check({ type: 'LoadBalancer', externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true, loadBalancerSourceRanges: ['10.0.0.0/8 '], loadBalancerClass: 'example.com/lb' })).toEqual([]);
    expect(msgs(validateService({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'e' }, spec: { type: 'ExternalName', externalName: 'db.example.com.', sessionAffinity: 'None' } }))).toEqual([]);
    expect(check({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } }, externalIPs: ['203.0.113.9'], externalTrafficPolicy: 'Cluster' })).toEqual([]);
  });

  it('checks ports', () => {
    expect(check({ ports: [] })).toEqual(['spec.ports: Required value']);
    expect(check({ ports: [{ port: 0, protocol: 'IP', targetPort: 0, appProtocol: 'a b' }, { name: 'Web', port: 80, protocol: '', targetPort: 'x--y' }] })).toEqual([
      'spec.ports[0].name: Required value',
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].protocol: Unsupported value: "IP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
      expect.stringMatching(/^spec\.ports\[0\]\.appProtocol: Invalid value: "a b": name part must consist of/),
      expect.stringMatching(/^spec\.ports\[1\]\.name: Invalid value: "Web": a lowercase RFC 1123 label must consist of/),
      'spec.ports[1].protocol: Required value',
      'spec.ports[1].targetPort: Invalid value: "x--y": must not contain consecutive hyphens',
    ]);
    // a port left out is Go's zero, which the range check refuses (and targetPort, defaulted from it, is 0 too)
    expect(check({ ports: [{ protocol: 'TCP', targetPort: 0 }] })).toEqual([
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
    expect(check({ ports: [{ name: 'a', port: 80, protocol: 'TCP', targetPort: 80 }, { name: 'a', port: 80, protocol: 'TCP', targetPort: 81 }] })).toEqual([
      'spec.ports[1].name: Duplicate value: "a"',
      'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    ]);
    expect(check({ type: 'NodePort', externalTrafficPolicy: 'Cluster', ports: [{ name: 'a', port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30001 }, { name: 'b', port: 81, protocol: 'TCP', targetPort: 80, nodePort: 30001 }] }))
      .toEqual(['spec.ports[1].nodePort: Duplicate value: 30001']);
  });

  it('checks the type and what depends on it', () => {
    expect(check({ type: 'Foo' })).toEqual(['spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']);
    expect(check({ type: 'NodePort', clusterIP: 'None', externalTrafficPolicy: 'Cluster' })).toEqual(["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services"]);
    expect(msgs(validateService({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'e' }, spec: { type: 'ExternalName', externalName: 'Bad_Name', clusterIP: '10.0.0.1', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', sessionAffinity: 'None' } }))).toEqual([
      'spec.clusterIPs: Forbidden: may not be set for ExternalName services',
      'spec.ipFamilies: Forbidden: may not be set for ExternalName services',
      'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
      expect.stringMatching(/^spec\.externalName: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/),
    ]);
    expect(check({ ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 30000 }] })).toEqual(["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]);
    expect(check({ loadBalancerSourceRanges: ['nope'], allocateLoadBalancerNodePorts: false, loadBalancerClass: 'x' })).toEqual([
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'spec.LoadBalancerSourceRanges[0]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
      "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ]);
    expect(check({ type: 'LoadBalancer', externalTrafficPolicy: 'Cluster' })).toEqual(['allocateLoadBalancerNodePorts: Required value']);
    expect(check({}, { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8,bad' })).toEqual([
      "metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "bad": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
  });

  it('checks session affinity, selector, external IPs and traffic policies', () => {
    expect(check({ sessionAffinity: '' })).toEqual(['spec.sessionAffinity: Required value']);
    expect(check({ sessionAffinity: 'ClientIP' })).toEqual(['spec.sessionAffinityConfig: Required value: when session affinity type is ClientIP']);
    expect(check({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } }))
      .toEqual(['spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400']);
    expect(check({ sessionAffinityConfig: {} })).toEqual(['spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None']);
    expect(check({ selector: { app: 'a b' } })[0]).toMatch(/^spec\.selector: Invalid value: "a b": a valid label must be an empty string/);
    expect(check({ externalIPs: ['x', '0.0.0.0'], externalTrafficPolicy: 'Cluster' })).toEqual([
      'spec.externalIPs[0]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'spec.externalIPs[1]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
    ]);
    expect(check({ externalTrafficPolicy: 'Local', healthCheckNodePort: 30000 })).toEqual([
      'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
      "spec.healthCheckNodePort: Invalid value: 30000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    ]);
    expect(check({ type: 'NodePort', externalTrafficPolicy: 'Nearest' })).toEqual(['spec.externalTrafficPolicy: Unsupported value: "Nearest": supported values: "Cluster", "Local"']);
    expect(check({ internalTrafficPolicy: undefined })).toEqual(['spec.internalTrafficPolicy: Required value']);
    expect(check({ internalTrafficPolicy: 'Node', trafficDistribution: 'Anywhere' })).toEqual([
      'spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"',
      'spec.trafficDistribution: Unsupported value: "Anywhere": supported values: "PreferClose"',
    ]);
    expect(check({}, { 'service.kubernetes.io/topology-mode': 'Auto', 'service.kubernetes.io/topology-aware-hints': 'Disabled' }))
      .toEqual(['metadata.annotations[service.kubernetes.io/topology-mode]: Invalid value: "Auto": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified']);
  });

  it('checks cluster IPs and families first, and alone', () => {
    expect(check({ clusterIP: '10.0.0.300', ports: [{ port: 0 }] })).toEqual(['spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
    expect(check({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.2'] })).toEqual(['spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: first value must match `clusterIP`']);
    expect(check({ clusterIPs: ['10.0.0.2'] })).toEqual(['spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: must be empty when `clusterIP` is not specified']);
    expect(check({ clusterIP: 'None', clusterIPs: ['None', '10.0.0.1'] })).toEqual(["spec.clusterIPs: Invalid value: []string{\"None\", \"10.0.0.1\"}: 'None' must be the first and only value"]);
    expect(check({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', '10.0.0.2'] })).toEqual(['spec.clusterIPs: Invalid value: []string{"10.0.0.1", "10.0.0.2"}: may specify no more than one IP for each IP family']);
    expect(check({ clusterIP: 'fd00::1' })).toEqual(['spec.clusterIPs[0]: Invalid value: "fd00::1": expected an IPv4 value as indicated by `ipFamilies[0]`']);
    expect(check({ ipFamilies: ['IPv5', 'IPv5'], ipFamilyPolicy: 'Sometimes' })).toEqual([
      'spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"',
      'spec.ipFamilies[1]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"',
      'spec.ipFamilies[1]: Duplicate value: "IPv5"',
      'spec.ipFamilyPolicy: Unsupported value: "Sometimes": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
    ]);
  });

  it('keeps cluster IPs, families, the load balancer class and health check port on updates', () => {
    const old = svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] });
    expect(validateServiceUpdate(svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] }), old)).toEqual([]);
    expect(msgs(validateServiceUpdate(svc({ clusterIP: '10.0.0.6', clusterIPs: ['10.0.0.6'] }), old)))
      .toEqual(['spec.clusterIPs[0]: Invalid value: []string{"10.0.0.6"}: may not change once set']);
    expect(msgs(validateServiceUpdate(svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv6'] }), old)))
      .toEqual(['spec.clusterIPs[0]: Invalid value: "10.0.0.5": expected an IPv6 value as indicated by `ipFamilies[0]`']);
    const lb = (cls: string, hc: number) => svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: hc, allocateLoadBalancerNodePorts: true, loadBalancerClass: cls, clusterIP: '10.0.0.5' });
    expect(msgs(validateServiceUpdate(lb('b.io/x', 30002), lb('a.io/x', 30001)))).toEqual([
      'spec.healthCheckNodePort: Forbidden: field is immutable',
      'spec.loadBalancerClass: Invalid value: "b.io/x": may not change once set',
    ]);
    // to ExternalName and back: no IP rules
    const external = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type: 'ExternalName', externalName: 'x.example.com', sessionAffinity: 'None' } };
    expect(validateServiceUpdate(external, old)).toEqual([]);
  });
});
