import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

const { definitions, defaulters } = groupVersion;
const N = 'io.k8s.api.networking.v1.';

describe('networking/v1', () => {
  it('references only known definitions (core aside)', () => {
    const outside = danglingRefs(definitions, { ...meta, ...definitions }).filter((r) => !r.includes('-> io.k8s.api.core.v1.'));
    expect(outside).toEqual([]);
  });

  it('defaults policyTypes from the rules present', () => {
    const ingressOnly: Record<string, any> = { spec: { podSelector: {} } };
    const withEgress: Record<string, any> = { spec: { podSelector: {}, egress: [{}] } };
    const explicit: Record<string, any> = { spec: { podSelector: {}, egress: [{}], policyTypes: ['Egress'] } };
    for (const np of [ingressOnly, withEgress, explicit]) defaulters![`${N}NetworkPolicy`](np);
    expect([ingressOnly, withEgress, explicit].map((np) => np.spec.policyTypes)).toEqual([['Ingress'], ['Ingress', 'Egress'], ['Egress']]);
  });

  it('defaults port protocols to TCP and parameter scope to Cluster', () => {
    const port: Record<string, any> = { port: 80 };
    defaulters![`${N}NetworkPolicyPort`](port);
    const ic: Record<string, any> = { spec: { parameters: { kind: 'K', name: 'n' } } };
    defaulters![`${N}IngressClass`](ic);
    expect([port.protocol, ic.spec.parameters.scope]).toEqual(['TCP', 'Cluster']);
  });

  it('serves ingresses as ing with status', () => {
    const ing = groupVersion.resources.find((r) => r.plural === 'ingresses')!;
    expect([ing.shortNames, ing.subresources?.map((s) => s.name)]).toEqual([['ing'], ['status']]);
  });
});
