// `kubectl get componentstatuses`: computed at each read as upstream's deprecated API is — the scheduler and the
// controller-manager are healthy while their leader Lease is current, etcd-0 is the store.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ controllers: [] });
});
afterAll(() => s.close());

it('reports the leader-elected components by their leases and the store, with the deprecation warning', async () => {
  const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kube-scheduler' },
    spec: { holderIdentity: 'sched-0', leaseDurationSeconds: 15, renewTime: new Date().toISOString().replace('Z', '000Z') } };
  expect((await s.api('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases', lease)).status).toBe(201);
  const got = await s.kubectl('get', 'componentstatuses');
  expect(got.code).toBe(0);
  expect(got.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
  const lines = got.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
  expect(lines).toEqual([
    ['NAME', 'STATUS', 'MESSAGE', 'ERROR'],
    ['scheduler', 'Healthy', 'ok'],
    ['controller-manager', 'Unhealthy', 'no leader has renewed the kube-controller-manager lease in kube-system within its duration'],
    ['etcd-0', 'Healthy', '{"health":"true","reason":""}'],
  ]);
  const etcd = JSON.parse((await s.kubectl('get', 'cs', 'etcd-0', '-o', 'json')).stdout);
  expect(etcd).toMatchObject({ kind: 'ComponentStatus', conditions: [{ type: 'Healthy', status: 'True', message: '{"health":"true","reason":""}' }] });
  expect((await s.kubectl('get', 'cs', 'nope')).stderr).toContain('componentstatuses "nope" not found');
});
