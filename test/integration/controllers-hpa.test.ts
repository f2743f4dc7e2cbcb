// The horizontal pod autoscaler with the real kubectl: `kubectl autoscale` makes an autoscaling/v2 object (upstream's
// defaults, validation, printer columns), the controller keeps the Deployment within minReplicas..maxReplicas with
// SuccessfulRescale events and says ScalingActive False / FailedGetResourceMetric while no resource metrics API is
// served; then a tiny metrics-server (an APIService for metrics.k8s.io/v1beta1 served by this test) reports the pods'
// CPU and the autoscaler scales the Deployment up to what the utilization asks for.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../pkg/client/index.js';
import { Resources } from '../../pkg/client/index.js';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';
import { eventually, markReady, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
let metrics: Server | undefined;
/** The CPU each pod uses, as the fake metrics-server reports it. */
let usage = '50m';

const deployment = (name: string, replicas: number): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] } },
  },
});

const hpaOf = (name: string) => h.c.resource(Resources.horizontalPodAutoscalers, 'default').get(name);
const replicasOf = async (name: string): Promise<number> => Number((await h.c.deployments('default').get(name)).spec?.replicas);

beforeAll(async () => {
  h = await startHarness(['horizontalpodautoscaling', 'deployment', 'replicaset']);
}, 60_000);

afterAll(async () => {
  metrics?.close();
  await h?.stop();
});

describe('horizontal pod autoscaler', () => {
  it('kubectl autoscale: defaults, columns, and the replica count kept within bounds without metrics', async () => {
    await h.c.deployments('default').create(deployment('web', 1));
    const made = await h.s.kubectl('autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=50');
    expect(made.stderr).toBe('');
    expect(made.stdout).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    const hpa = await hpaOf('web');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec).toMatchObject({ minReplicas: 2, maxReplicas: 5, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } });
    await eventually(() => replicasOf('web'), (n) => n === 2, 'web scaled to minReplicas');
    const active = await eventually(() => hpaOf('web'), (o) => o.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'ScalingActive' && c.status === 'False'), 'ScalingActive False');
    expect(active.status.conditions.find((c: { type: string }) => c.type === 'ScalingActive')).toMatchObject({
      reason: 'FailedGetResourceMetric',
      message: expect.stringContaining('unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)'),
    });
    expect(active.status.conditions.find((c: { type: string }) => c.type === 'AbleToScale')).toMatchObject({ status: 'True' });
    const table = await h.s.kubectl('get', 'hpa', 'web');
    expect(table.stdout).toMatch(/^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\nweb\s+Deployment\/web\s+cpu: <unknown>\/50%\s+2\s+5\s+2\s+\S+\n$/);
    const events = await h.s.kubectl('get', 'events', '--field-selector', 'involvedObject.kind=HorizontalPodAutoscaler', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}');
    expect(events.stdout).toContain('SuccessfulRescale: New size: 2; reason: Current number of replicas below Spec.MinReplicas');
    expect(events.stdout).toContain('FailedGetResourceMetric');
    // maxReplicas below the replica count scales down to it
    await h.c.resource(Resources.horizontalPodAutoscalers, 'default').patch('web', 'merge', { spec: { minReplicas: 1, maxReplicas: 1 } });
    await eventually(() => replicasOf('web'), (n) => n === 1, 'web scaled to maxReplicas');
  }, 60_000);

  it('refuses what upstream refuses, with its messages', async () => {
    const bad = await h.s.kubectlWithInput(JSON.stringify({
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'bad' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 3, maxReplicas: 2, metrics: [{ type: 'Resource' }] },
    }), 'apply', '-f', '-');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`');
    expect(bad.stderr).toContain('spec.metrics[0].resource: Required value: must populate information for the given metric source');
  });

  it('follows the pods\' CPU utilization from the resource metrics API', async () => {
    const ca = await createCa('metrics-ca', 1);
    const pair = await issueCertificate(ca, { subject: { commonName: 'metrics-server' }, usage: 'server', sans: ['127.0.0.1'], days: 1 });
    metrics = createServer({ cert: pair.certPem, key: pair.keyPem }, (req, res) => {
      const path = (req.url ?? '').split('?')[0];
      const json = (body: unknown): void => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
      if (path === '/apis/metrics.k8s.io/v1beta1') {
        return json({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'metrics.k8s.io/v1beta1', resources: [{ name: 'pods', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] }] });
      }
      if (path === '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods') {
        void h.c.pods('default').list({ labelSelector: 'app=busy' }).then((pods) => json({
          kind: 'PodMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {},
          items: pods.items.map((p) => ({ metadata: { name: p.metadata!.name, namespace: 'default' }, timestamp: new Date().toISOString(), window: '15s', containers: [{ name: 'c', usage: { cpu: usage, memory: '10Mi' } }] })),
        }));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => metrics!.listen(0, '127.0.0.1', r));
    const port = (metrics.address() as AddressInfo).port;
    await h.s.api('POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'metrics-server' }, spec: { ports: [{ name: 'https', port: 443 }] } });
    await h.s.api('POST', '/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'metrics-server' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] });
    await h.s.api('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: { group: 'metrics.k8s.io', version: 'v1beta1', service: { namespace: 'default', name: 'metrics-server' }, insecureSkipTLSVerify: true, groupPriorityMinimum: 100, versionPriority: 100 },
    });

    await h.c.deployments('default').create(deployment('busy', 2));
    const running = async (): Promise<number> => {
      const pods = (await h.c.pods('default').list({ labelSelector: 'app=busy' })).items;
      await markReady(h.c, 'default', pods.filter((p) => p.status?.phase !== 'Running').map((p) => p.metadata!.name!));
      return pods.length;
    };
    await eventually(running, (n) => n === 2, 'two busy pods');
    usage = '100m'; // 100% of the 100m requested, against a 50% target: twice the pods
    await h.s.kubectl('autoscale', 'deployment', 'busy', '--min=1', '--max=10', '--cpu-percent=50');
    await eventually(() => replicasOf('busy'), (n) => n === 4, 'busy scaled up to 4');
    await eventually(running, (n) => n === 4, 'four busy pods');
    const hpa = await eventually(() => hpaOf('busy'), (o) => o.status?.currentMetrics?.[0]?.resource?.current?.averageUtilization === 100, 'current utilization reported');
    expect(hpa.status.conditions.find((c: { type: string }) => c.type === 'ScalingActive')).toMatchObject({ status: 'True', reason: 'ValidMetricFound' });
    expect((await h.s.kubectl('get', 'hpa', 'busy')).stdout).toMatch(/busy\s+Deployment\/busy\s+cpu: 100%\/50%\s+1\s+10\s+\d+/);
  }, 90_000);
});
