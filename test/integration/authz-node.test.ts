// The Node authorizer over real HTTPS: a `system:node:n1` certificate reads its node, its pods and what
// they reference, writes its node and pods' status, its lease and events, and nothing of node n2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { certificateUser, type TestUser } from './authz-support.js';

let s: TestApiServer;
let n1: TestUser;

const pod = (name: string, node: string, secret: string, cm: string): Record<string, unknown> => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: {
    nodeName: node,
    containers: [{ name: 'c', image: 'nginx', env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: cm, key: 'k' } } }] }],
    volumes: [{ name: 's', secret: { secretName: secret } }],
  },
});

beforeAll(async () => {
  s = await startTestApiServer({ enableAdmissionPlugins: ['NodeRestriction'] });
  n1 = await certificateUser(s, 'system:node:n1', ['system:nodes']);
  for (const n of ['n1', 'n2']) expect((await s.api('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: n } })).status).toBe(201);
  for (const [kind, name] of [['secrets', 's1'], ['secrets', 's2'], ['configmaps', 'c1'], ['configmaps', 'c2']]) {
    const body = kind === 'secrets' ? { apiVersion: 'v1', kind: 'Secret', metadata: { name } } : { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } };
    expect((await s.api('POST', `/api/v1/namespaces/default/${kind}`, body)).status).toBe(201);
  }
  expect((await s.api('POST', '/api/v1/namespaces/default/pods', pod('p1', 'n1', 's1', 'c1'))).status).toBe(201);
  expect((await s.api('POST', '/api/v1/namespaces/default/pods', pod('p2', 'n2', 's2', 'c2'))).status).toBe(201);
});

afterAll(async () => {
  await n1?.close();
  await s?.close();
});

describe('Node authorizer', () => {
  it('reads its own node only', async () => {
    expect((await n1.api('GET', '/api/v1/nodes/n1')).status).toBe(200);
    const other = await n1.api('GET', '/api/v1/nodes/n2');
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('nodes "n2" is forbidden: User "system:node:n1" cannot get resource "nodes" in API group "" at the cluster scope: node \'n1\' cannot read \'n2\', only its own Node object');
    expect((await n1.api('GET', '/api/v1/nodes')).status).toBe(403);
    expect((await n1.api('GET', '/api/v1/nodes?fieldSelector=metadata.name%3Dn1')).status).toBe(200);
    const r = await n1.kubectl('get', 'node', 'n1');
    expect(r.code).toBe(0);
  });

  it('reads the pods bound to it, and lists them only by its node name', async () => {
    expect((await n1.api('GET', '/api/v1/namespaces/default/pods/p1')).status).toBe(200);
    expect((await n1.api('GET', '/api/v1/namespaces/default/pods/p2')).status).toBe(403);
    expect((await n1.api('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1')).status).toBe(200);
    expect((await n1.api('GET', '/api/v1/pods')).status).toBe(403);
    expect((await n1.api('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn2')).status).toBe(403);
  });

  it('reads the secrets and configmaps its pods use, not others', async () => {
    expect((await n1.api('GET', '/api/v1/namespaces/default/secrets/s1')).status).toBe(200);
    expect((await n1.api('GET', '/api/v1/namespaces/default/configmaps/c1')).status).toBe(200);
    const s2 = await n1.api('GET', '/api/v1/namespaces/default/secrets/s2');
    expect(s2.status).toBe(403);
    expect(s2.body.message).toContain("no relationship found between node 'n1' and this object");
    expect((await n1.api('GET', '/api/v1/namespaces/default/configmaps/c2')).status).toBe(403);
    expect((await n1.api('GET', '/api/v1/namespaces/default/secrets')).status).toBe(403);
    expect((await n1.api('DELETE', '/api/v1/namespaces/default/secrets/s1')).status).toBe(403);
  });

  it('writes its node status, its pods\' status, its lease and events', async () => {
    const patch = { 'content-type': 'application/merge-patch+json' };
    expect((await n1.api('PATCH', '/api/v1/nodes/n1/status', { status: { phase: 'Running' } }, patch)).status).toBe(200);
    expect((await n1.api('PATCH', '/api/v1/nodes/n2/status', { status: { phase: 'Running' } }, patch)).status).toBe(403);
    expect((await n1.api('PATCH', '/api/v1/namespaces/default/pods/p1/status', { status: { phase: 'Running' } }, patch)).status).toBe(200);
    expect((await n1.api('PATCH', '/api/v1/namespaces/default/pods/p2/status', { status: { phase: 'Running' } }, patch)).status).toBe(403);
    const lease = (name: string): Record<string, unknown> => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: name } });
    const created = await n1.api('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', lease('n1'));
    expect(created.status).toBe(201);
    // a lease is only ever updated at a resourceVersion (upstream's strategy refuses unconditional updates)
    const renewed = { ...lease('n1'), metadata: { name: 'n1', resourceVersion: created.body.metadata.resourceVersion } };
    expect((await n1.api('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1', renewed)).status).toBe(200);
    expect((await n1.api('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1', lease('n1'))).status).toBe(422);
    expect((await n1.api('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n2')).status).toBe(403);
    expect((await n1.api('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', lease('n1'))).status).toBe(403);
    const ev = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { kind: 'Node', name: 'n1' }, reason: 'Starting', message: 'm' };
    expect((await n1.api('POST', '/api/v1/namespaces/default/events', ev)).status).toBe(201);
  });

  it('evicts only the pods bound to it (NodeRestriction on pods/eviction)', async () => {
    const eviction = (name: string) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' }, deleteOptions: { dryRun: ['All'] } });
    const other = await n1.api('POST', '/api/v1/namespaces/default/pods/p2/eviction', eviction('p2'));
    expect(other.status).toBe(403);
    expect(other.body.message).toContain('node "n1" can only evict pods with spec.nodeName set to itself');
    expect((await n1.api('POST', '/api/v1/namespaces/default/pods/p1/eviction', eviction('p1'))).status).toBe(201);
  });

  it('gets nothing it has no business with', async () => {
    expect((await n1.api('GET', '/apis/apps/v1/deployments')).status).toBe(403);
    expect((await n1.api('GET', '/api/v1/namespaces/default/services')).status).toBe(200);
    expect((await n1.kubectl('auth', 'can-i', 'get', 'secrets/s2', '-n', 'default')).stdout.trim()).toBe("no - no relationship found between node 'n1' and this object");
    expect((await n1.kubectl('auth', 'can-i', 'get', 'secrets/s1', '-n', 'default')).stdout.trim()).toBe('yes');
  });
});
