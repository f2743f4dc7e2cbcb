// NetworkPolicy spec rules, each with upstream's path and message.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { networkPolicyStrategy, validateNetworkPolicySpec } from './networkpolicies.js';

const msgs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const np = (spec: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'n', namespace: 'd' }, spec: { podSelector: {}, ...spec } });
const ctx = {} as never;

describe('NetworkPolicy', () => {
  it('takes valid policies', () => {
    expect(validateNetworkPolicySpec(np({}))).toEqual([]);
    expect(validateNetworkPolicySpec(np({
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ ports: [{ protocol: 'TCP', port: 80, endPort: 90 }, { protocol: 'SCTP', port: 'http' }], from: [{ podSelector: {}, namespaceSelector: { matchLabels: { a: 'b' } } }, { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }] }],
      egress: [{ to: [{ ipBlock: { cidr: '2001:db8::/32', except: ['2001:db8:1::/48'] } }] }],
    }))).toEqual([]);
  });

  it('checks the ports', () => {
    expect(msgs(validateNetworkPolicySpec(np({ ingress: [{ ports: [
      { protocol: 'XTP', port: 0 }, { port: 100, endPort: 90 }, { port: 'http', endPort: 90 }, { endPort: 70000 }, { port: 'Bad--' }, { port: 70000, endPort: 0 },
    ] }] })))).toEqual([
      'spec.ingress[0].ports[0].protocol: Unsupported value: "XTP": supported values: "TCP", "UDP", "SCTP"',
      'spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      // upstream's value here is the port, not the endPort
      'spec.ingress[0].ports[1].endPort: Invalid value: 100: must be greater than or equal to `port`',
      'spec.ingress[0].ports[2].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.ingress[0].ports[3].endPort: Invalid value: 70000: may not be specified when `port` is not specified',
      'spec.ingress[0].ports[4].port: Invalid value: "Bad--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.ingress[0].ports[4].port: Invalid value: "Bad--": must not contain consecutive hyphens',
      'spec.ingress[0].ports[4].port: Invalid value: "Bad--": must not begin or end with a hyphen',
      'spec.ingress[0].ports[5].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ingress[0].ports[5].endPort: Invalid value: 70000: must be greater than or equal to `port`',
      'spec.ingress[0].ports[5].endPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
  });

  it('checks the peers', () => {
    expect(msgs(validateNetworkPolicySpec(np({ egress: [{ to: [
      {}, { podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } }, { ipBlock: {} }, { ipBlock: { cidr: '10.0.0.0/33' } },
      { ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.0.0/16', '11.0.0.0/24', 'x', '10.0.1.0/24'] } },
    ] }] })))).toEqual([
      'spec.egress[0].to[0]: Required value: must specify a peer',
      'spec.egress[0].to[1]: Forbidden: may not specify both ipBlock and another peer',
      'spec.egress[0].to[2].ipBlock.cidr: Required value',
      'spec.egress[0].to[3].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.egress[0].to[4].ipBlock.except[0]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`',
      'spec.egress[0].to[4].ipBlock.except[1]: Invalid value: "11.0.0.0/24": must be a strict subset of `cidr`',
      'spec.egress[0].to[4].ipBlock.except[2]: Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    expect(msgs(validateNetworkPolicySpec(np({ podSelector: { matchLabels: { 'a b': 'c' } }, ingress: [{ from: [{ namespaceSelector: { matchExpressions: [{ key: 'k', operator: 'Exists', values: ['v'] }] } }] }] }))))
      .toEqual([
        expect.stringMatching(/^spec\.podSelector\.matchLabels: Invalid value: "a b": name part must consist of alphanumeric characters/),
        "spec.ingress[0].from[0].namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ]);
  });

  it('checks policyTypes', () => {
    expect(msgs(validateNetworkPolicySpec(np({ policyTypes: ['Ingress', 'Foo'] })))).toEqual(['spec.policyTypes[1]: Unsupported value: "Foo": supported values: "Ingress", "Egress"']);
    expect(msgs(validateNetworkPolicySpec(np({ policyTypes: ['Ingress', 'Egress', 'Foo'] }))))
      .toEqual(['spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Foo"}: may not specify more than two policyTypes']);
  });

  it('reports an update\'s errors twice, as upstream does, and ratchets invalid label values', () => {
    const bad = np({ policyTypes: ['Foo'] });
    expect(msgs(networkPolicyStrategy.validateUpdate!(bad, np({}), ctx))).toEqual([
      'spec.policyTypes[0]: Unsupported value: "Foo": supported values: "Ingress", "Egress"',
      'spec.policyTypes[0]: Unsupported value: "Foo": supported values: "Ingress", "Egress"',
    ]);
    const badValue = np({ podSelector: { matchExpressions: [{ key: 'k', operator: 'In', values: ['a b'] }] } });
    expect(msgs(networkPolicyStrategy.validate!(badValue, ctx))).toHaveLength(1);
    expect(networkPolicyStrategy.validateUpdate!(badValue, badValue, ctx)).toEqual([]);
  });
});
