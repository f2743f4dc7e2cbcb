// Host-local IPAM: addresses from the podCIDR after the gateway, never twice (also across a restart, which is a new
// allocator over the same directory), round-robin after a release, and a clear error when the range is full.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCidr } from './cidr.js';
import { HostLocalIpam } from './ipam.js';

describe('HostLocalIpam', () => {
  let dir = '';
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'ipam-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('hands out addresses after the gateway, the same one again to the same owner', async () => {
    const ipam = new HostLocalIpam(dir, '10.244.3.0/24');
    expect(ipam.gateway).toBe('10.244.3.1');
    expect(await ipam.allocate('a')).toBe('10.244.3.2');
    expect(await ipam.allocate('b')).toBe('10.244.3.3');
    expect(await ipam.allocate('a')).toBe('10.244.3.2');
    expect([...(await ipam.list()).entries()]).toEqual([['10.244.3.2', 'a'], ['10.244.3.3', 'b']]);
  });

  it('concurrent allocations get distinct addresses', async () => {
    const ipam = new HostLocalIpam(dir, '10.244.3.0/24');
    const ips = await Promise.all(Array.from({ length: 20 }, (_, i) => ipam.allocate(`s${i}`)));
    expect(new Set(ips).size).toBe(20);
  });

  it('a restarted allocator keeps reservations and goes on after the last one; a release frees the address', async () => {
    const first = new HostLocalIpam(dir, '10.244.3.0/24');
    await first.allocate('a');
    await first.allocate('b');
    await first.release('a');
    const second = new HostLocalIpam(dir, '10.244.3.0/24');
    expect(await second.allocate('c')).toBe('10.244.3.4');
    expect([...(await second.list()).keys()].sort()).toEqual(['10.244.3.3', '10.244.3.4']);
  });

  it('wraps around the range, skipping held addresses, and fails when full', async () => {
    const ipam = new HostLocalIpam(dir, '10.0.0.0/29'); // pods: .2 .. .6
    for (const id of ['a', 'b', 'c', 'd', 'e']) await ipam.allocate(id);
    await expect(ipam.allocate('f')).rejects.toThrow('no IP addresses available in range set: 10.0.0.2-10.0.0.6');
    await ipam.release('b');
    expect(await ipam.allocate('f')).toBe('10.0.0.3');
  });

  it('ignores files of another range', async () => {
    await new HostLocalIpam(dir, '10.0.0.0/29').allocate('a');
    const other = new HostLocalIpam(dir, '10.0.1.0/29');
    expect((await other.list()).size).toBe(0);
    expect(await other.allocate('b')).toBe('10.0.1.2');
  });

  it('rejects malformed CIDRs', () => {
    expect(() => parseCidr('10.0.0.1/24')).toThrow('host bits set');
    expect(() => parseCidr('10.0.0.0')).toThrow('invalid CIDR address');
    expect(() => parseCidr('10.0.0.0/31')).toThrow('too small');
    expect(() => parseCidr('300.0.0.0/8')).toThrow('not an IPv4 address');
  });
});
