// The horizontal pod autoscaler with the real kubectl: `kubectl autoscale` makes an autoscaling/v2 object (upstream's
// defaults, validation, printer columns), the controller keeps the Deployment within minReplicas..maxReplicas with
// SuccessfulRescale events and says ScalingActive False / FailedGetResourceMetric while no resource metrics API is
// served; then a tiny metrics adapter served by this test (APIServices for metrics.k8s.io/v1beta1,
// custom.metrics.k8s.io/v1beta2 and external.metrics.k8s.io/v1beta1) reports the pods' CPU, a per-pod custom metric
// and an external one, and the autoscaler scales as upstream's would, within its behavior's policies. The sync period
// is 1 s here (upstream's default 15 s) and the CPU initialization period off, so that fresh pods count at once.
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
/** The query strings the adapter was asked, by path (every HPA of the file asks: each one's selector is there). */
const asked = new Map<string, Set<string>>();

const deployment = (name: string, replicas: number): KubeObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] } },
  },
});

/** Plays the kubelet for the app's pods: each Running and Ready; their number. */
async function runningPods(app: string): Promise<number> {
  const pods = (await h.c.pods('default').list({ labelSelector: `app=${app}` })).items;
  await markReady(h.c, 'default', pods.filter((p) => p.status?.phase !== 'Running').map((p) => p.metadata!.name!));
  return pods.length;
}

const hpaOf = (name: string) => h.c.resource(Resources.horizontalPodAutoscalers, 'default').get(name);
const replicasOf = async (name: string): Promise<number> => Number((await h.c.deployments('default').get(name)).spec?.replicas);

beforeAll(async () => {
  h = await startHarness(['horizontalpodautoscaling', 'deployment', 'replicaset'], { config: { hpaSyncPeriodMs: 1000, hpaCpuInitializationPeriodMs: 0 } });
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

  it('without a custom metrics API, says so as upstream does', async () => {
    await h.c.deployments('default').create(deployment('lonely', 1));
    await h.c.resource(Resources.horizontalPodAutoscalers, 'default').create({
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'lonely' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'lonely' }, maxReplicas: 3, metrics: [{ type: 'Pods', pods: { metric: { name: 'requests_per_second' }, target: { type: 'AverageValue', averageValue: '10' } } }] },
    });
    const hpa = await eventually(() => hpaOf('lonely'), (o) => o.status?.conditions?.some((c: { type: string }) => c.type === 'ScalingActive'), 'ScalingActive');
    expect(hpa.status.conditions.find((c: { type: string }) => c.type === 'ScalingActive')).toEqual(expect.objectContaining({
      status: 'False', reason: 'FailedGetPodsMetric',
      message: 'the HPA was unable to compute the replica count: unable to get metric requests_per_second: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered',
    }));
    // a failed metric's place in currentMetrics is Go's zero MetricStatus
    expect(hpa.status.currentMetrics).toEqual([{ type: '' }]);
    const events = await eventually(async () => (await h.s.kubectl('get', 'events', '--field-selector', 'involvedObject.name=lonely,involvedObject.kind=HorizontalPodAutoscaler', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}')).stdout,
      (out) => out.includes('FailedComputeMetricsReplicas'), 'events');
    expect(events).toContain('FailedGetPodsMetric: unable to get metric requests_per_second: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered\n');
    expect(events).toContain('FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get pods metric value: unable to get metric requests_per_second:');
  }, 60_000);

  it('follows the pods\' CPU utilization from the resource metrics API', async () => {
    const ca = await createCa('metrics-ca', 1);
    const pair = await issueCertificate(ca, { subject: { commonName: 'metrics-adapter' }, usage: 'server', sans: ['127.0.0.1'], days: 1 });
    const discovery = (groupVersion: string, resources: { name: string; kind: string }[]) =>
      ({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: resources.map((r) => ({ ...r, namespaced: true, verbs: ['get', 'list'] })) });
    const podsOf = async (selector: string) => (await h.c.pods('default').list({ labelSelector: selector })).items;
    metrics = createServer({ cert: pair.certPem, key: pair.keyPem }, (req, res) => {
      const [path = '', query = ''] = (req.url ?? '').split('?');
      let queries = asked.get(path);
      if (!queries) asked.set(path, (queries = new Set()));
      queries.add(decodeURIComponent(query));
      const params = new URLSearchParams(query);
      const json = (body: unknown): void => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
      const now = new Date().toISOString();
      switch (path) {
        case '/apis/metrics.k8s.io/v1beta1': return json(discovery('metrics.k8s.io/v1beta1', [{ name: 'pods', kind: 'PodMetrics' }]));
        case '/apis/custom.metrics.k8s.io/v1beta2': return json(discovery('custom.metrics.k8s.io/v1beta2', [{ name: 'pods/requests_per_second', kind: 'MetricValueList' }]));
        case '/apis/external.metrics.k8s.io/v1beta1': return json(discovery('external.metrics.k8s.io/v1beta1', [{ name: 'queue_length', kind: 'ExternalMetricValueList' }]));
        case '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods':
          void podsOf(params.get('labelSelector') ?? '').then((pods) => json({
            kind: 'PodMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {},
            items: pods.map((p) => ({ metadata: { name: p.metadata!.name, namespace: 'default' }, timestamp: now, window: '15s', containers: [{ name: 'c', usage: { cpu: usage, memory: '10Mi' } }] })),
          }));
          return;
        case '/apis/custom.metrics.k8s.io/v1beta2/namespaces/default/pods/*/requests_per_second':
          void podsOf(params.get('labelSelector') ?? '').then((pods) => json({
            kind: 'MetricValueList', apiVersion: 'custom.metrics.k8s.io/v1beta2', metadata: {},
            items: pods.map((p) => ({ describedObject: { kind: 'Pod', namespace: 'default', name: p.metadata!.name, apiVersion: '/v1' }, metric: { name: 'requests_per_second' }, timestamp: now, windowSeconds: 30, value: '20' })),
          }));
          return;
        case '/apis/external.metrics.k8s.io/v1beta1/namespaces/default/queue_length':
          return json({ kind: 'ExternalMetricValueList', apiVersion: 'external.metrics.k8s.io/v1beta1', metadata: {}, items: [
            { metricName: 'queue_length', metricLabels: { queue: 'jobs', shard: '0' }, timestamp: now, value: '40' },
            { metricName: 'queue_length', metricLabels: { queue: 'jobs', shard: '1' }, timestamp: now, value: '50' },
          ] });
        case '/apis/custom.metrics.k8s.io/v1beta2/namespaces/default/deployments.apps/obj/queue_depth':
          return json({ kind: 'MetricValueList', apiVersion: 'custom.metrics.k8s.io/v1beta2', metadata: {}, items: [
            { describedObject: { kind: 'Deployment', namespace: 'default', name: 'obj', apiVersion: 'apps/v1' }, metric: { name: 'queue_depth' }, timestamp: now, value: '30' },
          ] });
        default: res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => metrics!.listen(0, '127.0.0.1', r));
    const port = (metrics.address() as AddressInfo).port;
    await h.s.api('POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'metrics-adapter' }, spec: { ports: [{ name: 'https', port: 443 }] } });
    await h.s.api('POST', '/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'metrics-adapter' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] });
    for (const [group, version] of [['metrics.k8s.io', 'v1beta1'], ['custom.metrics.k8s.io', 'v1beta2'], ['external.metrics.k8s.io', 'v1beta1']] as const) {
      await h.s.api('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
        apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `${version}.${group}` },
        spec: { group, version, service: { namespace: 'default', name: 'metrics-adapter' }, insecureSkipTLSVerify: true, groupPriorityMinimum: 100, versionPriority: 100 },
      });
    }

    await h.c.deployments('default').create(deployment('busy', 2));
    const running = (): Promise<number> => runningPods('busy');
    await eventually(running, (n) => n === 2, 'two busy pods');
    usage = '100m'; // 100% of the 100m requested, against a 50% target: twice the pods
    await h.s.kubectl('autoscale', 'deployment', 'busy', '--min=1', '--max=10', '--cpu-percent=50');
    await eventually(() => replicasOf('busy'), (n) => n === 4, 'busy scaled up to 4');
    await eventually(running, (n) => n === 4, 'four busy pods');
    const hpa = await eventually(() => hpaOf('busy'), (o) => o.status?.currentMetrics?.[0]?.resource?.current?.averageUtilization === 100, 'current utilization reported');
    // the utilization and the pods' average usage it comes from
    expect(hpa.status.currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 100, averageValue: '100m' } } }]);
    expect(hpa.status.conditions.find((c: { type: string }) => c.type === 'ScalingActive')).toMatchObject({ status: 'True', reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)' });
    expect((await h.s.kubectl('get', 'hpa', 'busy')).stdout).toMatch(/busy\s+Deployment\/busy\s+cpu: 100%\/50%\s+1\s+10\s+\d+/);
    const events = await h.s.kubectl('get', 'events', '--field-selector', 'involvedObject.name=busy,involvedObject.kind=HorizontalPodAutoscaler', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}');
    expect(events.stdout).toContain('SuccessfulRescale: New size: 4; reason: cpu resource utilization (percentage of request) above target\n');
  }, 90_000);

  it('scales on custom and external metrics within its behavior\'s policies', async () => {
    await h.c.deployments('default').create(deployment('queue', 2));
    const running = (): Promise<number> => runningPods('queue');
    await eventually(running, (n) => n === 2, 'two queue pods');
    const jobs = { matchLabels: { queue: 'jobs' } };
    await h.c.resource(Resources.horizontalPodAutoscalers, 'default').create({
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'queue' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'queue' }, minReplicas: 1, maxReplicas: 10,
        metrics: [
          // 20 per pod against 10: 4 pods
          { type: 'Pods', pods: { metric: { name: 'requests_per_second' }, target: { type: 'AverageValue', averageValue: '10' } } },
          // 90 in all against 30: 3 × the 2 ready pods, 6
          { type: 'External', external: { metric: { name: 'queue_length', selector: jobs }, target: { type: 'Value', value: '30' } } },
        ],
        behavior: { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
      },
    });
    // one pod a minute: 3, limited
    await eventually(() => replicasOf('queue'), (n) => n === 3, 'queue scaled up by one');
    const hpa = await eventually(() => hpaOf('queue'), (o) => o.status?.desiredReplicas === 3, 'desired 3');
    expect(hpa.spec.behavior.scaleUp).toEqual({ stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] });
    expect(hpa.status.currentMetrics).toEqual([
      { type: 'Pods', pods: { metric: { name: 'requests_per_second' }, current: { averageValue: '20' } } },
      { type: 'External', external: { metric: { name: 'queue_length', selector: jobs }, current: { value: '90' } } },
    ]);
    const conditions = Object.fromEntries(hpa.status.conditions.map((c: { type: string; reason: string }) => [c.type, c.reason]));
    expect(conditions).toEqual({ AbleToScale: 'SucceededRescale', ScalingActive: 'ValidMetricFound', ScalingLimited: 'ScaleUpLimit' });
    expect(asked.get('/apis/custom.metrics.k8s.io/v1beta2/namespaces/default/pods/*/requests_per_second')).toContain('labelSelector=app=queue');
    expect(asked.get('/apis/external.metrics.k8s.io/v1beta1/namespaces/default/queue_length')).toContain('labelSelector=queue=jobs');
    const events = await h.s.kubectl('get', 'events', '--field-selector', 'involvedObject.name=queue,involvedObject.kind=HorizontalPodAutoscaler', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}');
    expect(events.stdout).toContain('SuccessfulRescale: New size: 3; reason: external metric queue_length(&LabelSelector{MatchLabels:map[string]string{queue: jobs,},MatchExpressions:[]LabelSelectorRequirement{},}) above target\n');
    expect((await h.s.kubectl('get', 'hpa', 'queue')).stdout).toMatch(/queue\s+Deployment\/queue\s+20\/10, 90\/30\s+1\s+10\s+\d+/);

    // a second autoscaler of the same pods: both stop
    await h.c.resource(Resources.horizontalPodAutoscalers, 'default').create({
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'queue-again' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'queue' }, maxReplicas: 10 },
    });
    // discovery with the adapters' subresource-only lists still works for kubectl
    const resources = await h.s.kubectl('api-resources');
    expect(resources.code).toBe(0);
    const ambiguous = await eventually(() => hpaOf('queue'), (o) => o.status?.conditions?.some((c: { reason: string }) => c.reason === 'AmbiguousSelector'), 'AmbiguousSelector');
    expect(ambiguous.status.conditions.find((c: { type: string }) => c.type === 'ScalingActive')).toMatchObject({
      status: 'False', message: 'pods by selector app=queue are controlled by multiple HPAs: [default/queue default/queue-again]',
    });
  }, 90_000);

  it('scales on an Object metric of the Deployment itself and on one container\'s CPU', async () => {
    for (const name of ['obj', 'ctr']) await h.c.deployments('default').create(deployment(name, 1));
    await eventually(async () => (await runningPods('obj')) + (await runningPods('ctr')), (n) => n === 2, 'one pod each');
    const hpas = h.c.resource(Resources.horizontalPodAutoscalers, 'default');
    const target = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name });
    await hpas.create({
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'obj' },
      // 30 queued against 10: three times the one ready pod
      spec: { scaleTargetRef: target('obj'), maxReplicas: 5, metrics: [{ type: 'Object', object: { describedObject: target('obj'), metric: { name: 'queue_depth' }, target: { type: 'Value', value: '10' } } }] },
    });
    await hpas.create({
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'ctr' },
      // container c uses 100m of its 100m request against a 50% target: two pods
      spec: { scaleTargetRef: target('ctr'), maxReplicas: 5, metrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'c', target: { type: 'Utilization', averageUtilization: 50 } } }] },
    });
    await eventually(() => replicasOf('obj'), (n) => n === 3, 'obj scaled to 3');
    await eventually(() => replicasOf('ctr'), (n) => n === 2, 'ctr scaled to 2');
    const obj = await eventually(() => hpaOf('obj'), (o) => o.status?.currentMetrics?.[0]?.type === 'Object', 'the Object metric\'s status');
    expect(obj.status.currentMetrics).toEqual([{ type: 'Object', object: { describedObject: target('obj'), metric: { name: 'queue_depth' }, current: { value: '30' } } }]);
    const ctr = await eventually(() => hpaOf('ctr'), (o) => o.status?.currentMetrics?.[0]?.type === 'ContainerResource', 'the container metric\'s status');
    expect(ctr.status.currentMetrics).toEqual([{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'c', current: { averageUtilization: 100, averageValue: '100m' } } }]);
    const events = await h.s.kubectl('get', 'events', '--field-selector', 'involvedObject.kind=HorizontalPodAutoscaler', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}');
    expect(events.stdout).toContain('SuccessfulRescale: New size: 3; reason: Deployment metric queue_depth above target\n');
    expect(events.stdout).toContain('SuccessfulRescale: New size: 2; reason: cpu container resource utilization (percentage of request) above target\n');
  }, 90_000);
});
