import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { NodeTopology, placementOf } from './node-topology.js';

const node = (name: string, podCIDR: string, ...addresses: string[]): KubeObject => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name },
  spec: { podCIDR, podCIDRs: [podCIDR] },
  status: { addresses: [...addresses.map((address) => ({ type: 'InternalIP', address })), { type: 'Hostname', address: name }] },
});

// `up --nodes 3`: one host, nodes at 127.0.0.1-3, the host also at 192.0.2.7; the proxy runs as node-1
const topology = new NodeTopology(
  [node('node-1', '10.244.0.0/24', '127.0.0.1'), node('node-2', '10.244.1.0/24', '127.0.0.2'), node('node-3', '10.244.2.0/24', '127.0.0.3')],
  'node-1', ['127.0.0.1', '192.0.2.7'],
);

describe('NodeTopology', () => {
  it('places a pod by its node\'s podCIDR, and a node by its addresses', () => {
    expect(topology.podNode('10.244.1.9')).toBe('node-2');
    expect(topology.podNode('10.245.0.1')).toBeUndefined();
    expect(topology.nodesAt('127.0.0.3')).toEqual(['node-3']);
    expect(topology.nodesAt('::ffff:127.0.0.2')).toEqual(['node-2']);
    expect(topology.receivers('192.0.2.7')).toEqual(['node-1']); // no node's address: the proxy's own node
    expect(topology.receivers(undefined)).toEqual(['node-1']);
  });

  it('internalTrafficPolicy Local: a pod\'s connection keeps to its node, the host\'s to the proxy\'s node', () => {
    expect(topology.internal('10.244.1.5')).toEqual(['node-2']);
    expect(topology.internal('10.244.2.5')).toEqual(['node-3']);
    expect(topology.internal('10.96.0.10')).toEqual(['node-1']);
    expect(topology.internal('127.0.0.2')).toEqual(['node-2']);
  });

  it('externalTrafficPolicy Local: from outside, the node it was sent to; pods and the node\'s own traffic anywhere', () => {
    expect(topology.external('198.51.100.4', '127.0.0.2')).toEqual(['node-2']);
    expect(topology.external('198.51.100.4', '192.0.2.7')).toEqual(['node-1']);
    expect(topology.external('198.51.100.4', undefined)).toEqual(['node-1']);
    // kube-proxy's short-cuts: pod traffic (any node's pods) and traffic from the node itself
    expect(topology.external('10.244.0.3', '127.0.0.2')).toBeUndefined();
    expect(topology.external('127.0.0.2', '127.0.0.2')).toBeUndefined();
    expect(topology.external('192.0.2.7', '127.0.0.3')).toBeUndefined(); // a host address no node has: every node's own
    // one node's address to another's: external to the receiving node, as between two machines
    expect(topology.external('127.0.0.1', '127.0.0.3')).toEqual(['node-3']);
  });

  it('nodes sharing an address are received at together; an IPv6 podCIDR is no pod range', () => {
    const shared = new NodeTopology([node('a', 'fd00::/64', '192.0.2.7'), node('b', '10.244.1.0/24', '192.0.2.7')], 'a', ['192.0.2.7']);
    expect(shared.external('198.51.100.4', '192.0.2.7')).toEqual(['a', 'b']);
    expect(shared.external('192.0.2.7', '192.0.2.7')).toBeUndefined();
    expect(shared.podNode('10.244.1.2')).toBe('b');
  });

  it('changes placement only with the pod ranges and addresses', () => {
    const n = node('node-1', '10.244.0.0/24', '127.0.0.1');
    expect(placementOf({ ...n, metadata: { name: 'node-1', resourceVersion: '9' } })).toBe(placementOf(n));
    expect(placementOf(node('node-1', '10.244.0.0/24', '127.0.0.5'))).not.toBe(placementOf(n));
  });
});
