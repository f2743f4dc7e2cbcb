// Node-pressure eviction on the process runtime: a memory.available threshold no machine can meet puts the node
// under MemoryPressure (kubectl shows the condition), refuses new BestEffort pods at admission and evicts the pods
// that run, with upstream's reasons and messages.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type KubeObject } from '../../pkg/client/index.js';
import { parseThresholds, ProcessRuntime } from '../../pkg/kubelet/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { condition, createBound, eventually, nodeClient, pod, publishRootCa, type RunningKubelet, startKubelet } from './kubelet-support.js';

const NODE = 'node-pressure';

describe('kubelet: node-pressure eviction', { timeout: 60_000 }, () => {
  let api: TestApiServer;
  let admin: Client;
  let kubelet: RunningKubelet;
  let dir = '';

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    dir = await mkdtemp(join(tmpdir(), 'mini-kube-eviction-'));
    await publishRootCa(api, admin);
    kubelet = startKubelet(await nodeClient(api, NODE), [NODE], {
      nodeIpFor: () => '127.0.0.1',
      runtimeFor: (_i, _n, hostIp) => new ProcessRuntime({ rootDir: dir, hostIp }),
      evictionHard: parseThresholds('memory.available<1000Ti'), evictionMonitoringMs: 300,
    });
    await kubelet.host.whenRegistered();
  }, 30_000);

  afterAll(async () => {
    await kubelet?.stop();
    await admin?.close();
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reports MemoryPressure, refuses BestEffort pods and evicts running ones', async () => {
    await eventually(async () => condition(await admin.nodes().get(NODE), 'MemoryPressure')?.status === 'True', 10_000, 'MemoryPressure');
    const node = await admin.nodes().get(NODE);
    expect(condition(node, 'MemoryPressure')).toMatchObject({ reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' });
    expect(condition(node, 'DiskPressure')).toMatchObject({ status: 'False' });
    expect((await api.kubectl('describe', 'node', NODE)).stdout).toMatch(/MemoryPressure\s+True\s.*KubeletHasInsufficientMemory/);

    await createBound(admin, pod('besteffort', { spec: { containers: [{ name: 'sh', image: 'busybox', command: ['sleep', '60'] }] } }), NODE);
    const refused = await eventually(async () => { const p = await admin.pods('default').get('besteffort'); return p.status?.phase === 'Failed' ? p : undefined; }, 10_000, 'besteffort refused');
    expect(refused.status).toMatchObject({ reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' });

    const burstable = { name: 'sh', image: 'busybox', command: ['sleep', '60'], resources: { requests: { memory: '10Mi' } } };
    await createBound(admin, pod('burstable', { spec: { containers: [burstable] } }), NODE);
    const evicted: KubeObject = await eventually(async () => { const p = await admin.pods('default').get('burstable'); return p.status?.reason === 'Evicted' && p.status.phase === 'Failed' ? p : undefined; }, 15_000, 'burstable evicted');
    expect(evicted.status?.message).toMatch(/^The node was low on resource: memory\. Threshold quantity: 1000Ti, available: \d+Ki\. $/);
    expect(condition(evicted, 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'TerminationByKubelet' });
    const events = (await admin.events('default').list({ fieldSelector: 'involvedObject.name=burstable,reason=Evicted' })).items;
    expect(events.map((e) => e.type)).toContain('Warning');
  });
});
