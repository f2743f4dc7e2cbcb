// What the apiserver keeps for the cluster as upstream's does: the kubernetes service and its endpoints come back when
// deleted (the kubernetesservice controller, every 10 s there, 100 ms here), the legacy-token tracking ConfigMap is
// kept (at most one creation per 30 minutes), the apiserver's identity lease is kept and expired ones of other
// apiservers collected (every hour there, 100 ms here), the system priority classes cannot be deleted one by one, and a binding's roleRef error quotes it as Go prints the internal struct.
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiserverIdentity } from '../../pkg/apiserver/identity-lease.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ controllers: [], authorizationModes: ['AlwaysAllow'], kubernetesServiceIntervalMs: 100, identityLeaseGcIntervalMs: 100 });
});
afterAll(async () => { await s?.close(); });

const until = async (what: string, check: () => Promise<boolean>): Promise<void> => {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 10 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('system objects', () => {
  it('brings back a deleted kubernetes service with its cluster IP, and its endpoints', async () => {
    const before = JSON.parse(await cleanStdout(s.kubectl('get', 'svc', 'kubernetes', '-o', 'json')));
    expect(await cleanStdout(s.kubectl('delete', 'svc', 'kubernetes'))).toBe('service "kubernetes" deleted\n');
    expect(await cleanStdout(s.kubectl('delete', 'endpoints', 'kubernetes'))).toBe('endpoints "kubernetes" deleted\n');
    await until('the service and endpoints coming back', async () =>
      (await s.kubectl('get', 'svc/kubernetes', 'endpoints/kubernetes')).code === 0);
    const after = JSON.parse(await cleanStdout(s.kubectl('get', 'svc', 'kubernetes', '-o', 'json')));
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.spec.clusterIP).toBe(before.spec.clusterIP);
    expect(after.spec.ports).toEqual(before.spec.ports);
    expect(after.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    const ep = await cleanStdout(s.kubectl('get', 'endpoints', 'kubernetes', '-o', 'jsonpath={.subsets[0].addresses[0].ip}:{.subsets[0].ports[0].port}'));
    expect(ep).toBe(`127.0.0.1:${s.server.port}`);
  });

  it("keeps kube-system's legacy-token tracking ConfigMap: since today, a bad date replaced, a deleted one made again only 30 min later", async () => {
    const name = 'kube-apiserver-legacy-service-account-token-tracking';
    const since = (): Promise<string> => cleanStdout(s.kubectl('get', 'cm', '-n', 'kube-system', name, '-o', 'jsonpath={.data.since}'));
    await until('the ConfigMap', async () => (await s.kubectl('get', 'cm', '-n', 'kube-system', name)).code === 0);
    // a day in UTC, either side of a midnight the test may straddle
    const days = (): string[] => [new Date(Date.now() - 60_000), new Date(Date.now() + 60_000)].map((d) => d.toISOString().slice(0, 10));
    expect(days()).toContain(await since());
    await cleanStdout(s.kubectl('patch', 'cm', '-n', 'kube-system', name, '-p', '{"data":{"since":"2024-02-30"}}'));
    await until('the date fixed', async () => days().includes(await since()));
    await cleanStdout(s.kubectl('delete', 'cm', '-n', 'kube-system', name));
    // the loop runs every 100 ms here: five passes that must not make it again
    await new Promise((r) => setTimeout(r, 500));
    expect((await s.kubectl('get', 'cm', '-n', 'kube-system', name)).stderr).toMatch(/NotFound/);
  });

  it("keeps this apiserver's identity lease in kube-system and collects the expired ones of apiservers gone", async () => {
    const name = apiserverIdentity(hostname());
    await until('the identity lease', async () => (await s.kubectl('get', 'lease', '-n', 'kube-system', name)).code === 0);
    const lease = JSON.parse(await cleanStdout(s.kubectl('get', 'lease', '-n', 'kube-system', name, '-o', 'json')));
    expect(lease.metadata.labels).toEqual({ 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': hostname() });
    expect(lease.spec.holderIdentity).toMatch(new RegExp(`^${name}_[0-9a-f-]{36}$`));
    expect(lease.spec.leaseDurationSeconds).toBe(3600);
    expect(Date.now() - Date.parse(lease.spec.renewTime)).toBeLessThan(60_000);
    const listed = await cleanStdout(s.kubectl('get', 'leases', '-n', 'kube-system', '-l', 'apiserver.kubernetes.io/identity=kube-apiserver', '-o', 'custom-columns=NAME:.metadata.name,HOLDER:.spec.holderIdentity', '--no-headers'));
    expect(listed).toBe(`${name}   ${lease.spec.holderIdentity}\n`);
    // another host's lease, last renewed two hours ago for an hour, goes; one still within its hour stays
    const other = (leaseName: string, renewTime: string): string => JSON.stringify({
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: leaseName, labels: { 'apiserver.kubernetes.io/identity': 'kube-apiserver' } },
      spec: { holderIdentity: `${leaseName}_x`, leaseDurationSeconds: 3600, renewTime },
    });
    await cleanStdout(s.kubectlWithInput(other('apiserver-gone', new Date(Date.now() - 7_200_000).toISOString().replace('Z', '000Z')), 'create', '-n', 'kube-system', '-f', '-'));
    await cleanStdout(s.kubectlWithInput(other('apiserver-alive', new Date(Date.now() - 60_000).toISOString().replace('Z', '000Z')), 'create', '-n', 'kube-system', '-f', '-'));
    await until('the expired lease collected', async () => (await s.kubectl('get', 'lease', '-n', 'kube-system', 'apiserver-gone')).code !== 0);
    expect((await s.kubectl('get', 'lease', '-n', 'kube-system', 'apiserver-alive')).code).toBe(0);
  });

  it('names the identity lease as upstream: apiserver- and the base32 of sha256 over the length-prefixed hostname and "kube-apiserver"', () => {
    // computed apart with Python's hashlib and base64.b32encode
    expect(apiserverIdentity('mini-kube-host')).toBe('apiserver-sz4lsddzx6dsuczhx5vb42iwyy');
    expect(apiserverIdentity('a')).toBe('apiserver-2tpgmlbwcz6wvzejdfn7mej2p4');
  });

  it('refuses to delete a system priority class', async () => {
    const r = await s.kubectl('delete', 'priorityclass', 'system-node-critical');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error from server (Forbidden): priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted\n');
    const dry = await s.kubectl('delete', 'priorityclass', 'system-cluster-critical', '--dry-run=server');
    expect(dry.stderr).toMatch(/is forbidden: this is a system priority class and cannot be deleted/);
    expect(await cleanStdout(s.kubectl('get', 'pc', '-o', 'name'))).toBe('priorityclass.scheduling.k8s.io/system-cluster-critical\npriorityclass.scheduling.k8s.io/system-node-critical\n');
  });

  it("quotes a changed roleRef, and a namespaced rule's non-resource URLs, as Go's %#v", async () => {
    await cleanStdout(s.kubectl('create', 'role', 'r0', '--verb=get', '--resource=pods'));
    await cleanStdout(s.kubectl('create', 'rolebinding', 'rb1', '--role=r0', '--user=u'));
    const r = await s.kubectl('patch', 'rolebinding', 'rb1', '--type=merge', '-p', '{"roleRef":{"name":"r1"}}');
    expect(r.stderr).toBe('The RoleBinding "rb1" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"r1"}: cannot change roleRef\n');
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r2' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] };
    const bad = await s.kubectlWithInput(JSON.stringify(role), 'create', '-f', '-');
    expect(bad.stderr).toBe('The Role "r2" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs\n');
  });
});
