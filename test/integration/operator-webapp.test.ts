// The example WebApp operator (pkg/client/examples/webapp-operator) against `mini-kube up` with the fake runtime:
// kubectl installs the CRD and creates the WebApp; the operator's Deployment runs its pods and the WebApp reports
// them ready; spec and ConfigMap changes propagate; a standby replica takes over once the leader releases its
// Lease; deleting the WebApp garbage-collects the Deployment and its pods.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Client, isNotFound, loadKubeconfig, type KubeObject } from '../../pkg/client/index.js';
import { runWebAppOperator } from '../../pkg/client/examples/webapp-operator/operator.js';
import { CONFIG_VERSION_ANNOTATION, FIELD_MANAGER, NAME_LABEL, WebApps, type WebApp } from '../../pkg/client/examples/webapp-operator/webapp.js';
import { kubectl } from '../support/apiserver.js';
import { eventually } from './kubelet-support.js';
import { main, startUp, stopUp } from './kubelet-up-support.js';

afterEach(stopUp);

const CRD = join(dirname(fileURLToPath(import.meta.url)), '../../pkg/client/examples/webapp-operator/crd.yaml');
const WEBAPP = `
apiVersion: example.mini-kube.io/v1
kind: WebApp
metadata: {name: web, namespace: default}
spec: {image: 'nginx:1.25', replicas: 2, configMap: web-config}
`;
// Short lease timings so that the takeover after a release is observed within the test's budget.
const LEASE = {
  leaseNamespace: 'default', leaseDurationMs: 4_000, renewDeadlineMs: 3_000, retryPeriodMs: 250,
  logger: pino({ name: 'webapp-operator', level: process.env.MINI_KUBE_TEST_LOG ?? 'warn' }),
};

describe.skipIf(!existsSync(main))('the example WebApp operator on mini-kube up (fake runtime)', () => {
  it('reconciles a WebApp into a Deployment, reports status, hands over its lease and is garbage-collected', async () => {
    const kc = await startUp('--nodes', '1', '--runtime', 'fake');
    const k = (...args: string[]) => kubectl(kc, args);
    const c = new Client({ ...(await loadKubeconfig(kc)), qps: 0 });
    const webapps = c.resource<WebApp>(WebApps, 'default');
    const stopA = new AbortController();
    const stopB = new AbortController();
    let a: Promise<void> | undefined;
    let b: Promise<void> | undefined;
    try {
      expect((await k('apply', '-f', CRD)).code).toBe(0);
      expect((await k('wait', '--for=condition=Established', 'crd/webapps.example.mini-kube.io', '--timeout=20s')).code).toBe(0);

      const leaderOf = async (): Promise<string | undefined> => (await c.leases('default').get(FIELD_MANAGER)).spec?.holderIdentity;
      a = runWebAppOperator(c, stopA.signal, { ...LEASE, identity: 'op-a' });
      await eventually(async () => (await leaderOf()) === 'op-a', 15_000, 'op-a leading');
      const seenByB: string[] = [];
      b = runWebAppOperator(c, stopB.signal, { ...LEASE, identity: 'op-b', onNewLeader: (id) => seenByB.push(id) });
      await eventually(async () => seenByB.includes('op-a'), 15_000, 'op-b observing op-a');

      expect((await k('create', 'configmap', 'web-config', '--from-literal=greeting=hello')).code).toBe(0);
      const created = await kubectl(kc, ['create', '-f', '-'], WEBAPP);
      expect(created.stderr).toBe('');
      expect(created.stdout).toContain('webapp.example.mini-kube.io/web created');
      const app = await webapps.get('web');

      const dep = await eventually(() => c.deployments('default').get('web').catch(() => undefined), 15_000, 'the Deployment');
      expect(dep.metadata?.ownerReferences).toEqual([{ apiVersion: 'example.mini-kube.io/v1', kind: 'WebApp', name: 'web', uid: app.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
      expect(dep.metadata?.managedFields?.find((m) => m.manager === FIELD_MANAGER)?.operation).toBe('Apply');
      const cm = await c.configMaps('default').get('web-config');
      expect(dep.spec.template.metadata.annotations[CONFIG_VERSION_ANNOTATION]).toBe(cm.metadata!.resourceVersion);

      const readyWith = (replicas: number, image: string) => async (): Promise<WebApp | undefined> => {
        const w = await webapps.get('web');
        const ready = w.status?.conditions?.find((x) => x.type === 'Ready');
        const pods = (await c.pods('default').list({ labelSelector: `${NAME_LABEL}=web` })).items;
        const running = pods.filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp && p.spec.containers[0].image === image);
        if (w.status?.readyReplicas === replicas && w.status.observedGeneration === w.metadata!.generation && ready?.status === 'True' &&
          running.length === replicas && pods.length === replicas) return w;
        // Thrown, so that a time-out says where things stand.
        throw new Error(`generation ${String(w.metadata!.generation)}, status ${JSON.stringify(w.status)}, pods ${JSON.stringify(pods.map((p) => [p.metadata!.name, p.status?.phase, p.spec.containers[0].image]))}`);
      };
      const ready = await eventually(readyWith(2, 'nginx:1.25'), 30_000, '2 pods Running and the WebApp Ready');
      expect(ready.status).toMatchObject({ replicas: 2, readyReplicas: 2, selector: `${NAME_LABEL}=web`, observedGeneration: 1 });
      expect(ready.status!.conditions![0]).toMatchObject({ type: 'Ready', status: 'True', reason: 'DeploymentReady', message: '2/2 replicas ready', observedGeneration: 1 });

      // Printer columns of the CRD, through kubectl's Table request.
      const get = await k('get', 'webapps');
      expect(get.stdout.split('\n')[0]).toMatch(/^NAME\s+IMAGE\s+DESIRED\s+READY\s+AGE$/);
      expect(get.stdout.split('\n')[1]).toMatch(/^web\s+nginx:1\.25\s+2\s+2\s+\d+s$/);
      expect((await k('get', 'wa', 'web', '-o', 'jsonpath={.status.conditions[0].reason}')).stdout).toBe('DeploymentReady');
      const events = await eventually(async () => {
        const l = await c.events('default').list({ fieldSelector: 'involvedObject.kind=WebApp,involvedObject.name=web' });
        const reasons = l.items.map((e) => e.reason);
        return reasons.includes('Created') && reasons.includes('Ready') ? l : undefined;
      }, 10_000, 'the WebApp\'s events');
      expect(events.items.every((e) => e.source?.component === FIELD_MANAGER && e.involvedObject.uid === app.metadata!.uid)).toBe(true);

      // A spec change (kubectl's merge patch) rolls out; the WebApp reports the new generation once it has.
      expect((await k('patch', 'webapp', 'web', '--type=merge', '-p', '{"spec":{"image":"nginx:1.26","replicas":3}}')).code).toBe(0);
      const rolled = await eventually(readyWith(3, 'nginx:1.26'), 30_000, '3 pods of nginx:1.26 and the WebApp Ready');
      expect(rolled.status?.observedGeneration).toBe(2);

      // A ConfigMap change reaches the pod template through the metadata-only informer.
      const cm2 = await c.configMaps('default').patch('web-config', 'merge', { data: { greeting: 'bonjour' } });
      await eventually(async () => (await c.deployments('default').get('web')).spec.template.metadata.annotations[CONFIG_VERSION_ANNOTATION] === cm2.metadata!.resourceVersion, 10_000, 'the config version rolled');

      // The leader releases its lease on shutdown; the standby replica takes over and reconciles from then on.
      stopA.abort();
      await a;
      await eventually(async () => (await leaderOf()) === 'op-b', 10_000, 'op-b leading');
      expect((await k('scale', 'webapp', 'web', '--replicas=1')).stdout).toContain('webapp.example.mini-kube.io/web scaled');
      await eventually(readyWith(1, 'nginx:1.26'), 30_000, 'scaled to 1 by op-b');

      // Deleting the WebApp: the garbage collector removes its Deployment, ReplicaSets and pods.
      expect((await k('delete', 'webapp', 'web')).code).toBe(0);
      await eventually(async () => {
        const left = [
          ...(await c.deployments('default').list({ labelSelector: `${NAME_LABEL}=web` })).items,
          ...(await c.replicaSets('default').list({ labelSelector: `${NAME_LABEL}=web` })).items,
          ...(await c.pods('default').list({ labelSelector: `${NAME_LABEL}=web` })).items,
        ];
        if (left.length === 0) return true;
        throw new Error(`left: ${JSON.stringify(left.map((o) => [o.kind, o.metadata!.name, o.metadata!.deletionTimestamp, o.metadata!.finalizers, o.metadata!.ownerReferences]))}`);
      }, 30_000, 'the Deployment, ReplicaSets and pods collected');
    } finally {
      stopA.abort();
      stopB.abort();
      await Promise.allSettled([a, b]);
      await c.close();
    }
  }, 120_000);
});
