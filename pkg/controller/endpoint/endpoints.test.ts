import { describe, expect, it } from 'vitest';
import { computeSubsets } from './endpoints.js';

const pod = (name: string, ip: string, o: { ready?: boolean; terminating?: boolean } = {}) => ({
  metadata: { name, namespace: 'ns', uid: `u-${name}`, labels: { app: 'a' }, ...(o.terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { nodeName: 'n1', containers: [{ name: 'c' }] },
  status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] },
});
const svc = (publish: boolean) => ({ metadata: { name: 's', namespace: 'ns' }, spec: { selector: { app: 'a' }, publishNotReadyAddresses: publish, ports: [{ port: 80 }] } });
const ips = (subsets: { addresses?: { ip: string }[]; notReadyAddresses?: { ip: string }[] }[]) =>
  subsets.map((s) => [(s.addresses ?? []).map((a) => a.ip), (s.notReadyAddresses ?? []).map((a) => a.ip)]);

describe('the endpoints controller\'s subsets', () => {
  it('lists terminating pods only under publishNotReadyAddresses, and then as ready, as upstream', () => {
    const pods = [pod('a', '10.0.0.1', { ready: true }), pod('b', '10.0.0.2'), pod('c', '10.0.0.3', { ready: true, terminating: true })];
    expect(ips(computeSubsets(svc(false), pods))).toEqual([[['10.0.0.1'], ['10.0.0.2']]]);
    expect(ips(computeSubsets(svc(true), pods))).toEqual([[['10.0.0.1', '10.0.0.2', '10.0.0.3'], []]]);
  });
});
