// The node-ipam controller (range allocator) in an in-process controller-manager with per-controller credentials:
// Nodes without spec.podCIDR get the next /24 of the cluster CIDR, podCIDRs already given are kept and never given
// twice, a deleted Node's range is freed, and an exhausted range says CIDRNotAvailable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../pkg/client/index.js';
import { eventually, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(['nodeipam'], {
    config: { allocateNodeCidrs: true, clusterCidr: '10.9.0.0/22', nodeCidrMaskSize: 24 },
    // a node that already has a range (a kubelet's --pod-cidr) before the controller starts
    seed: (c) => c.nodes().create({ metadata: { name: 'given' }, spec: { podCIDR: '10.9.0.0/24', podCIDRs: ['10.9.0.0/24'] } }),
  });
});
afterAll(async () => { await h?.stop(); });

const podCidr = (name: string) => eventually(() => h.c.nodes().get(name), (n: KubeObject) => !!n.spec?.podCIDR, `${name}'s podCIDR`);

describe('node-ipam controller', () => {
  it('gives new nodes free ranges, frees a deleted node\'s, and reports CIDRNotAvailable when none is left', async () => {
    const { c } = h;
    await c.nodes().create({ metadata: { name: 'a' } });
    const a = await podCidr('a');
    expect(a.spec).toMatchObject({ podCIDR: '10.9.1.0/24', podCIDRs: ['10.9.1.0/24'] });
    await c.nodes().create({ metadata: { name: 'b' } });
    await c.nodes().create({ metadata: { name: 'c' } });
    expect((await podCidr('b')).spec!.podCIDR).toBe('10.9.2.0/24');
    expect((await podCidr('c')).spec!.podCIDR).toBe('10.9.3.0/24');
    expect((await c.nodes().get('given')).spec!.podCIDR).toBe('10.9.0.0/24');

    await c.nodes().create({ metadata: { name: 'd' } });
    await eventually(() => c.events('default').list({ fieldSelector: 'involvedObject.name=d' }),
      (l) => l.items.some((e: KubeObject) => e.reason === 'CIDRNotAvailable'), 'CIDRNotAvailable event');
    const ev = (await c.events('default').list({ fieldSelector: 'involvedObject.name=d' })).items.find((e: KubeObject) => e.reason === 'CIDRNotAvailable')!;
    expect(ev).toMatchObject({ type: 'Normal', message: 'Node d status is now: CIDRNotAvailable', source: { component: 'cidrAllocator' } });

    await c.nodes().delete('b');
    expect((await podCidr('d')).spec!.podCIDR).toBe('10.9.2.0/24');
  });
});
