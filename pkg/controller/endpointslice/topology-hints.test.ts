import { describe, expect, it } from 'vitest';
import { cpuRatiosByZone, TopologyCache, type HintedEndpoint } from './topology-hints.js';

const node = (name: string, zone: string | undefined, cpu: string | undefined, o: { ready?: boolean; labels?: Record<string, string> } = {}) => ({
  metadata: { name, labels: { ...(zone ? { 'topology.kubernetes.io/zone': zone } : {}), ...o.labels } },
  status: { conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }], ...(cpu ? { allocatable: { cpu } } : {}) },
});
const ep = (ip: string, zone: string | undefined, ready = true, hint?: string): HintedEndpoint & { addresses: string[] } => ({
  addresses: [ip], conditions: { ready }, ...(zone ? { zone } : {}), ...(hint ? { hints: { forZones: [{ name: hint }] } } : {}),
});
const slice = (...endpoints: ReturnType<typeof ep>[]) => ({ ports: [], endpoints });
const hintsOf = (slices: { endpoints: HintedEndpoint[] }[]) => slices.flatMap((s) => s.endpoints.map((e) => e.hints?.forZones.map((z) => z.name).join() ?? null));
const cacheOver = (...nodes: ReturnType<typeof node>[]) => { const t = new TopologyCache(); t.setNodes(nodes); return t; };

describe('topology-aware hints (topologycache)', () => {
  it('weighs zones by the allocatable CPU of their ready nodes, leaving out control-plane nodes', () => {
    expect(cpuRatiosByZone([
      node('a1', 'a', '2'), node('a2', 'a', '1000m'), node('b1', 'b', '1'), node('b2', 'b', '8', { ready: false }),
      node('cp', 'c', '4', { labels: { 'node-role.kubernetes.io/control-plane': '' } }),
    ])).toEqual(new Map([['a', 0.75], ['b', 0.25]]));
    // any counted node without a zone or CPU, or a single zone, is not enough to go on
    expect(cpuRatiosByZone([node('a1', 'a', '2'), node('b1', undefined, '2')])).toBeUndefined();
    expect(cpuRatiosByZone([node('a1', 'a', '2'), node('b1', 'b', undefined)])).toBeUndefined();
    expect(cpuRatiosByZone([node('a1', 'a', '2'), node('a2', 'a', '2')])).toBeUndefined();
    // a not-ready node without a zone is ignored
    expect(cpuRatiosByZone([node('a1', 'a', '2'), node('b1', 'b', '2'), node('x', undefined, '2', { ready: false })])).toEqual(new Map([['a', 0.5], ['b', 0.5]]));
  });

  it('gives each zone endpoints in proportion to its CPU: same-zone hints first, then the surplus moved to zones short of theirs', () => {
    const t = cacheOver(node('a1', 'a', '3'), node('b1', 'b', '1'));
    const slices = [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'a'), ep('10.0.0.3', 'b'), ep('10.0.0.4', 'b'), ep('10.0.0.5', 'b', false))];
    expect(t.addHints('ns/s', slices, [])).toEqual([{ type: 'Normal', reason: 'TopologyAwareHintsEnabled', message: 'Topology Aware Hints has been enabled, addressType: IPv4' }]);
    // zone a wants 3 of the 4 ready endpoints: one of b's serves a; a not-ready endpoint gets none
    expect(hintsOf(slices)).toEqual(['a', 'a', 'a', 'b', null]);
    // enabled once: a second sync records nothing
    expect(t.addHints('ns/s', [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'a'), ep('10.0.0.3', 'b'), ep('10.0.0.4', 'b'))], [])).toEqual([]);
  });

  it('keeps the hints of an unchanged slice while they stay within every zone\'s allocation', () => {
    const t = cacheOver(node('a1', 'a', '2'), node('b1', 'b', '2'));
    const existing = { ports: [], endpoints: [ep('10.0.0.1', 'a', true, 'a'), ep('10.0.0.2', 'a', true, 'b'), ep('10.0.0.3', 'b', true, 'a'), ep('10.0.0.4', 'b', true, 'b')] };
    const fresh = () => [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'a'), ep('10.0.0.3', 'b'), ep('10.0.0.4', 'b'))];
    const kept = fresh();
    t.addHints('ns/s', kept, [existing]);
    expect(hintsOf(kept)).toEqual(['a', 'b', 'a', 'b']);
    // hints for a zone that no longer has nodes make the slice's hints be computed afresh
    const t2 = cacheOver(node('a1', 'a', '2'), node('c1', 'c', '2'));
    const redone = [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'a'), ep('10.0.0.3', 'c'), ep('10.0.0.4', 'c'))];
    t2.addHints('ns/s', redone, [{ ports: [], endpoints: redone[0]!.endpoints.map((e, i) => ({ ...e, hints: { forZones: [{ name: i % 2 ? 'b' : 'a' }] } })) }]);
    expect(hintsOf(redone)).toEqual(['a', 'a', 'c', 'c']);
  });

  it('gives no hints with fewer ready endpoints than zones', () => {
    const t = cacheOver(node('a1', 'a', '1'), node('b1', 'b', '1'), node('c1', 'c', '1'));
    const slices = [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'b'), ep('10.0.0.3', 'c', false))];
    expect(t.addHints('ns/s', slices, [])).toEqual([{
      type: 'Warning', reason: 'TopologyAwareHintsDisabled', message: 'Insufficient number of endpoints (2 endpoints, 3 zones), addressType: IPv4',
    }]);
    expect(hintsOf(slices)).toEqual([null, null, null]);
  });

  it('gives no hints without sufficient node information, or when an endpoint has no zone', () => {
    const noInfo = cacheOver(node('a1', 'a', '1'), node('b1', undefined, '1'));
    const slices = [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'a'))];
    expect(noInfo.addHints('ns/s', slices, [])).toEqual([{
      type: 'Warning', reason: 'TopologyAwareHintsDisabled',
      message: 'Insufficient Node information: allocatable CPU or zone not specified on one or more nodes, addressType: IPv4',
    }]);
    expect(hintsOf(slices)).toEqual([null, null]);
    const t = cacheOver(node('a1', 'a', '1'), node('b1', 'b', '1'));
    const zoneless = [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'a'), ep('10.0.0.3', 'b'), ep('10.0.0.4', undefined))];
    expect(t.addHints('ns/s', zoneless, [])).toEqual([{
      type: 'Warning', reason: 'TopologyAwareHintsDisabled', message: 'One or more endpoints do not have a zone specified, addressType: IPv4',
    }]);
    expect(hintsOf(zoneless)).toEqual([null, null, null, null]);
  });

  it('gives no hints when a zone\'s minimum would overload the others, and requeues services overloaded by a node change', () => {
    const t = cacheOver(node('a1', 'a', '1'), node('b1', 'b', '1'));
    const three = [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'a'), ep('10.0.0.3', 'b'))];
    expect(t.addHints('ns/s', three, [])).toEqual([{
      type: 'Warning', reason: 'TopologyAwareHintsDisabled',
      message: 'Unable to allocate minimum required endpoints to each zone without exceeding overload threshold (3 endpoints, 2 zones), addressType: IPv4',
    }]);
    expect(hintsOf(three)).toEqual([null, null, null]);

    const four = [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'a'), ep('10.0.0.3', 'b'), ep('10.0.0.4', 'b'))];
    t.addHints('ns/t', four, []);
    expect(t.overloadedServices()).toEqual([]);
    // zone b's capacity triples: its 2 of 4 endpoints are below the 3 it needs at least
    t.setNodes([node('a1', 'a', '1'), node('b1', 'b', '3')]);
    expect(t.overloadedServices()).toEqual(['ns/t']);
  });

  it('records the hints\' removal once when the annotation goes', () => {
    const t = cacheOver(node('a1', 'a', '1'), node('b1', 'b', '1'));
    t.addHints('ns/s', [slice(ep('10.0.0.1', 'a'), ep('10.0.0.2', 'b'))], []);
    expect(t.disable('ns/s')).toEqual([{ type: 'Warning', reason: 'TopologyAwareHintsDisabled', message: 'Topology Aware Hints has been disabled, addressType: IPv4' }]);
    expect(t.disable('ns/s')).toEqual([]);
  });
});
