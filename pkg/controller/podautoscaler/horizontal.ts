// The horizontal pod autoscaler controller (upstream pkg/controller/podautoscaler/horizontal.go), every
// --horizontal-pod-autoscaler-sync-period (15 s): read the target's scale; keep it within minReplicas..maxReplicas;
// otherwise follow Resource metrics read from the resource metrics API (metrics.k8s.io, served by metrics-server
// when one is installed behind an APIService). Without that API, or for Pods/Object/External metrics (custom and
// external metrics APIs), the autoscaler says so as upstream does: ScalingActive False, FailedGetResourceMetric
// (or FailedGetPodsMetric, ...) events, and no scaling beyond the bounds. Scale-down waits out the stabilization
// window (300 s by default), scale-up none.
import type { KubeObject } from '../../../api/types.js';
import { parseLabelSelector } from '../../apimachinery/labels.js';
import { formatTime, isNotFound, Resources, type Scale } from '../../client/index.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { type Condition, now, workerLoop } from '../shared/controller-utils.js';
import { quantityNumber, replicasForResource, type PodUsage, type Recommendation } from './replicas.js';

const SYNC_PERIOD_MS = 15_000;
const METRICS_API = '/apis/metrics.k8s.io/v1beta1';

interface MetricSpec { type: string; resource?: { name: string; target: { type: string; averageUtilization?: number; averageValue?: string } } }
interface PodMetrics { metadata: { name: string }; containers: { name: string; usage: Record<string, string> }[] }

const FAILED_REASON: Record<string, string> = {
  Resource: 'FailedGetResourceMetric', ContainerResource: 'FailedGetContainerResourceMetric', Pods: 'FailedGetPodsMetric',
  Object: 'FailedGetObjectMetric', External: 'FailedGetExternalMetric',
};
const UNAVAILABLE_API: Record<string, string> = {
  Pods: 'custom.metrics.k8s.io', Object: 'custom.metrics.k8s.io', External: 'external.metrics.k8s.io',
};

/** Sets a condition, keeping lastTransitionTime when the status does not change (upstream setCondition). */
function setCondition(conds: Condition[], type: string, status: 'True' | 'False', reason: string, message: string, at: string): Condition[] {
  const old = conds.find((c) => c.type === type);
  const next: Condition = { type, status, lastTransitionTime: old && old.status === status ? old.lastTransitionTime : at, reason, message };
  return [...conds.filter((c) => c.type !== type), next];
}

export async function startHorizontalPodAutoscalerController(ctx: ClusterControllerContext): Promise<void> {
  const hpas = ctx.informers.informerFor(Resources.horizontalPodAutoscalers);
  const pods = ctx.informers.pods();
  const lister = hpas.lister();
  const podLister = pods.lister();
  const loop = workerLoop(ctx, 'horizontal-pod-autoscaler-controller', sync);
  hpas.addEventHandler({ onAdd: (h) => loop.enqueue(h), onUpdate: (_o, h) => loop.enqueue(h) });
  /** Past recommendations per autoscaler, for the scale-down stabilization window. */
  const recommendations = new Map<string, { at: number; replicas: number }[]>();
  const plurals = new Map<string, string>();

  async function pluralOf(apiVersion: string, kind: string): Promise<{ group: string; version: string; plural: string }> {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') as [string, string] : ['', apiVersion];
    const key = `${apiVersion}/${kind}`;
    if (!plurals.has(key)) {
      const list = await ctx.client.rest.request<{ resources?: { name: string; kind: string }[] }>({ method: 'GET', path: group ? `/apis/${group}/${version}` : `/api/${version}`, signal: ctx.signal });
      const plural = list.resources?.find((r) => r.kind === kind && !r.name.includes('/'))?.name;
      if (!plural) throw new Error(`no matches for kind "${kind}" in group "${group}"`);
      plurals.set(key, plural);
    }
    return { group, version, plural: plurals.get(key)! };
  }

  /** Usage and requests of the target's running pods, from the resource metrics API. */
  async function podUsage(namespace: string, selector: string, resource: string): Promise<PodUsage[]> {
    const list = await ctx.client.rest.request<{ items?: PodMetrics[] }>({
      method: 'GET', path: `${METRICS_API}/namespaces/${encodeURIComponent(namespace)}/pods`, query: { labelSelector: selector }, signal: ctx.signal,
    }).catch((err: Error) => {
      throw new Error(`unable to get metrics for resource ${resource}: unable to fetch metrics from resource metrics API: ${isNotFound(err) ? 'the server could not find the requested resource (get pods.metrics.k8s.io)' : err.message}`);
    });
    const sel = parseLabelSelector(selector);
    const running = new Map(podLister.namespace(namespace).list()
      .filter((p) => sel.matches(p.metadata?.labels) && p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp)
      .map((p) => [p.metadata!.name!, p]));
    const out: PodUsage[] = [];
    for (const m of list.items ?? []) {
      const pod = running.get(m.metadata.name);
      if (!pod) continue;
      const containers = (pod.spec?.containers ?? []) as { resources?: { requests?: Record<string, string> } }[];
      const request = containers.every((c) => c.resources?.requests?.[resource])
        ? containers.reduce((a, c) => a + quantityNumber(c.resources!.requests![resource]!), 0) : 0;
      out.push({ usage: m.containers.reduce((a, c) => a + quantityNumber(c.usage[resource] ?? '0'), 0), request });
    }
    return out;
  }

  async function recommend(hpa: KubeObject, scale: Scale, current: number): Promise<{ replicas: number; statuses: unknown[] }> {
    const metrics = (hpa.spec?.metrics ?? []) as MetricSpec[];
    let replicas = 0;
    const statuses: unknown[] = [];
    const errors: { reason: string; message: string }[] = [];
    for (const m of metrics) {
      try {
        if (m.type !== 'Resource' || !m.resource) {
          throw new Error(`unable to get ${m.type.toLowerCase()} metric: the server could not find the requested resource (get ${UNAVAILABLE_API[m.type] ?? 'metrics'})`);
        }
        const selector = scale.status?.selector;
        if (!selector) throw new Error('selector is required');
        const r: Recommendation = replicasForResource(m.resource.name, current, await podUsage(hpa.metadata!.namespace!, selector, m.resource.name), m.resource.target);
        replicas = Math.max(replicas, r.replicas);
        const currentValue = r.utilization !== undefined ? { averageUtilization: r.utilization, averageValue: '0' } : { averageValue: String(r.averageValue) };
        statuses.push({ type: 'Resource', resource: { name: m.resource.name, current: currentValue } });
      } catch (err) {
        const what = m.type === 'Resource' ? `failed to get ${m.resource?.name} resource metric value: failed to get ${m.resource?.name} utilization: ` : '';
        errors.push({ reason: FAILED_REASON[m.type] ?? 'FailedGetResourceMetric', message: `${what}${(err as Error).message}` });
      }
    }
    if (errors.length && errors.length === metrics.length) {
      for (const e of errors) ctx.recorder.event(hpa, 'Warning', e.reason, e.message);
      ctx.recorder.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', `invalid metrics (${errors.length} invalid out of ${metrics.length}), first error is: ${errors[0]!.message}`);
      throw Object.assign(new Error(errors[0]!.message), { reason: errors[0]!.reason });
    }
    return { replicas, statuses };
  }

  /** The highest recommendation within the scale-down window (upstream stabilizeRecommendation). */
  function stabilize(key: string, hpa: KubeObject, replicas: number): number {
    const windowMs = ((hpa.spec?.behavior?.scaleDown?.stabilizationWindowSeconds as number | undefined) ?? 300) * 1000;
    const t = (ctx.clock ?? { now: () => Date.now() }).now();
    const kept = (recommendations.get(key) ?? []).filter((r) => t - r.at <= windowMs);
    kept.push({ at: t, replicas });
    recommendations.set(key, kept);
    return Math.max(...kept.map((r) => r.replicas));
  }

  async function sync(key: string): Promise<void> {
    const hpa = lister.get(key);
    if (!hpa) { recommendations.delete(key); return; }
    loop.enqueueAfter(key, SYNC_PERIOD_MS);
    const at = now(ctx.clock);
    const spec = hpa.spec ?? {};
    const min = (spec.minReplicas as number | undefined) ?? 1;
    const max = spec.maxReplicas as number;
    const ref = spec.scaleTargetRef as { apiVersion?: string; kind: string; name: string };
    const status = { ...(hpa.status ?? {}) } as Record<string, any>;
    let conditions = (status.conditions ?? []) as Condition[];
    const ns = hpa.metadata!.namespace!;
    const reference = `${ref.kind}/${ref.name}`;

    let scale: Scale;
    let target: { group: string; version: string; plural: string };
    try {
      target = await pluralOf(ref.apiVersion ?? 'v1', ref.kind);
      scale = await ctx.client.resource({ ...target, resource: target.plural, namespaced: true }, ns).getScale(ref.name, { signal: ctx.signal });
    } catch (err) {
      const message = `the HPA controller was unable to get the target's current scale: ${(err as Error).message}`;
      ctx.recorder.event(hpa, 'Warning', 'FailedGetScale', (err as Error).message);
      conditions = setCondition(conditions, 'AbleToScale', 'False', 'FailedGetScale', message, at);
      return writeStatus(hpa, { ...status, conditions });
    }
    conditions = setCondition(conditions, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale", at);
    const current = Number(scale.spec?.replicas ?? 0);
    let desired = current;
    let reason = '';
    let metricStatuses: unknown[] | undefined = status.currentMetrics;
    if (current === 0 && min !== 0) {
      conditions = setCondition(conditions, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', at);
    } else if (current > max) {
      desired = max; reason = 'Current number of replicas above Spec.MaxReplicas';
    } else if (current < min) {
      desired = min; reason = 'Current number of replicas below Spec.MinReplicas';
    } else {
      try {
        const r = await recommend(hpa, scale, current);
        metricStatuses = r.statuses;
        conditions = setCondition(conditions, 'ScalingActive', 'True', 'ValidMetricFound', 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)', at);
        const proposed = stabilize(key, hpa, r.replicas);
        const bounded = Math.min(max, Math.max(min, proposed));
        conditions = bounded === proposed
          ? setCondition(conditions, 'ScalingLimited', 'False', 'DesiredWithinRange', 'the desired count is within the acceptable range', at)
          : setCondition(conditions, 'ScalingLimited', 'True', proposed > max ? 'TooManyReplicas' : 'TooFewReplicas',
            proposed > max ? 'the desired replica count is more than the maximum replica count' : 'the desired replica count is less than the minimum replica count', at);
        desired = bounded;
        if (desired !== current) reason = `${(hpa.spec?.metrics as MetricSpec[])[0]?.resource?.name ?? 'metric'} resource utilization (percentage of request) ${desired > current ? 'above' : 'below'} target`;
      } catch (err) {
        conditions = setCondition(conditions, 'ScalingActive', 'False', (err as { reason?: string }).reason ?? 'FailedGetResourceMetric', `the HPA was unable to compute the replica count: ${(err as Error).message}`, at);
        return writeStatus(hpa, { ...status, currentReplicas: current, conditions });
      }
    }
    let lastScaleTime = status.lastScaleTime as string | undefined;
    if (desired !== current) {
      try {
        // an update of the Scale read above (upstream: scales.Update): a target changed meanwhile is a conflict, retried next sync
        await ctx.client.resource({ ...target, resource: target.plural, namespaced: true }, ns)
          .updateSubresource(ref.name, 'scale', { ...scale, spec: { ...scale.spec, replicas: desired } }, { signal: ctx.signal });
      } catch (err) {
        ctx.recorder.event(hpa, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${(err as Error).message}`);
        conditions = setCondition(conditions, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${(err as Error).message}`, at);
        return writeStatus(hpa, { ...status, currentReplicas: current, conditions });
      }
      conditions = setCondition(conditions, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`, at);
      ctx.recorder.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
      ctx.logger.info({ hpa: key, reference, from: current, to: desired, reason }, 'rescaled');
      lastScaleTime = formatTime((ctx.clock ?? { now: () => Date.now() }).now());
    }
    await writeStatus(hpa, {
      ...status, observedGeneration: hpa.metadata?.generation, currentReplicas: current, desiredReplicas: desired,
      ...(metricStatuses ? { currentMetrics: metricStatuses } : {}), ...(lastScaleTime ? { lastScaleTime } : {}), conditions,
    });
  }

  /** Writes the status when it changed (upstream updateStatusIfNeeded). */
  async function writeStatus(hpa: KubeObject, status: Record<string, unknown>): Promise<void> {
    const next = { desiredReplicas: 0, ...status, observedGeneration: hpa.metadata?.generation };
    if (JSON.stringify(next) === JSON.stringify(hpa.status ?? {})) return;
    await ctx.client.resource(Resources.horizontalPodAutoscalers, hpa.metadata!.namespace!).updateStatus({ ...hpa, status: next }, { signal: ctx.signal });
  }

  await loop.run();
}

