// status.capacity and status.allocatable as upstream's kubelet reports them: allocatable is the capacity less the
// hard eviction thresholds (memory.available from memory, nodefs.available from ephemeral-storage).
import { describe, expect, it } from 'vitest';
import { parseThresholds } from './eviction.js';
import { allocatableOf, nodeStatus, type NodeIdentity } from './node-status.js';

const identity = (o: Partial<NodeIdentity> = {}): NodeIdentity => ({
  name: 'n1', ip: '10.0.0.1', runtimeVersion: 'fake://1', resources: { cpu: '4', memory: '16336452Ki', pods: 110 }, ...o,
});

describe('node status resources', () => {
  it('reserves the default hard eviction thresholds (100Mi of memory, 10% of ephemeral-storage) from allocatable', () => {
    const s = nodeStatus(identity(), { ready: true }, undefined, Date.now());
    expect(s.capacity).toEqual({ cpu: '4', 'ephemeral-storage': '102400Mi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16336452Ki', pods: '110' });
    // 10% as upstream's float32 share of 107374182400 bytes: 10737418400 (no multiple of 1024, so plain bytes)
    expect(s.allocatable).toEqual({ cpu: '4', 'ephemeral-storage': '96636764000', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '16234052Ki', pods: '110' });
  });

  it('honours --eviction-hard: none reserves nothing; quantities keep the capacity\'s format; never below 0', () => {
    const none = nodeStatus(identity({ evictionHard: [] }), { ready: true }, undefined, Date.now());
    expect(none.allocatable).toEqual(none.capacity);
    const cap = { cpu: '2', memory: '8Gi', 'ephemeral-storage': '102400Mi', pods: '110' };
    expect(allocatableOf(cap, parseThresholds('memory.available<100Mi,nodefs.available<1Gi')))
      .toEqual({ cpu: '2', memory: '8092Mi', 'ephemeral-storage': '99Gi', pods: '110' });
    expect(allocatableOf(cap, parseThresholds('memory.available<20Gi'))).toMatchObject({ memory: '0' });
  });

  it('gives each status lists of its own', () => {
    const id = identity();
    const a = nodeStatus(id, { ready: true }, undefined, Date.now());
    (a.allocatable as Record<string, string>).cpu = '1';
    expect((nodeStatus(id, { ready: true }, undefined, Date.now()).allocatable as Record<string, string>).cpu).toBe('4');
  });
});
