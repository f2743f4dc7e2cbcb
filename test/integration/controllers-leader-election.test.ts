// Leader election of `mini-kube controller-manager` between two OS processes on the Lease
// kube-system/kube-controller-manager: only the holder runs controllers; when it is killed the other takes over
// once the lease expires; SIGTERM releases the lease and exits 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../pkg/client/index.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { bundleMain, controllerManagerKubeconfig, eventually, exists, spawnControllerManager, type CmProcess } from './controllers-support.js';

let s: TestApiServer;
let main: string;
let kubeconfig: string;
let cleanup: () => Promise<void>;
const procs: CmProcess[] = [];

const args = [
  '--controllers', 'serviceaccount', '--use-service-account-credentials',
  '--leader-elect-lease-duration=3s', '--leader-elect-renew-deadline=2s', '--leader-elect-retry-period=300ms',
];
const start = (): CmProcess => { const p = spawnControllerManager(main, kubeconfig, args); procs.push(p); return p; };
const holder = async (): Promise<string> => {
  const r = await s.api('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager');
  return r.status === 200 ? ((r.body as KubeObject).spec?.holderIdentity ?? '') : '';
};
const leading = (p: CmProcess): boolean => p.logs().includes('"msg":"started leading"');

beforeAll(async () => {
  // controllers: [] — the default account must come back from the elected controller-manager, not from the harness.
  const [server, bundle] = await Promise.all([startTestApiServer({ storageBackend: 'memory', controllers: [] }), bundleMain()]);
  s = server;
  main = bundle.main;
  cleanup = bundle.cleanup;
  kubeconfig = await controllerManagerKubeconfig(s);
}, 60_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')));
  await s?.close();
  await cleanup?.();
});

describe('controller-manager leader election', () => {
  it('hands over when the leader dies, and releases the lease on SIGTERM', async () => {
    const a = start();
    const first = await eventually(holder, (h) => h !== '', 'a leader', 20_000);
    await eventually(async () => leading(a), Boolean, 'a to start leading');
    const b = start();
    await eventually(async () => b.logs(), (l) => l.includes('new leader elected'), 'b to see the leader', 20_000);
    expect(leading(b)).toBe(false);
    expect(await holder()).toBe(first);

    a.child.kill('SIGKILL');
    const second = await eventually(holder, (h) => h !== '' && h !== first, 'b to take over', 20_000);
    await eventually(async () => leading(b), Boolean, 'b to start leading');
    // The new leader's controllers work: a deleted default ServiceAccount comes back.
    await eventually(() => exists(s, '/api/v1/namespaces/default/serviceaccounts/default'), Boolean, 'the default account');
    await s.api('DELETE', '/api/v1/namespaces/default/serviceaccounts/default');
    await eventually(() => exists(s, '/api/v1/namespaces/default/serviceaccounts/default'), Boolean, 'the default account to be re-created by b');

    const exit = await b.stop('SIGTERM');
    expect(exit.code).toBe(0);
    const released = await s.api('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager');
    expect((released.body as KubeObject).spec?.holderIdentity ?? '').toBe('');
    expect(second).not.toBe(first);
  }, 60_000);

  // As client-go's renew(): with the apiserver gone, renewals fail (connection refused is not retried) until the
  // renew deadline passes; the leader stops leading and, as kube-controller-manager, exits ("leader election lost").
  it('a leader whose apiserver goes away loses leadership within the renew deadline and exits', async () => {
    const c = start();
    await eventually(async () => leading(c), Boolean, 'c to start leading', 20_000);
    await s.stop();
    const stoppedAt = Date.now();
    const exit = await Promise.race([c.exited, new Promise<undefined>((r) => setTimeout(r, 15_000))]);
    expect(exit?.code).toBe(1);
    expect(Date.now() - stoppedAt).toBeLessThan(2_000 + 300 + 5_000); // renew deadline + retry period + the exit itself
    expect(c.logs()).toContain('error retrieving resource lock');
    expect(c.logs()).toContain('failed to renew lease kube-controller-manager');
    expect(c.logs()).toContain('leader election lost');
  }, 60_000);
});
