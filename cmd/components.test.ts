// The cluster CIDR `up` gives node-ipam: one /24 per node, however many nodes.
import { describe, expect, it } from 'vitest';
import { clusterCidr } from './components.js';

describe('clusterCidr', () => {
  it('is 10.244.0.0/16 up to 256 nodes and widens round 10.244.0.0 beyond', () => {
    expect([1, 3, 256, 257, 1_000, 10_000].map(clusterCidr)).toEqual(['10.244.0.0/16', '10.244.0.0/16', '10.244.0.0/16', '10.244.0.0/15', '10.244.0.0/14', '10.192.0.0/10']);
  });
});
