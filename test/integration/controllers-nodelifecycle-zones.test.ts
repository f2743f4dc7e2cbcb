// The node lifecycle controller's zone settings, end to end (upstream 1.32 ComputeZoneState and ReducedQPSFunc, from
// --unhealthy-zone-threshold, --large-cluster-size-threshold and --secondary-node-eviction-rate): zone z has six
// nodes, three not ready (half of them); zone y one of its two (a third, with no status, added later). A pass taints the nodes of every zone its limiter lets
// through, so y's not-ready node tainted shows that a pass tainting nothing in z is over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, formatTime, loadKubeconfig, type KubeObject } from '../../pkg/client/index.js';
import type { ClusterControllerConfig } from '../../pkg/controller/shared/cluster-context.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { controllerManagerKubeconfig, eventually, startInProcess } from './controllers-support.js';

let s: TestApiServer;
let c: Client;
let cm: { stop(): Promise<void> } | undefined;

const NOT_READY = 'node.kubernetes.io/not-ready';
const Z_DOWN = ['z-f1', 'z-f2', 'z-f3'];

async function makeNode(name: string, zone: string, ready: string): Promise<void> {
  const created = await c.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'topology.kubernetes.io/zone': zone } } });
  const now = formatTime(Date.now());
  await c.nodes().updateStatus({ ...created, status: { conditions: [{ type: 'Ready', status: ready, reason: 'KubeletReady', lastHeartbeatTime: now, lastTransitionTime: now }] } });
}

const tainted = (n: KubeObject): boolean => ((n.spec?.taints ?? []) as { key: string; effect: string }[]).some((t) => t.key === NOT_READY && t.effect === 'NoExecute');

async function stop(): Promise<void> {
  await cm?.stop();
  cm = undefined;
}

async function start(config: Partial<ClusterControllerConfig>): Promise<void> {
  await stop();
  cm = await startInProcess(await controllerManagerKubeconfig(s), {
    controllers: ['nodelifecycle'],
    config: { nodeMonitorPeriodMs: 200, nodeMonitorGracePeriodMs: 60_000, nodeStartupGracePeriodMs: 60_000, nodeEvictionRate: 100, ...config },
  });
}

beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  c = new Client({ ...(await loadKubeconfig(s.kubeconfig)), qps: 0 });
  for (const name of ['z-r1', 'z-r2', 'z-r3']) await makeNode(name, 'z', 'True');
  for (const name of Z_DOWN) await makeNode(name, 'z', 'False');
  await makeNode('y-r1', 'y', 'True');
  await makeNode('y-f1', 'y', 'False');
}, 30_000);

afterAll(async () => {
  await stop();
  await c?.close();
  await s?.close();
});

describe('node lifecycle zone settings', () => {
  it('--unhealthy-zone-threshold 0.5 makes half a zone unhealthy: in one of 50 nodes or fewer, nothing is tainted', async () => {
    await start({ unhealthyZoneThreshold: 0.5 });
    await eventually(() => c.nodes().get('y-f1'), tainted, 'y-f1 tainted');
    // a node the pass that tainted y-f1 did not list: its registration starts a later pass, so that one is over
    await c.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'y-probe', labels: { 'topology.kubernetes.io/zone': 'y' } } });
    await eventually(() => c.events('default').list({ fieldSelector: 'reason=RegisteredNode,involvedObject.name=y-probe' }), (l) => l.items.length > 0, 'y-probe registered');
    for (const name of Z_DOWN) expect(tainted(await c.nodes().get(name)), name).toBe(false);
  });

  it('above --large-cluster-size-threshold the unhealthy zone is tainted at --secondary-node-eviction-rate', async () => {
    await start({ unhealthyZoneThreshold: 0.5, largeClusterSizeThreshold: 5, secondaryNodeEvictionRate: 100 });
    for (const name of Z_DOWN) await eventually(() => c.nodes().get(name), tainted, `${name} tainted`);
  });

  it('with upstream\'s 0.55 the zone is healthy: tainted at --node-eviction-rate', async () => {
    await stop();
    for (const name of Z_DOWN) {
      const n = await c.nodes().get(name);
      await c.nodes().update({ ...n, spec: { ...n.spec, taints: [] } });
    }
    await start({ nodeEvictionRate: 100, secondaryNodeEvictionRate: 0, largeClusterSizeThreshold: 5 });
    for (const name of Z_DOWN) await eventually(() => c.nodes().get(name), tainted, `${name} tainted`);
  });
});
