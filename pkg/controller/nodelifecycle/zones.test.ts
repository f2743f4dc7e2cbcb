import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { ZoneEvictions, countedZoneStates, type EvictionRates, type ZoneCount } from './zones.js';

const node = (name: string, zone: string, ready: boolean, labels: Record<string, string> = {}): { node: KubeObject; ready: boolean } => ({
  node: { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'topology.kubernetes.io/zone': zone, ...labels } } }, ready,
});

const clock = (): { t: number; now(): number } => ({ t: 0, now() { return this.t; } });
/** Upstream's defaults but for the primary rate. */
const rates = (primary: number, o: Partial<EvictionRates> = {}): EvictionRates => ({ primary, secondary: 0.01, largeClusterThreshold: 50, ...o });

describe('countedZoneStates (upstream ComputeZoneState over the nodes not excluded)', () => {
  it('leaves nodes labelled node.kubernetes.io/exclude-disruption (any value) out of their zone', () => {
    const states = countedZoneStates([
      node('a1', 'a', false), node('a2', 'a', true, { 'node.kubernetes.io/exclude-disruption': '' }),
      node('b1', 'b', true, { 'node.kubernetes.io/exclude-disruption': 'true' }),
    ].map(({ node: n, ready }) => ({ node: n, ready })), 0.55);
    // a: its only ready node is excluded → fully disrupted; b: nothing counted → no state at all
    expect([...states.entries()]).toEqual([[':\x00:a', { state: 'FullDisruption', size: 1 }]]);
  });

  it('counts a zone partially disrupted from --unhealthy-zone-threshold of its nodes not ready, never under 3 of them', () => {
    const zone = (notReady: number, size: number) => Array.from({ length: size }, (_, i) => node(`n${i}`, 'a', i >= notReady));
    const stateOf = (notReady: number, size: number, threshold: number) => countedZoneStates(zone(notReady, size), threshold).get(':\x00:a')?.state;
    expect(stateOf(3, 10, 0.55)).toBe('Normal');
    expect(stateOf(3, 10, 0.3)).toBe('PartialDisruption'); // at the threshold counts
    expect(stateOf(3, 10, 0.31)).toBe('Normal');
    expect(stateOf(2, 4, 0.1)).toBe('Normal'); // two not ready never make a zone unhealthy
    expect(stateOf(6, 10, 0.55)).toBe('PartialDisruption');
  });
});

describe('ZoneEvictions.handleDisruption (upstream handleDisruption)', () => {
  const full: ZoneCount = { state: 'FullDisruption', size: 2 };
  const normal: ZoneCount = { state: 'Normal', size: 2 };

  it('enters full disruption only on the pass every zone becomes fully disrupted, and stops tainting everywhere until it exits', () => {
    const c = clock();
    const z = new ZoneEvictions(c, rates(1));
    expect(z.handleDisruption(new Map([['a', normal], ['b', normal]]))).toBeUndefined();
    expect(z.handleDisruption(new Map([['a', full], ['b', normal]]))).toBeUndefined();
    // one zone down, not all: it is tainted at the primary rate still (upstream's HealthyQPSFunc)
    expect(z.tryTake('a')).toBe(true);
    expect(z.handleDisruption(new Map([['a', full], ['b', full]]))).toBe('enter');
    expect(z.handleDisruption(new Map([['a', full], ['b', full]]))).toBeUndefined();
    c.t += 60_000;
    expect(z.tryTake('a')).toBe(false);
    expect(z.tryTake('b')).toBe(false);
    expect(z.handleDisruption(new Map([['a', full], ['b', normal]]))).toBe('exit');
    // the limiter coming back from a stop starts drained, as upstream's SwapLimiter: a token a second later
    expect(z.tryTake('b')).toBe(false);
    c.t += 1_000;
    expect(z.tryTake('a')).toBe(true);
    expect(z.tryTake('b')).toBe(true);
  });

  it('a first pass with every zone down enters at once; no counted node at all changes nothing', () => {
    expect(new ZoneEvictions(clock(), rates(1)).handleDisruption(new Map([['a', full]]))).toBe('enter');
    expect(new ZoneEvictions(clock(), rates(1)).handleDisruption(new Map())).toBeUndefined();
  });

  it('sets a zone\'s rate only when its state changes, from its counted size then', () => {
    const c = clock();
    const z = new ZoneEvictions(c, rates(1));
    z.handleDisruption(new Map<string, ZoneCount>([['a', { state: 'PartialDisruption', size: 51 }], ['b', normal]]));
    expect(z.tryTake('a')).toBe(true); // a full bucket at first (burst 1)
    c.t += 50_000;
    expect(z.tryTake('a')).toBe(false); // 0.01/s: not yet
    c.t += 60_000;
    expect(z.tryTake('a')).toBe(true);
    z.handleDisruption(new Map<string, ZoneCount>([['a', { state: 'PartialDisruption', size: 3 }], ['b', normal]]));
    c.t += 100_000;
    expect(z.tryTake('a')).toBe(true); // still its rate: the state did not change
    z.handleDisruption(new Map<string, ZoneCount>([['a', { state: 'Normal', size: 3 }], ['b', normal]]));
    z.handleDisruption(new Map<string, ZoneCount>([['a', { state: 'PartialDisruption', size: 3 }], ['b', normal]]));
    c.t += 100_000;
    expect(z.tryTake('a')).toBe(false); // a small zone partially disrupted: stopped
    // a zone with no counted node: the primary rate, a full bucket each pass
    expect(z.tryTake('c')).toBe(true);
    z.handleDisruption(new Map([['b', normal]]));
    expect(z.tryTake('a')).toBe(true);
    expect(z.tryTake('c')).toBe(true);
  });

  it('a partially disrupted zone larger than --large-cluster-size-threshold is tainted at --secondary-node-eviction-rate, one not larger not at all', () => {
    const c = clock();
    const z = new ZoneEvictions(c, rates(1, { secondary: 0.5, largeClusterThreshold: 10 }));
    z.handleDisruption(new Map<string, ZoneCount>([['big', { state: 'PartialDisruption', size: 11 }], ['small', { state: 'PartialDisruption', size: 10 }], ['b', normal]]));
    expect(z.tryTake('big')).toBe(true); // upstream's SwapLimiter: a full bucket stays full
    expect(z.tryTake('small')).toBe(false); // 10 nodes is not larger than 10: stopped
    c.t += 1_000;
    expect(z.tryTake('big')).toBe(false); // 0.5/s: a token every 2 s
    c.t += 1_000;
    expect(z.tryTake('big')).toBe(true);
    c.t += 3_600_000;
    expect(z.tryTake('small')).toBe(false);
    // back to Normal: the primary rate
    z.handleDisruption(new Map<string, ZoneCount>([['big', { state: 'Normal', size: 11 }], ['small', { state: 'Normal', size: 10 }], ['b', normal]]));
    c.t += 1_000;
    expect(z.tryTake('small')).toBe(true);
  });
});
