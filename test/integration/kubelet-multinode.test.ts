// One process simulating several nodes (fake runtime, as kwok): every node registers, becomes Ready and keeps its
// own Lease; one pod informer feeds every node's pods to its kubelet; pods' IPs come from their node's podCIDR; the
// one node server answers for each node at its own loopback address (kubectl logs, exec, nodes/proxy).
import { readFile } from 'node:fs/promises';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../pkg/client/index.js';
import { machineIp } from '../../pkg/kubelet/node-status.js';
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
    kubelet = startKubelet(await Client.fromKubeconfig(api.kubeconfig, { qps: 0 }), NODES, {
      fakeStartLatencyMs: 20, server: { clientCa: await readFile(api.pki.ca.cert, 'utf8'), port: 0, address: '127.0.0.1' },
    });
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

  it('runs each pod on the node it is bound to with an IP of that node\'s podCIDR (or its fallback range), and deletes them', async () => {
    // what the controller-manager's node-ipam does, for two nodes: the third's pods take its fallback range
    const cidrs = new Map(NODES.slice(0, 2).map((name, i) => [name, `10.244.${i + 7}.0/24`]));
    for (const [name, cidr] of cidrs) await admin.nodes().patch(name, 'merge', { spec: { podCIDR: cidr, podCIDRs: [cidr] } });
    cidrs.set('sim-3', '100.64.2.0/24');
    for (const [i, name] of NODES.entries()) {
      await createBound(admin, pod(`p${i}`), name);
      await createBound(admin, pod(`q${i}`), name);
    }
    await eventually(async () => {
      const pods = (await admin.pods('default').list()).items;
      return pods.length === 2 * NODES.length && pods.every((p) => p.status?.phase === 'Running' && condition(p, 'Ready')?.status === 'True');
    }, 15_000, 'pods Running');
    const pods = (await admin.pods('default').list()).items;
    const nodes = (await admin.nodes().list()).items.sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!)) as { status?: { addresses: { address: string }[]; daemonEndpoints: { kubeletEndpoint: { Port: number } } } }[];
    for (const p of pods) {
      const node = (await admin.nodes().get(p.spec!.nodeName as string));
      expect(p.status?.hostIP).toBe((node.status?.addresses as { address: string }[])[0]!.address);
    }
    // kubectl's wide columns: NAME READY STATUS RESTARTS AGE IP NODE ...
    const wide = (await api.kubectl('get', 'pods', '-o', 'wide', '--no-headers')).stdout.trim().split('\n').map((l) => l.split(/\s+/));
    expect(wide).toHaveLength(2 * NODES.length);
    for (const cols of wide) {
      const [ip, node] = [cols[5]!, cols[6]!];
      expect(ip.startsWith(cidrs.get(node)!.replace(/0\/24$/, ''))).toBe(true);
      expect(Number(ip.split('.')[3])).toBeGreaterThan(1); // not the network nor the gateway
    }
    expect(new Set(wide.map((cols) => cols[5])).size).toBe(2 * NODES.length);

    // the apiserver dials each node at its InternalIP (127.0.0.1, .2, .3) and reaches that node's kubelet
    expect(nodes.map((n) => n.status?.addresses[0].address)).toEqual(['127.0.0.1', '127.0.0.2', '127.0.0.3']);
    const logs = await api.kubectl('logs', 'p2');
    expect(logs.stdout).toBe('fake container c started\n');
    const exec = await api.kubectl('exec', 'q1', '--', 'echo', 'from', 'sim-2');
    expect(exec.stdout).toBe('from sim-2\n');
    for (const [i, name] of NODES.entries()) {
      const listed = JSON.parse((await api.kubectl('get', '--raw', `/api/v1/nodes/${name}/proxy/pods`)).stdout) as { items: { metadata: { name: string } }[] };
      expect(listed.items.map((p) => p.metadata.name).sort()).toEqual([`p${i}`, `q${i}`]);
      const summary = JSON.parse((await api.kubectl('get', '--raw', `/api/v1/nodes/${name}/proxy/stats/summary`)).stdout) as { node: { nodeName: string }; pods: { podRef: { name: string } }[] };
      expect(summary.node.nodeName).toBe(name);
      expect(summary.pods.map((p) => p.podRef.name).sort()).toEqual([`p${i}`, `q${i}`]);
      const metrics = (await api.kubectl('get', '--raw', `/api/v1/nodes/${name}/proxy/metrics`)).stdout;
      expect(metrics).toContain(`kubelet_node_name{node="${name}"} 1`);
      expect(metrics).toMatch(/^kubelet_running_pods 2$/m);
    }
    // the server listens on every address for the nodes' loopback ones, and drops a connection to any other
    const port = nodes[0]!.status!.daemonEndpoints.kubeletEndpoint.Port;
    const outside = machineIp();
    if (outside !== '127.0.0.1') {
      const outcome = await new Promise<string>((resolve) => {
        const socket = connect({ host: outside, port, rejectUnauthorized: false }, () => { socket.destroy(); resolve('handshake'); });
        socket.once('error', () => resolve('dropped'));
        socket.once('close', () => resolve('dropped'));
      });
      expect(outcome).toBe('dropped');
    }
    await admin.pods('default').deleteCollection({});
    await eventually(async () => (await admin.pods('default').list()).items.length === 0, 15_000, 'pods gone');
  });
});
