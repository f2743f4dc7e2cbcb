import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../test/support/apiserver.js';
import { waitForNodesReady } from './node-readiness.js';

let s: TestApiServer;
let probe: { server: string; ca: string; cert: string; key: string };
beforeAll(async () => {
  s = await startTestApiServer({ controllers: [] });
  const [ca, cert, key] = await Promise.all([s.pki.ca.cert, s.pki.admin.cert, s.pki.admin.key].map((f) => readFile(f, 'utf8'))) as [string, string, string];
  probe = { server: s.url, ca, cert, key };
});
afterAll(async () => { await s.close(); });

const postReady = async (name: string, heartbeat: Date): Promise<void> => {
  const time = `${heartbeat.toISOString().slice(0, 19)}Z`;
  const status = { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: time, lastTransitionTime: time }] };
  const res = await s.api('PATCH', `/api/v1/nodes/${name}/status`, { status }, { 'content-type': 'application/merge-patch+json' });
  expect(res.status).toBe(200);
};

describe('waitForNodesReady', () => {
  it('waits for a Ready heartbeat from this start: a Node left Ready by the last run does not count', async () => {
    expect((await s.api('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } })).status).toBe(201);
    await postReady('n1', new Date(Date.now() - 3_600_000)); // the last run's kubelet, an hour ago
    const since = Date.now();
    await expect(waitForNodesReady({ ...probe, nodes: ['n1'], since, timeoutMs: 1_000 })).rejects.toThrow('nodes not Ready after 1s: n1');

    await postReady('n1', new Date()); // this start's kubelet
    await waitForNodesReady({ ...probe, nodes: ['n1'], since, timeoutMs: 10_000 });
  });

  it('with `registered`, waits for a status from this start and the pod range (the add-ons start then), not for Ready', async () => {
    const since = Date.now();
    await expect(waitForNodesReady({ ...probe, nodes: ['n2'], since, timeoutMs: 500 }, true)).rejects.toThrow('nodes not registered after 0.5s: n2');
    // left by the last run, with its pod range: not yet
    expect((await s.api('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' }, spec: { podCIDR: '10.244.0.0/24' } })).status).toBe(201);
    await postReady('n2', new Date(Date.now() - 3_600_000));
    await expect(waitForNodesReady({ ...probe, nodes: ['n2'], since, timeoutMs: 500 }, true)).rejects.toThrow('nodes not registered after 0.5s: n2');
    const notReady = `${new Date().toISOString().slice(0, 19)}Z`;
    const status = { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady', lastHeartbeatTime: notReady, lastTransitionTime: notReady }] };
    expect((await s.api('PATCH', '/api/v1/nodes/n2/status', { status }, { 'content-type': 'application/merge-patch+json' })).status).toBe(200);
    await waitForNodesReady({ ...probe, nodes: ['n2'], since, timeoutMs: 10_000 }, true);
    await expect(waitForNodesReady({ ...probe, nodes: ['n2'], since, timeoutMs: 500 })).rejects.toThrow('nodes not Ready after 0.5s: n2');
    // a new Node without a pod range yet (node-ipam gives it one): not yet
    expect((await s.api('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n3' } })).status).toBe(201);
    await postReady('n3', new Date());
    await expect(waitForNodesReady({ ...probe, nodes: ['n3'], since, timeoutMs: 500 }, true)).rejects.toThrow('nodes not registered after 0.5s: n3');
  });
});
