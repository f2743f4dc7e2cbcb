// The cluster CIDR `up` gives node-ipam: one /24 per node, however many nodes; the kubelets' addresses.
import { describe, expect, it } from 'vitest';
import type { PkiPaths } from '../pkg/pki/index.js';
import { clusterCidr, kubelets, type ClusterLayout } from './components.js';

describe('clusterCidr', () => {
  it('is 10.244.0.0/16 up to 256 nodes and widens round 10.244.0.0 beyond', () => {
    expect([1, 3, 256, 257, 1_000, 10_000].map(clusterCidr)).toEqual(['10.244.0.0/16', '10.244.0.0/16', '10.244.0.0/16', '10.244.0.0/15', '10.244.0.0/14', '10.192.0.0/10']);
  });
});

describe('kubelets', () => {
  const layout = (bindAddress: string, runtime: 'process' | 'fake' = 'process'): ClusterLayout => ({
    dataDir: '/d', port: 6443, bindAddress, nodes: ['node-1', 'node-2', 'node-3'], runtime,
    pki: { nodes: {}, admin: {} } as unknown as PkiPaths,
  });
  const nodeIps = (c: ClusterLayout): (string | undefined)[] => kubelets(c).map((k) => k.args[k.args.indexOf('--node-ip') + 1]);

  it('give each node of a loopback cluster an address of its own, where its kubelet listens, as the fake runtime does', () => {
    expect(nodeIps(layout('127.0.0.1'))).toEqual(['127.0.0.1', '127.0.0.2', '127.0.0.3']);
    const [second] = kubelets(layout('127.0.0.1')).slice(1);
    expect(second!.args[second!.args.indexOf('--address') + 1]).toBe('127.0.0.2');
    expect(nodeIps(layout('127.0.0.1', 'fake'))).toEqual(['127.0.0.1']); // its simulated nodes count on from it
    expect(nodeIps(layout('::1'))).toEqual(['::1', '::1', '::1']);
    // on another address the kubelets report the machine's
    expect(kubelets(layout('0.0.0.0')).some((k) => k.args.includes('--node-ip'))).toBe(false);
  });
});
