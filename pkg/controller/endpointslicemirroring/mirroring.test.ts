import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../client/index.js';
import { mirroredSlices, mirroringRateLimiter } from './mirroring.js';

const ep = (subsets: unknown[]) => ({ metadata: { name: 'e', namespace: 'ns' }, subsets });
const ips = (n: number) => Array.from({ length: n }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}` }));

describe('the mirroring controller\'s slices', () => {
  it('repacks the subsets first: addresses deduplicated (not-ready winning), ports of the same addresses together', () => {
    const { slices } = mirroredSlices(ep([
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }] },
      { notReadyAddresses: [{ ip: '10.0.0.2' }], addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }] },
      { addresses: [{ ip: '10.0.0.1' }], notReadyAddresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'b', port: 81, protocol: 'TCP' }] },
      { addresses: [{ ip: 'fd00::1' }] },
    ]));
    expect(slices).toEqual([
      {
        addressType: 'IPv4', ports: [{ name: 'a', port: 80, protocol: 'TCP' }, { name: 'b', port: 81, protocol: 'TCP' }],
        endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true } }, { addresses: ['10.0.0.2'], conditions: { ready: false } }],
      },
      { addressType: 'IPv6', ports: [], endpoints: [{ addresses: ['fd00::1'], conditions: { ready: true } }] },
    ]);
  });

  it('mirrors at most 1000 addresses of a subset, into one slice, counting the skipped and the invalid', () => {
    // (addresses are taken in repacked order, sorted by IP: the invalid one comes first)
    const m = mirroredSlices(ep([{ addresses: [{ ip: '1.2.3' }, ...ips(1003)], notReadyAddresses: [{ ip: '10.9.9.9' }], ports: [{ port: 80, protocol: 'TCP' }] }]));
    expect(m.slices.map((s) => s.endpoints.length)).toEqual([1000]);
    expect([m.invalid, m.skipped]).toEqual([1, 5]);
  });
});

describe('the mirroring controller\'s retries', () => {
  it('back off from 1 s to 100 s, as upstream\'s queue (defaultSyncBackOff, maxSyncBackOff), not client-go\'s 5 ms', () => {
    const limiter = mirroringRateLimiter(new FakeClock(0));
    expect(Array.from({ length: 9 }, () => limiter.when('ns/e'))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 100_000, 100_000]);
    limiter.forget('ns/e');
    expect(limiter.when('ns/e')).toBe(1_000);
  });
});
