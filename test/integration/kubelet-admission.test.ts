// The kubelet's admission against its own Node as its Node informer sees it (a label added by kubectl counts at
// once, not at the next node status update), a rejected pod's status as upstream's rejectPod leaves it (kubectl
// shows the reason), and why a container waiting behind init containers has no log yet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../pkg/client/index.js';
import { createBound, eventually, pod, startFakeNode, type FakeNode } from './kubelet-support.js';

const NODE = 'node-adm';

describe('kubelet: admission against the watched Node', () => {
  let n: FakeNode;

  // no status update during the test: the agent's own copy of the Node stays as registered
  beforeAll(async () => { n = await startFakeNode(NODE, { statusUpdateMs: 600_000 }); }, 30_000);
  afterAll(() => n?.stop());

  const get = (name: string): Promise<KubeObject> => n.admin.pods('default').get(name);

  it('admits a pod by a label added to its Node just before', async () => {
    expect((await n.api.kubectl('label', 'node', NODE, 'disk=ssd')).code).toBe(0);
    // the pod comes after the label, as the scheduler would bind it once its own cache has the label
    await eventually(async () => n.kubelet.host.nodes.indexer.getByKey(NODE)?.metadata?.labels?.disk === 'ssd', 10_000, 'the label in the Node informer');
    await createBound(n.admin, pod('on-ssd', { spec: { nodeSelector: { disk: 'ssd' } } }), NODE);
    const p = await eventually(async () => { const x = await get('on-ssd'); return ['Running', 'Failed'].includes(x.status?.phase as string) ? x : undefined; }, 15_000, 'on-ssd admitted or rejected');
    expect(p.status).toMatchObject({ phase: 'Running' });
    expect(p.status?.reason).toBeUndefined();
  });

  it('a rejected pod is Failed with the reason and no container statuses; kubectl shows the reason; it has no log', async () => {
    await createBound(n.admin, pod('on-hdd', { spec: { nodeSelector: { disk: 'hdd' } } }), NODE);
    const p = await eventually(async () => { const x = await get('on-hdd'); return x.status?.phase === 'Failed' ? x : undefined; }, 15_000, 'on-hdd Failed');
    expect(p.status).toMatchObject({
      reason: 'NodeAffinity', message: "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
      qosClass: 'BestEffort', startTime: expect.any(String),
    });
    expect(p.status?.containerStatuses).toBeUndefined();
    // upstream's status manager writes only conditions the kubelet does not own besides its own (none here): the
    // PodScheduled the binding set goes
    await eventually(async () => ((await get('on-hdd')).status?.conditions === undefined ? true : undefined), 10_000, 'no conditions');
    expect((await n.api.kubectl('get', 'pod', 'on-hdd')).stdout).toMatch(/on-hdd\s+0\/1\s+NodeAffinity\s+0\s/);
    expect(n.kubelet.host.kubelets.get(NODE)!.containerLogs(p, 'c', {})).toBe('container "c" in pod "on-hdd" is not available');
  });

  it('weighs requests against allocatable (capacity less the hard eviction thresholds), not capacity', async () => {
    const node = await n.admin.nodes().get(NODE);
    const capacity = (node.status?.capacity as Record<string, string>).memory;
    expect((node.status?.allocatable as Record<string, string>).memory).not.toBe(capacity);
    const c = { name: 'c', image: 'pause', resources: { requests: { memory: capacity } } };
    await createBound(n.admin, pod('whole-memory', { spec: { containers: [c] } }), NODE);
    const p = await eventually(async () => { const x = await get('whole-memory'); return x.status?.phase === 'Failed' ? x : undefined; }, 15_000, 'whole-memory Failed');
    expect(p.status).toMatchObject({ reason: 'OutOfmemory' });
  });

  it('a container waiting for its init containers has no log yet: PodInitializing', async () => {
    // the init container runs until stopped
    await createBound(n.admin, pod('initializing', { spec: { initContainers: [{ name: 'i', image: 'busybox:1.36' }] } }), NODE);
    const p = await eventually(async () => {
      const x = await get('initializing');
      return (x.status?.initContainerStatuses as Record<string, any>[] | undefined)?.[0]?.state?.running ? x : undefined;
    }, 15_000, 'init container running');
    expect(n.kubelet.host.kubelets.get(NODE)!.containerLogs(p, 'c', {})).toBe('container "c" in pod "initializing" is waiting to start: PodInitializing');
  });
});
