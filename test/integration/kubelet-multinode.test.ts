// One process simulating several nodes (fake runtime, as kwok): every node registers, becomes Ready and keeps its
// own Lease; one pod informer feeds every node's pods to its kubelet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { condition, createBound, eventually, pod, startKubelet, type RunningKubelet } from './kubelet-support.js';

const NODES = ['sim-1', 'sim-2', 'sim-3'];

describe('kubelet: many simulated nodes in one process', () => {
  let api: TestApiServer;
  let admin: Client;
  let kubelet: RunningKubelet;

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    kubelet = startKubelet(await Client.fromKubeconfig(api.kubeconfig, { qps: 0 }), NODES, { fakeStartLatencyMs: 20 });
  }, 30_000);

  afterAll(async () => {
    await kubelet?.stop();
    await admin?.close();
    await api?.close();
  });

  it('registers every node Ready, each with its own address and Lease', async () => {
    await eventually(async () => {
      const nodes = (await admin.nodes().list()).items;
      return nodes.length === NODES.length && nodes.every((n) => condition(n, 'Ready')?.status === 'True');
    }, 15_000, 'all nodes Ready');
    const nodes = (await admin.nodes().list()).items;
    const ips = nodes.map((n) => (n.status?.addresses as { type: string; address: string }[])[0]!.address);
    expect(new Set(ips).size).toBe(NODES.length);
    for (const name of NODES) {
      const lease = await eventually(() => admin.leases('kube-node-lease').get(name), 10_000, `lease ${name}`);
      expect(lease.spec?.holderIdentity).toBe(name);
    }
    const out = await api.kubectl('get', 'nodes');
    for (const name of NODES) expect(out.stdout).toMatch(new RegExp(`${name}\\s+Ready`));
  });

  it('runs each pod on the node it is bound to, and deletes them', async () => {
    for (const [i, name] of NODES.entries()) await createBound(admin, pod(`p${i}`), name);
    await eventually(async () => {
      const pods = (await admin.pods('default').list()).items;
      return pods.length === NODES.length && pods.every((p) => p.status?.phase === 'Running' && condition(p, 'Ready')?.status === 'True');
    }, 15_000, 'pods Running');
    const pods = (await admin.pods('default').list()).items;
    for (const p of pods) {
      const node = (await admin.nodes().get(p.spec!.nodeName as string));
      expect(p.status?.hostIP).toBe((node.status?.addresses as { address: string }[])[0]!.address);
    }
    expect(new Set(pods.map((p) => p.status?.podIP)).size).toBe(NODES.length);
    await admin.pods('default').deleteCollection({});
    await eventually(async () => (await admin.pods('default').list()).items.length === 0, 15_000, 'pods gone');
  });
});
