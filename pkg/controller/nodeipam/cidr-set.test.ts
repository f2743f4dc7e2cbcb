// The node CIDR set: blocks handed out round-robin, taken blocks skipped, exhaustion and bad sizes refused.
import { describe, expect, it } from 'vitest';
import { CidrSet, NO_CIDRS_LEFT } from './cidr-set.js';

describe('CidrSet', () => {
  it('hands out /24 blocks of a /16 in order, skipping occupied ones, and not reusing a released one at once', () => {
    const s = new CidrSet('10.244.0.0/16', 24);
    s.occupy('10.244.1.0/24');
    expect([s.allocateNext(), s.allocateNext()]).toEqual(['10.244.0.0/24', '10.244.2.0/24']);
    s.release('10.244.0.0/24');
    expect(s.allocateNext()).toBe('10.244.3.0/24');
  });

  it('runs out with upstream\'s error, and a release makes room again', () => {
    const s = new CidrSet('10.1.0.0/23', 24);
    expect([s.allocateNext(), s.allocateNext()]).toEqual(['10.1.0.0/24', '10.1.1.0/24']);
    expect(() => s.allocateNext()).toThrow(NO_CIDRS_LEFT);
    s.release('10.1.0.0/24');
    expect(s.allocateNext()).toBe('10.1.0.0/24');
  });

  it('occupies every block a larger CIDR covers; refuses one outside the cluster CIDR', () => {
    const s = new CidrSet('10.0.0.0/22', 24);
    s.occupy('10.0.0.0/23');
    expect(s.allocateNext()).toBe('10.0.2.0/24');
    expect(() => s.occupy('192.168.0.0/24')).toThrow('cidr 192.168.0.0/24 is out the range of cluster cidr 10.0.0.0/22');
  });

  it('refuses a node size bigger than the cluster or more than 2^16 blocks; drops host bits like net.ParseCIDR', () => {
    expect(() => new CidrSet('10.244.0.0/16', 8)).toThrow('the node CIDR size is too big');
    expect(() => new CidrSet('10.0.0.0/8', 25)).toThrow('the node CIDR size is too big');
    expect(new CidrSet('10.244.7.1/16', 24).allocateNext()).toBe('10.244.0.0/24');
  });
});
