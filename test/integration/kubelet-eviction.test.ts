// Node-pressure eviction on the process runtime: a memory.available threshold no machine can meet puts the node
// under MemoryPressure (kubectl shows the condition), refuses new BestEffort pods at admission and evicts the pods
// that run, with upstream's reasons and messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { parseThresholds } from '../../pkg/kubelet/index.js';
import { condition, createBound, eventually, pod, type ProcessNode, startProcessNode } from './kubelet-support.js';

const NODE = 'node-pressure';

describe('kubelet: node-pressure eviction', { timeout: 60_000 }, () => {
  let n: ProcessNode;
  let admin: Client;

  beforeAll(async () => {
    // the node claims more memory than the threshold (allocatable is what is left: 1000Ti), the machine has less
    n = await startProcessNode(NODE, { evictionHard: parseThresholds('memory.available<1000Ti'), evictionMonitoringMs: 300, resources: { memory: '2000Ti' } });
    admin = n.admin;
  }, 30_000);

  afterAll(() => n?.stop());

  it('reports MemoryPressure, refuses BestEffort pods and evicts running ones', async () => {
    await eventually(async () => condition(await admin.nodes().get(NODE), 'MemoryPressure')?.status === 'True', 10_000, 'MemoryPressure');
    const node = await admin.nodes().get(NODE);
    expect(condition(node, 'MemoryPressure')).toMatchObject({ reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' });
    expect(condition(node, 'DiskPressure')).toMatchObject({ status: 'False' });
    expect((await n.api.kubectl('describe', 'node', NODE)).stdout).toMatch(/MemoryPressure\s+True\s.*KubeletHasInsufficientMemory/);

    await createBound(admin, pod('besteffort', { spec: { containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '60'] }] } }), NODE);
    const refused = await eventually(async () => { const p = await admin.pods('default').get('besteffort'); return p.status?.phase === 'Failed' ? p : undefined; }, 10_000, 'besteffort refused');
    // upstream's rejectPod: "Pod was rejected: " before the eviction manager's reason, no DisruptionTarget (the pod never ran)
    expect(refused.status).toMatchObject({ reason: 'Evicted', message: 'Pod was rejected: The node had condition: [MemoryPressure]. ' });
    expect(condition(refused, 'DisruptionTarget')).toBeUndefined();
    expect(refused.status?.containerStatuses).toBeUndefined();

    const burstable = { name: 'sh', image: 'busybox', command: ['sleep', '60'], resources: { requests: { memory: '10Mi' } } };
    await createBound(admin, pod('burstable', { spec: { containers: [burstable] } }), NODE);
    const evicted: KubeObject = await eventually(async () => { const p = await admin.pods('default').get('burstable'); return p.status?.reason === 'Evicted' && p.status.phase === 'Failed' ? p : undefined; }, 15_000, 'burstable evicted');
    expect(evicted.status?.message).toMatch(/^The node was low on resource: memory\. Threshold quantity: 1000Ti, available: \d+Ki\. $/);
    expect(condition(evicted, 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'TerminationByKubelet' });
    const events = (await admin.events('default').list({ fieldSelector: 'involvedObject.name=burstable,reason=Evicted' })).items;
    expect(events.map((e) => e.type)).toContain('Warning');
  });
});
