// The kubelet registers its Node with its own system:node certificate, becomes Ready with upstream's conditions,
// and keeps renewing its Lease in kube-node-lease.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Resources, type KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { condition, eventually, nodeClient, startKubelet, type RunningKubelet } from './kubelet-support.js';

describe('kubelet: node registration, status and lease', () => {
  let api: TestApiServer;
  let admin: Client;
  let kubelet: RunningKubelet;

  beforeAll(async () => {
    api = await startTestApiServer();
    admin = await Client.fromKubeconfig(api.kubeconfig, { qps: 0 });
    kubelet = startKubelet(await nodeClient(api, 'node-a'), ['node-a']);
  }, 30_000);

  afterAll(async () => {
    await kubelet?.stop();
    await admin?.close();
    await api?.close();
  });

  it('registers the Node and reports Ready with upstream reasons', async () => {
    const node = await eventually(async () => {
      const n = await admin.nodes().get('node-a');
      return condition(n, 'Ready')?.status === 'True' ? n : undefined;
    }, 15_000, 'node Ready');
    expect(node.metadata?.labels).toMatchObject({ 'kubernetes.io/hostname': 'node-a', 'kubernetes.io/os': expect.any(String), 'kubernetes.io/arch': expect.any(String) });
    expect(condition(node, 'Ready')).toMatchObject({ reason: 'KubeletReady', message: 'kubelet is posting ready status' });
    expect(condition(node, 'MemoryPressure')).toMatchObject({ status: 'False', reason: 'KubeletHasSufficientMemory' });
    expect(condition(node, 'DiskPressure')).toMatchObject({ status: 'False', reason: 'KubeletHasNoDiskPressure' });
    expect(condition(node, 'PIDPressure')).toMatchObject({ status: 'False', reason: 'KubeletHasSufficientPID' });
    expect(node.status?.capacity).toMatchObject({ cpu: '4', memory: '8Gi', pods: '110' });
    expect(node.status?.allocatable).toMatchObject({ cpu: '4', pods: '110' });
    const addresses = node.status?.addresses as { type: string; address: string }[];
    expect(addresses.map((a) => a.type)).toEqual(['InternalIP', 'Hostname']);
    expect(node.status?.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
    expect(node.status?.nodeInfo).toMatchObject({ kubeletVersion: expect.stringMatching(/^v1\./), containerRuntimeVersion: 'fake://0.1.0' });
    // 1.32's kubelet still fills the deprecated kube-proxy version with its own (DisableNodeKubeProxyVersion is off)
    expect(node.status?.nodeInfo?.kubeProxyVersion).toBe(node.status?.nodeInfo?.kubeletVersion);
    const out = await api.kubectl('get', 'nodes');
    expect(out.stdout).toMatch(/node-a\s+Ready/);
  });

  it('publishes the node\'s CSINode at start: owned by the Node, no drivers, the migrated in-tree plugins annotated', async () => {
    const csiNode = await eventually(() => admin.resource(Resources.csiNodes).get('node-a').catch(() => undefined), 15_000, 'CSINode node-a');
    const node = await admin.nodes().get('node-a');
    expect(csiNode.metadata?.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'node-a', uid: node.metadata?.uid }]);
    expect(csiNode.metadata?.annotations).toEqual({
      'storage.alpha.kubernetes.io/migrated-plugins': 'kubernetes.io/aws-ebs,kubernetes.io/azure-disk,kubernetes.io/azure-file,kubernetes.io/cinder,kubernetes.io/gce-pd,kubernetes.io/portworx-volume,kubernetes.io/vsphere-volume',
    });
    expect((await api.kubectl('get', 'csinodes')).stdout).toMatch(/^NAME\s+DRIVERS\s+AGE\n\s*node-a\s+0\s+\S+\n$/);
  });

  it('records upstream\'s node events: Starting, then each condition as first reported; kubectl describe node shows them', async () => {
    const expected = ['Starting', 'NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady'];
    const events = await eventually(async () => {
      const evs = (await admin.events('default').list({ fieldSelector: 'involvedObject.kind=Node,involvedObject.name=node-a' })).items;
      return expected.every((r) => evs.some((e) => e.reason === r)) ? evs : undefined;
    }, 10_000, 'node events');
    const byReason = new Map(events.map((e) => [e.reason, e]));
    expect(byReason.get('Starting')).toMatchObject({ message: 'Starting kubelet.', type: 'Normal', source: { component: 'kubelet', host: 'node-a' }, involvedObject: { kind: 'Node', name: 'node-a', uid: 'node-a' } });
    expect(byReason.get('NodeReady')?.message).toBe('Node node-a status is now: NodeReady');
    expect(events.filter((e) => e.reason === 'NodeReady')).toHaveLength(1); // not again at each status update
    const described = await api.kubectl('describe', 'node', 'node-a');
    expect(described.stdout).toMatch(/Normal\s+NodeHasSufficientMemory\s+\S+\s+kubelet\s+Node node-a status is now: NodeHasSufficientMemory/);
  });

  it('records NodeNotSchedulable on kubectl cordon and NodeSchedulable on uncordon', async () => {
    const reasons = async (): Promise<string[]> =>
      (await admin.events('default').list({ fieldSelector: 'involvedObject.kind=Node,involvedObject.name=node-a' })).items.map((e) => e.reason!);
    expect(await reasons()).not.toContain('NodeNotSchedulable');
    expect((await api.kubectl('cordon', 'node-a')).code).toBe(0);
    await eventually(async () => (await reasons()).includes('NodeNotSchedulable'), 10_000, 'NodeNotSchedulable');
    expect((await api.kubectl('uncordon', 'node-a')).code).toBe(0);
    await eventually(async () => (await reasons()).includes('NodeSchedulable'), 10_000, 'NodeSchedulable');
  });

  it('puts right at its next status sync the conditions the node controller marked Unknown while it was away', async () => {
    const node = await admin.nodes().get('node-a');
    const conditions = (node.status!.conditions as { type: string }[]).map((c) => (c.type === 'Ready'
      ? { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' } : c));
    await admin.nodes().patch('node-a', 'merge', { status: { conditions } }, { subresource: 'status' });
    const back = await eventually(async () => {
      const n = await admin.nodes().get('node-a');
      return condition(n, 'Ready')?.status === 'True' ? n : undefined;
    }, 10_000, 'Ready again');
    expect(condition(back, 'Ready')).toMatchObject({ reason: 'KubeletReady' });
    // a transition, as upstream's kubelet records it (the same event again: its count goes up)
    const readyEvents = async () => (await admin.events('default').list({ fieldSelector: 'involvedObject.name=node-a,reason=NodeReady' })).items
      .reduce((n, e) => n + ((e.count as number | undefined) ?? 1), 0);
    await eventually(async () => ((await readyEvents()) > 1 ? true : undefined), 10_000, 'NodeReady recorded again');
  });

  it('renews its Lease in kube-node-lease', async () => {
    const first = await eventually(() => admin.leases('kube-node-lease').get('node-a'), 10_000, 'lease');
    expect(first.spec).toMatchObject({ holderIdentity: 'node-a', leaseDurationSeconds: 40 });
    const node = await admin.nodes().get('node-a');
    expect(first.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'node-a', uid: node.metadata?.uid });
    const renewed = await eventually(async () => {
      const l = await admin.leases('kube-node-lease').get('node-a');
      return l.spec?.renewTime !== first.spec?.renewTime ? l : undefined;
    }, 10_000, 'lease renewed');
    expect(Date.parse(renewed.spec!.renewTime!)).toBeGreaterThan(Date.parse(first.spec!.renewTime!));
    // MicroTimes to the microsecond, as the nodelease controller's (both on a whole millisecond: one in a million)
    expect([first, renewed].map((l) => l.spec!.renewTime!).filter((t) => !/\.\d{3}000Z$/.test(t))).not.toEqual([]);
  });

  it('its node identity may not touch another node', async () => {
    const other: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-b' } };
    await admin.nodes().create(other);
    const client = await nodeClient(api, 'node-a');
    await expect(client.nodes().patch('node-b', 'merge', { metadata: { labels: { x: 'y' } } })).rejects.toMatchObject({ code: 403 });
    await client.close();
  });

  it('as upstream, does not register a deleted Node again; its Lease comes back without an owner', async () => {
    await admin.nodes().delete('node-a');
    await admin.leases('kube-node-lease').delete('node-a');
    const lease = await eventually(() => admin.leases('kube-node-lease').get('node-a').catch(() => undefined), 10_000, 'the lease made again');
    expect(lease.metadata?.ownerReferences).toBeUndefined();
    // two renewals later the status loop has run too (both every 300 ms here): the Node stays deleted
    let renewals = 0;
    let last = lease.spec?.renewTime;
    await eventually(async () => {
      const l = await admin.leases('kube-node-lease').get('node-a');
      if (l.spec?.renewTime !== last) { renewals++; last = l.spec?.renewTime; }
      return renewals >= 2;
    }, 10_000, 'two renewals');
    await expect(admin.nodes().get('node-a')).rejects.toMatchObject({ code: 404 });
  });
});
