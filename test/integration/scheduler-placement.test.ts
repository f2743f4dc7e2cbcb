// Placement rules end to end: topology spread, pod (anti-)affinity, node affinity (required and preferred), host
// ports, extended resources and a KubeSchedulerConfiguration profile (MostAllocated, second schedulerName).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { adminClient, createNode, eventsFor, eventually, podObject, startScheduler, waitBound, type RunningScheduler } from './scheduler-support.js';

let api: TestApiServer;
let client: Client;
let sched: RunningScheduler;
const zones = { z1: ['a1', 'a2'], z2: ['b1', 'b2'], z3: ['c1'] };

beforeAll(async () => {
  api = await startTestApiServer();
  client = await adminClient(api);
  for (const [zone, nodes] of Object.entries(zones)) {
    for (const n of nodes) await createNode(client, n, { labels: { 'topology.kubernetes.io/zone': zone }, extra: n === 'c1' ? { 'example.com/gpu': '2' } : {} });
  }
  sched = startScheduler(client, {
    profiles: [
      { schedulerName: 'default-scheduler' },
      {
        schedulerName: 'packer',
        plugins: { score: { disabled: [{ name: 'NodeResourcesBalancedAllocation' }, { name: 'ImageLocality' }, { name: 'PodTopologySpread' }, { name: 'InterPodAffinity' }, { name: 'NodeAffinity' }, { name: 'TaintToleration' }] } },
        pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }] } } }],
      },
    ],
  });
});

afterAll(async () => {
  await sched?.stop();
  await client?.close();
  await api?.close();
});

const zoneOf = (node: string): string => Object.entries(zones).find(([, ns]) => ns.includes(node))![0];

describe('placement', () => {
  it('spreads pods over zones (maxSkew 1, DoNotSchedule)', async () => {
    const spread = { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'spread' } } }] };
    const nodes: string[] = [];
    for (let i = 0; i < 6; i++) {
      await client.pods('default').create(podObject(`spread-${i}`, { labels: { app: 'spread' }, spec: spread }));
      nodes.push(await waitBound(client, `spread-${i}`));
    }
    const perZone = new Map<string, number>();
    for (const n of nodes) perZone.set(zoneOf(n), (perZone.get(zoneOf(n)) ?? 0) + 1);
    expect([...perZone.values()].sort()).toEqual([2, 2, 2]);
  });

  it('co-locates with pod affinity and keeps apart with anti-affinity', async () => {
    await client.pods('default').create(podObject('db', { labels: { app: 'db' }, spec: { nodeSelector: { 'kubernetes.io/hostname': 'b1' } } }));
    expect(await waitBound(client, 'db')).toBe('b1');
    const affinity = { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'topology.kubernetes.io/zone', labelSelector: { matchLabels: { app: 'db' } } }] } } };
    await client.pods('default').create(podObject('cache', { labels: { app: 'cache' }, spec: affinity }));
    expect(zoneOf(await waitBound(client, 'cache'))).toBe('z2');
    const anti = { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'solo' } } }] } } };
    const nodes = new Set<string>();
    for (let i = 0; i < 5; i++) {
      await client.pods('default').create(podObject(`solo-${i}`, { labels: { app: 'solo' }, spec: anti }));
      nodes.add(await waitBound(client, `solo-${i}`));
    }
    expect(nodes.size).toBe(5);
    await client.pods('default').create(podObject('solo-5', { labels: { app: 'solo' }, spec: anti }));
    const ev = await eventually(async () => (await eventsFor(client, 'solo-5')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toMatch(/^0\/5 nodes are available: 5 node\(s\) didn't match pod anti-affinity rules\./);
  });

  it('honours required and preferred node affinity', async () => {
    const required = { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1'] }] }] } } } };
    await client.pods('default').create(podObject('req', { spec: required }));
    expect(zoneOf(await waitBound(client, 'req'))).toBe('z1');
    const preferred = { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, preference: { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['c1'] }] } }] } } };
    await client.pods('default').create(podObject('pref', { spec: preferred }));
    expect(await waitBound(client, 'pref')).toBe('c1');
  });

  it('places extended resources and host ports only where they fit', async () => {
    const gpu = podObject('gpu');
    gpu.spec.containers[0].resources = { requests: { cpu: '100m', 'example.com/gpu': '2' }, limits: { 'example.com/gpu': '2' } };
    await client.pods('default').create(gpu);
    expect(await waitBound(client, 'gpu')).toBe('c1');
    const gpu2 = podObject('gpu2');
    gpu2.spec.containers[0].resources = { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } };
    await client.pods('default').create(gpu2);
    const ev = await eventually(async () => (await eventsFor(client, 'gpu2')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev.message).toMatch(/^0\/5 nodes are available: 5 Insufficient example\.com\/gpu\./);
    const withPort = (name: string) => {
      const p = podObject(name, { spec: { nodeSelector: { 'topology.kubernetes.io/zone': 'z1' } } });
      p.spec.containers[0].ports = [{ containerPort: 80, hostPort: 8080 }];
      return p;
    };
    for (const n of ['port-1', 'port-2']) await client.pods('default').create(withPort(n));
    const a = await waitBound(client, 'port-1');
    const b = await waitBound(client, 'port-2');
    expect(new Set([a, b])).toEqual(new Set(['a1', 'a2']));
    await client.pods('default').create(withPort('port-3'));
    const ev3 = await eventually(async () => (await eventsFor(client, 'port-3')).find((e) => e.reason === 'FailedScheduling'), 10_000, 'FailedScheduling');
    expect(ev3.message).toContain("2 node(s) didn't have free ports for the requested pod ports");
  });

  it('schedules a second profile by schedulerName (MostAllocated packs)', async () => {
    const nodes = new Set<string>();
    for (let i = 0; i < 3; i++) {
      await client.pods('default').create(podObject(`packed-${i}`, { cpu: '500m', spec: { schedulerName: 'packer', nodeSelector: { 'topology.kubernetes.io/zone': 'z3' } } }));
      nodes.add(await waitBound(client, `packed-${i}`));
    }
    expect(nodes).toEqual(new Set(['c1']));
    await client.pods('default').create(podObject('other-scheduler', { spec: { schedulerName: 'not-ours' } }));
    await new Promise((r) => setTimeout(r, 300));
    expect((await client.pods('default').get('other-scheduler')).spec?.nodeName).toBeUndefined();
  });
});

describe('default topology spread', () => {
  it('spreads the pods of a ReplicaSet over nodes and zones without constraints of their own', async () => {
    await client.replicaSets('default').create({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'web-rs' } }, template: { metadata: { labels: { app: 'web-rs' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    await new Promise((r) => setTimeout(r, 300)); // the scheduler's ReplicaSet informer sees it
    const nodes: string[] = [];
    for (let i = 0; i < 3; i++) {
      await client.pods('default').create(podObject(`rs-${i}`, { labels: { app: 'web-rs' }, spec: { nodeSelector: { 'topology.kubernetes.io/zone': 'z1' } } }));
      nodes.push(await waitBound(client, `rs-${i}`));
    }
    // z1 has a1 and a2: three replicas may not all land on one of them
    expect(new Set(nodes).size).toBe(2);
  });
});
