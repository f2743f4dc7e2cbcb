import { describe, expect, it } from 'vitest';
import { IpAllocator, PortAllocator } from './ip-allocator.js';

/** The address's offset from 10.96.0.0. */
const offset = (ip: string): number => ip.split('.').map(Number).reduce((n, o) => n * 256 + o, 0) - ((10 * 256 + 96) * 65536);

describe('ClusterIP allocation', () => {
  it('takes random addresses of the upper band first, as upstream (the lower 256 of a /12 are for addresses users choose)', () => {
    const a = new IpAllocator('10.96.0.0/12');
    const ips = Array.from({ length: 50 }, () => a.allocateNext());
    expect(new Set(ips).size).toBe(50);
    for (const ip of ips) {
      expect(a.contains(ip)).toBe(true);
      expect(offset(ip)).toBeGreaterThan(256); // the lower band is 10.96.0.1-10.96.1.0
    }
    expect(ips).not.toEqual([...ips].sort((x, y) => offset(x) - offset(y))); // not handed out in order
  });

  it('falls back to the lower band once the upper one is full, and never hands out one address twice', () => {
    const a = new IpAllocator('10.0.0.0/27'); // 30 usable addresses, a lower band of 16
    const ips = Array.from({ length: 30 }, () => a.allocateNext());
    expect(new Set(ips).size).toBe(30);
    expect(ips.slice(0, 14).every((ip) => Number(ip.split('.')[3]) > 16)).toBe(true);
    expect(() => a.allocateNext()).toThrow('range is full');
    a.release(ips[3]!);
    expect(a.allocateNext()).toBe(ips[3]);
  });
});

describe('NodePort allocation', () => {
  it('takes random ports above the lower band (30000-30085) first', () => {
    const p = new PortAllocator();
    const ports = Array.from({ length: 50 }, () => p.allocateNext());
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) expect(port).toBeGreaterThanOrEqual(30086);
    for (const port of ports) expect(port).toBeLessThanOrEqual(32767);
    p.allocate(30000); // a chosen one in the lower band
    expect(() => p.allocate(30000)).toThrow('provided port is already allocated');
  });
});
