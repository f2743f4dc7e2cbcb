// `mini-kube up --nodes 3 --runtime fake`: one kubelet process simulates the three nodes; the seeds' scenario runs,
// each pod's IP is from its node's podCIDR (node-ipam's), and a StatefulSet's volumeClaimTemplates are provisioned
// from the default StorageClass `up` creates.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { kubectl } from '../support/apiserver.js';
import { eventually } from './kubelet-support.js';
import { main, seedsScenario, startUp, stopUp } from './kubelet-up-support.js';

afterEach(stopUp);

const STATEFULSET = `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: busybox, command: [sleep, "600"], volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]
`;

describe.skipIf(!existsSync(main))('mini-kube up with the fake runtime (compiled)', () => {
  it('3 simulated nodes Ready; the deployment of 3 runs; a StatefulSet gets its volume', async () => {
    const kc = await startUp('--nodes', '3', '--runtime', 'fake');
    await seedsScenario(kc);
    const cidrs = new Map((await kubectl(kc, ['get', 'nodes', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.spec.podCIDR}{"\\n"}{end}'])).stdout
      .trim().split('\n').map((l) => l.split(' ') as [string, string]));
    expect([...cidrs.values()].every((c) => /^10\.244\.\d+\.0\/24$/.test(c))).toBe(true);
    for (const l of (await kubectl(kc, ['get', 'pods', '-l', 'app=web', '-o', 'wide', '--no-headers'])).stdout.trim().split('\n')) {
      const [name, ip, node] = [l.split(/\s+/)[0]!, ...l.split(/\s+/).slice(5, 7)] as [string, string, string];
      expect(ip.startsWith(cidrs.get(node)!.replace(/0\/24$/, ''))).toBe(true);
      // whichever simulated node runs it, the apiserver reaches that node's kubelet (its own loopback address)
      expect((await kubectl(kc, ['logs', name])).stdout).toBe('fake container nginx started\n');
      expect((await kubectl(kc, ['exec', name, '--', 'echo', node])).stdout).toBe(`${node}\n`);
      const listed = JSON.parse((await kubectl(kc, ['get', '--raw', `/api/v1/nodes/${node}/proxy/pods`])).stdout) as { items: { spec: { nodeName: string } }[] };
      expect(listed.items.length).toBeGreaterThan(0);
      expect(listed.items.every((p) => p.spec.nodeName === node)).toBe(true);
    }
    expect((await kubectl(kc, ['get', 'storageclass', '--no-headers'])).stdout).toMatch(/^standard \(default\)\s+mini-kube\.io\/hostpath\s+Delete\s+WaitForFirstConsumer/);
    expect((await kubectl(kc, ['apply', '-f', '-'], STATEFULSET)).code).toBe(0);
    await eventually(async () => /\s1\/1\s+Running\s/.test((await kubectl(kc, ['get', 'pod', 'db-0', '--no-headers'])).stdout), 30_000, 'db-0 Running');
    expect((await kubectl(kc, ['get', 'pvc', 'data-db-0', '--no-headers'])).stdout).toMatch(/^data-db-0\s+Bound\s+pvc-[0-9a-f-]+\s+1Gi\s+RWO\s+standard/);
  }, 90_000);
});
