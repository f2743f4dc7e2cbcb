// The horizontal pod autoscaler controller (upstream pkg/controller/podautoscaler/horizontal.go). Every
// --horizontal-pod-autoscaler-sync-period (15 s; also the delay after a change to the autoscaler) it reads the
// target's scale, keeps it within minReplicas..maxReplicas, and otherwise follows the highest count its metrics ask
// for (replicas.ts) from the resource, custom and external metrics APIs (metrics-client.ts), normalized by the
// stabilization windows and scaling policies (normalize.ts). A metric that cannot be read is reported in the
// ScalingActive condition and events; the others still scale up, never down. Autoscalers whose pods overlap stop
// (AmbiguousSelector).
import type { KubeObject } from '../../../api/types.js';
import { formatQuantity, quantityFromMilli } from '../../apimachinery/quantity.js';
import { parseLabelSelector, type LabelSelector, type Selector } from '../../apimachinery/labels.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { formatTime, realClock, Resources, type Scale } from '../../client/index.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { keyOf, objOf, workerLoop } from '../shared/controller-utils.js';
import { selectorString } from '../../apimachinery/selector-string.js';
import { MetricsClient, type ObjectReference } from './metrics-client.js';
import { Normalizer, type Behavior } from './normalize.js';
import { averageValueReplicas, milliValue, perPodValueReplicas, readyPodCount, resourceUtilizationReplicas, valueReplicas, type CalculatorConfig } from './replicas.js';

interface MetricTarget { type: string; averageUtilization?: number; averageValue?: string; value?: string }
interface MetricIdentifier { name: string; selector?: LabelSelector }
interface MetricSpec {
  type: string;
  resource?: { name: string; target: MetricTarget };
  containerResource?: { name: string; container: string; target: MetricTarget };
  pods?: { metric: MetricIdentifier; target: MetricTarget };
  object?: { describedObject: ObjectReference; metric: MetricIdentifier; target: MetricTarget };
  external?: { metric: MetricIdentifier; target: MetricTarget };
}
interface Condition { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }
interface Status {
  currentReplicas?: number; desiredReplicas?: number; lastScaleTime?: string;
  currentMetrics?: Record<string, unknown>[]; conditions?: Condition[];
}

/** A metric that could not be read: its condition reason and the errors upstream reports. */
class MetricError extends Error {
  constructor(readonly reason: string, readonly inner: string, message: string) { super(message); }
}

const quantity = (milli: number): string => formatQuantity(quantityFromMilli(milli));

/** Go's %+v of a *metav1.LabelSelector, as upstream puts it in metric names. */
const goSelector = (s: LabelSelector | undefined): string => (s ? selectorString(s) : '<nil>');

/** Sets a condition in place, its transition time moving only with its status (upstream setConditionInList). */
function setCondition(status: Status, type: string, value: 'True' | 'False', reason: string, message: string, at: string): void {
  const list = (status.conditions = [...(status.conditions ?? [])]);
  const i = list.findIndex((c) => c.type === type);
  const old = i >= 0 ? list[i]! : undefined;
  const next = { type, status: value, lastTransitionTime: old && old.status === value ? old.lastTransitionTime : at, reason, message };
  if (i >= 0) list[i] = next;
  else list.push(next);
}

export async function startHorizontalPodAutoscalerController(ctx: ClusterControllerContext): Promise<void> {
  const cfg = ctx.config;
  const clock = ctx.clock ?? realClock;
  const hpas = ctx.informers.informerFor(Resources.horizontalPodAutoscalers);
  const podLister = ctx.informers.pods().lister();
  const lister = hpas.lister();
  const loop = workerLoop(ctx, 'horizontal-pod-autoscaler-controller', sync);
  const normalizer = new Normalizer(() => clock.now(), cfg.hpaDownscaleStabilizationMs);
  /** The selector each autoscaler last used, to find pods two of them act on (upstream hpaSelectors). */
  const selectors = new Map<string, { namespace: string; selector?: Selector }>();
  // every change is picked up at the next period, as upstream's fixed-interval rate limiter does
  hpas.addEventHandler({
    onAdd: (h) => { const key = keyOf(h); if (!selectors.has(key)) selectors.set(key, { namespace: h.metadata!.namespace! }); loop.enqueueAfter(h, cfg.hpaSyncPeriodMs); },
    onUpdate: (_o, h) => loop.enqueueAfter(h, cfg.hpaSyncPeriodMs),
    onDelete: (h) => { selectors.delete(keyOf(objOf(h))); },
  });

  const mappings = new Map<string, { group: string; version: string; plural: string }>();
  /** The resource of a kind at an apiVersion, from discovery (upstream's RESTMapper). */
  async function mappingOf(apiVersion: string, kind: string): Promise<{ group: string; version: string; plural: string }> {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') as [string, string] : ['', apiVersion];
    const key = `${apiVersion}/${kind}`;
    if (!mappings.has(key)) {
      const list = await ctx.client.rest.request<{ resources?: { name: string; kind: string }[] }>({ method: 'GET', path: group ? `/apis/${group}/${version}` : `/api/${version}`, signal: ctx.signal })
        .catch(() => undefined);
      const plural = list?.resources?.find((r) => r.kind === kind && !r.name.includes('/'))?.name;
      if (!plural) throw new Error(`no matches for kind "${kind}" in group "${group}"`);
      mappings.set(key, { group, version, plural });
    }
    return mappings.get(key)!;
  }
  /** The ready pods a value target divides among (upstream getReadyPodsCount). */
  const readyPods = (pods: KubeObject[]) => (): number => {
    try { return readyPodCount(pods); } catch (err) { throw new Error(`unable to calculate ready pods: ${(err as Error).message}`); }
  };
  const metricsClient = new MetricsClient(ctx.client, ctx.signal, async (ref) => {
    const m = await mappingOf(ref.apiVersion ?? 'v1', ref.kind);
    return m.group ? `${m.plural}.${m.group}` : m.plural;
  });

  async function sync(key: string): Promise<void> {
    const hpa = lister.get(key);
    if (!hpa) { normalizer.forget(key); return; }
    try {
      await reconcile(key, hpa);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      ctx.logger.info({ hpa: key, err: (err as Error).message }, 'reconcile failed');
    } finally {
      loop.enqueueAfter(key, cfg.hpaSyncPeriodMs);
    }
  }

  async function reconcile(key: string, hpa: KubeObject): Promise<void> {
    const at = formatTime(clock.now());
    const original = (hpa.status ?? {}) as Status;
    const status: Status = { ...original, conditions: [...(original.conditions ?? [])] };
    const spec = hpa.spec ?? {};
    const ns = hpa.metadata!.namespace!;
    const ref = spec.scaleTargetRef as { apiVersion?: string; kind: string; name: string };
    const reference = `${ref.kind}/${ns}/${ref.name}`;
    const writeStatus = async (): Promise<void> => {
      if (jsonEqual(status, original)) return;
      await ctx.client.resource(Resources.horizontalPodAutoscalers, ns).updateStatus({ ...hpa, status }, { signal: ctx.signal }).catch((err: Error) => {
        ctx.recorder.event(hpa, 'Warning', 'FailedUpdateStatus', err.message);
        throw new Error(`failed to update status for ${hpa.metadata!.name}: ${err.message}`);
      });
    };
    /** upstream setStatus: the status rebuilt from these values, the conditions kept. */
    const setStatus = (current: number, desired: number, metrics: Record<string, unknown>[] | undefined, rescaled: boolean): void => {
      for (const k of ['currentReplicas', 'desiredReplicas', 'currentMetrics'] as const) delete status[k];
      Object.assign(status, { currentReplicas: current, desiredReplicas: desired }, metrics ? { currentMetrics: metrics } : {});
      if (rescaled) status.lastScaleTime = at;
    };

    let scale: Scale;
    let target: { group: string; version: string; plural: string };
    try {
      target = await mappingOf(ref.apiVersion ?? 'v1', ref.kind);
      scale = await ctx.client.resource({ ...target, resource: target.plural, namespaced: true }, ns).getScale(ref.name, { signal: ctx.signal });
    } catch (err) {
      ctx.recorder.event(hpa, 'Warning', 'FailedGetScale', (err as Error).message);
      setCondition(status, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${(err as Error).message}`, at);
      await writeStatus();
      throw new Error(`failed to query scale subresource for ${reference}: ${(err as Error).message}`);
    }
    setCondition(status, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale", at);
    const current = Number(scale.spec?.replicas ?? 0);
    normalizer.recordInitial(key, current);
    const min = (spec.minReplicas as number | undefined) ?? 1;
    const max = spec.maxReplicas as number;
    const behavior = spec.behavior as Behavior | undefined;

    let desired = 0;
    let reason = '';
    let rescale = true;
    let metricStatuses: Record<string, unknown>[] | undefined;
    if (current === 0 && min !== 0) {
      rescale = false;
      setCondition(status, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', at);
    } else if (current > max) {
      reason = 'Current number of replicas above Spec.MaxReplicas';
      desired = max;
    } else if (current < min) {
      reason = 'Current number of replicas below Spec.MinReplicas';
      desired = min;
    } else {
      const computed = await computeReplicasForMetrics(key, hpa, scale, status, at);
      metricStatuses = computed.statuses;
      if (computed.replicas === -1) {
        setStatus(current, status.desiredReplicas ?? 0, metricStatuses, false);
        await writeStatus();
        ctx.recorder.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', computed.error!);
        return;
      }
      desired = computed.replicas;
      if (desired > current) reason = `${computed.metric} above target`;
      if (desired < current) reason = 'All metrics below target';
      const n = normalizer.normalize(key, behavior, current, desired, min, max);
      setCondition(status, 'AbleToScale', 'True', n.ableToScale.reason, n.ableToScale.message, at);
      setCondition(status, 'ScalingLimited', n.limited.status, n.limited.reason, n.limited.message, at);
      desired = n.replicas;
      rescale = desired !== current;
    }

    if (rescale) {
      try {
        // an update of the Scale read above (upstream: scales.Update): a target changed meanwhile is a conflict, retried next period
        await ctx.client.resource({ ...target, resource: target.plural, namespaced: true }, ns)
          .updateSubresource(ref.name, 'scale', { ...scale, spec: { ...scale.spec, replicas: desired } }, { signal: ctx.signal });
      } catch (err) {
        const message = (err as Error).message;
        ctx.recorder.event(hpa, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${message}`);
        setCondition(status, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${message}`, at);
        setStatus(current, status.desiredReplicas ?? 0, metricStatuses, false);
        await writeStatus();
        throw new Error(`failed to rescale ${reference}: ${message}`);
      }
      setCondition(status, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`, at);
      ctx.recorder.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
      normalizer.recordScale(key, behavior, current, desired);
      ctx.logger.info({ hpa: key, currentReplicas: current, desiredReplicas: desired, reason }, 'Successfully rescaled');
    } else {
      desired = current;
    }
    setStatus(current, desired, metricStatuses, rescale);
    await writeStatus();
  }

  /** The autoscalers (this one included) whose selectors pick any of `pods` (upstream hpasControllingPodsUnderSelector). */
  function autoscalersOf(namespace: string, pods: KubeObject[]): string[] {
    const found: string[] = [];
    for (const [key, s] of selectors) {
      if (s.namespace === namespace && s.selector && pods.some((p) => s.selector!.matches(p.metadata?.labels))) found.push(key);
    }
    return found.sort();
  }

  async function computeReplicasForMetrics(key: string, hpa: KubeObject, scale: Scale, status: Status, at: string):
  Promise<{ replicas: number; metric?: string; statuses?: Record<string, unknown>[]; error?: string }> {
    const ns = hpa.metadata!.namespace!;
    const selectorText = scale.status?.selector ?? '';
    const inactive = (reason: string, message: string, eventReason = reason, eventMessage = message): { replicas: number; error: string } => {
      ctx.recorder.event(hpa, 'Warning', eventReason, eventMessage);
      setCondition(status, 'ScalingActive', 'False', reason, message, at);
      return { replicas: -1, error: eventMessage };
    };
    if (!selectorText) return inactive('InvalidSelector', "the HPA target's scale is missing a selector", 'SelectorRequired', 'selector is required');
    let selector: Selector;
    try {
      selector = parseLabelSelector(selectorText);
    } catch (err) {
      return inactive('InvalidSelector', `couldn't convert selector into a corresponding internal selector object: ${(err as Error).message}`);
    }
    if (selectors.has(key)) selectors.set(key, { namespace: ns, selector });
    const pods = podLister.namespace(ns).list().filter((p) => selector.matches(p.metadata?.labels));
    const controlling = autoscalersOf(ns, pods);
    if (controlling.length > 1) return inactive('AmbiguousSelector', `pods by selector ${selectorText} are controlled by multiple HPAs: [${controlling.join(' ')}]`);

    const specs = (hpa.spec?.metrics ?? []) as MetricSpec[];
    const specReplicas = Number(scale.spec?.replicas ?? 0);
    const statusReplicas = Number(scale.status?.replicas ?? 0);
    const calc: CalculatorConfig = { tolerance: cfg.hpaTolerance, cpuInitializationPeriodMs: cfg.hpaCpuInitializationPeriodMs, delayOfInitialReadinessStatusMs: cfg.hpaInitialReadinessDelayMs, now: clock.now() };
    const statuses: Record<string, unknown>[] = [];
    let replicas = 0;
    let metric = '';
    let invalid = 0;
    let firstError: MetricError | undefined;
    for (const m of specs) {
      try {
        const r = await computeReplicasForMetric(hpa, m, specReplicas, statusReplicas, selectorText, pods, calc);
        statuses.push(r.status);
        if (replicas === 0 || r.replicas > replicas) { replicas = r.replicas; metric = r.metric; }
      } catch (err) {
        if (!(err instanceof MetricError)) throw err;
        statuses.push({ type: '' }); // Go's zero MetricStatus
        ctx.recorder.event(hpa, 'Warning', err.reason, err.inner);
        firstError ??= err;
        invalid++;
      }
    }
    const error = firstError && `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstError.message}`;
    // all metrics invalid, or some invalid while the valid ones would scale down: no scaling
    if (firstError && (invalid >= specs.length || replicas < specReplicas)) {
      setCondition(status, 'ScalingActive', 'False', firstError.reason, `the HPA was unable to compute the replica count: ${firstError.inner}`, at);
      return { replicas: -1, statuses, error };
    }
    setCondition(status, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`, at);
    return { replicas, metric, statuses };
  }

  /** The count one metric asks for, its status and its name in events; a MetricError when it cannot be read. */
  async function computeReplicasForMetric(hpa: KubeObject, m: MetricSpec, specReplicas: number, statusReplicas: number, selector: string, pods: KubeObject[], calc: CalculatorConfig):
  Promise<{ replicas: number; metric: string; status: Record<string, unknown> }> {
    const ns = hpa.metadata!.namespace!;
    /** Runs `fn`; its failure becomes a MetricError with the reason, and `wrap` applied to the message for the outer error. */
    const attempt = async <T>(reason: string, wrap: (msg: string) => string, fn: () => Promise<T>): Promise<T> => {
      try { return await fn(); } catch (err) {
        if (err instanceof MetricError || ctx.signal.aborted) throw err;
        const msg = (err as Error).message;
        throw new MetricError(reason, msg, wrap(msg));
      }
    };
    const unknown = (msg: string): never => { throw new MetricError('InvalidMetricSourceType', msg, msg); };
    switch (m.type) {
      case 'Resource':
      case 'ContainerResource': {
        const container = m.type === 'ContainerResource' ? m.containerResource?.container ?? '' : '';
        const src = m.type === 'Resource' ? m.resource : m.containerResource;
        if (!src) return unknown(`unknown metric source type "${m.type}"`);
        const reason = m.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
        const outer = m.type === 'Resource' ? `failed to get ${src.name} resource metric value: ` : `failed to get ${container} container metric value: `;
        return attempt(reason, (msg) => outer + msg, async () => {
          const samples = async () => (await metricsClient.resourceMetric(src.name, ns, selector, container).catch((err: Error) => { throw new Error(`unable to get metrics for resource ${src.name}: ${err.message}`); })).metrics;
          if (src.target.averageValue !== undefined) {
            const r = await samples().then((s) => averageValueReplicas(specReplicas, milliValue(src.target.averageValue!), src.name, pods, s, calc))
              .catch((err: Error) => { throw new Error(`failed to get ${src.name} usage: ${err.message}`); });
            return { replicas: r.replicas, metric: `${src.name} resource`, status: statusOf(m, src, { averageValue: quantity(r.usage) }) };
          }
          if (src.target.averageUtilization === undefined) throw new Error('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
          const r = await samples().then((s) => resourceUtilizationReplicas(specReplicas, src.target.averageUtilization!, src.name, container, pods, s, calc))
            .catch((err: Error) => { throw new Error(`failed to get ${src.name} utilization: ${err.message}`); });
          const name = m.type === 'Resource' ? `${src.name} resource utilization (percentage of request)` : `${src.name} container resource utilization (percentage of request)`;
          return { replicas: r.replicas, metric: name, status: statusOf(m, src, { averageUtilization: r.utilization, averageValue: quantity(r.rawAverage) }) };
        });
      }
      case 'Pods': {
        const src = m.pods;
        if (!src) return unknown(`unknown metric source type "${m.type}"`);
        return attempt('FailedGetPodsMetric', (msg) => `failed to get pods metric value: ${msg}`, async () => {
          const { metrics } = await metricsClient.podsMetric(src.metric.name, ns, selector, src.metric.selector)
            .catch((err: Error) => { throw new Error(`unable to get metric ${src.metric.name}: ${err.message}`); });
          const r = averageValueReplicas(specReplicas, milliValue(src.target.averageValue ?? '0'), '', pods, metrics, calc);
          return { replicas: r.replicas, metric: `pods metric ${src.metric.name}`, status: { type: 'Pods', pods: { metric: src.metric, current: { averageValue: quantity(r.usage) } } } };
        });
      }
      case 'Object': {
        const src = m.object;
        if (!src) return unknown(`unknown metric source type "${m.type}"`);
        const obj = src.describedObject;
        const read = () => metricsClient.objectMetric(src.metric.name, ns, obj, src.metric.selector)
          // upstream's arguments, in upstream's order
          .catch((err: Error) => { throw new Error(`unable to get metric ${src.metric.name}: ${obj.kind} on ${ns} ${obj.name}/${err.message}`); });
        if (src.target.type === 'Value' && src.target.value !== undefined) {
          return attempt('FailedGetObjectMetric', (msg) => `failed to get object metric value: ${msg}`, async () => {
            const { value } = await read();
            const replicas = valueReplicas(specReplicas, value / milliValue(src.target.value!), calc.tolerance, readyPods(pods));
            return { replicas, metric: `${obj.kind} metric ${src.metric.name}`, status: { type: 'Object', object: { describedObject: obj, metric: src.metric, current: { value: quantity(value) } } } };
          });
        }
        if (src.target.type === 'AverageValue' && src.target.averageValue !== undefined) {
          return attempt('FailedGetObjectMetric', (msg) => `failed to get object metric value: failed to get ${src.metric.name} object metric: ${msg}`, async () => {
            const { value } = await read();
            const r = perPodValueReplicas(statusReplicas, value, milliValue(src.target.averageValue!), calc.tolerance);
            // upstream leaves describedObject empty in this status
            return { replicas: r.replicas, metric: `external metric ${src.metric.name}(${goSelector(src.metric.selector)})`, status: { type: 'Object', object: { describedObject: { kind: '', name: '' }, metric: src.metric, current: { averageValue: quantity(r.usage) } } } };
          });
        }
        const msg = 'invalid object metric source: neither a value target nor an average value target was set';
        throw new MetricError('FailedGetObjectMetric', msg, `failed to get object metric value: ${msg}`);
      }
      case 'External': {
        const src = m.external;
        if (!src) return unknown(`unknown metric source type "${m.type}"`);
        const name = `external metric ${src.metric.name}(${goSelector(src.metric.selector)})`;
        const outer = (msg: string): string => `failed to get ${src.metric.name} external metric value: ${msg}`;
        const read = async (): Promise<number> => (await metricsClient.externalMetric(src.metric.name, ns, src.metric.selector)
          .catch((err: Error) => { throw new Error(`unable to get external metric ${ns}/${src.metric.name}/${goSelector(src.metric.selector)}: ${err.message}`); })).values.reduce((a, v) => a + v, 0);
        if (src.target.averageValue !== undefined) {
          return attempt('FailedGetExternalMetric', (msg) => outer(`failed to get ${src.metric.name} external metric: ${msg}`), async () => {
            const r = perPodValueReplicas(statusReplicas, await read(), milliValue(src.target.averageValue!), calc.tolerance);
            return { replicas: r.replicas, metric: name, status: { type: 'External', external: { metric: src.metric, current: { averageValue: quantity(r.usage) } } } };
          });
        }
        if (src.target.value !== undefined) {
          return attempt('FailedGetExternalMetric', (msg) => outer(`failed to get external metric ${src.metric.name}: ${msg}`), async () => {
            const total = await read();
            const replicas = valueReplicas(specReplicas, total / milliValue(src.target.value!), calc.tolerance, readyPods(pods));
            return { replicas, metric: name, status: { type: 'External', external: { metric: src.metric, current: { value: quantity(total) } } } };
          });
        }
        const msg = 'invalid external metric source: neither a value target nor an average value target was set';
        throw new MetricError('FailedGetExternalMetric', msg, outer(msg));
      }
      default:
        return unknown(`unknown metric source type "${m.type}"`);
    }
  }

  await loop.run();
}

/** The status of a Resource or ContainerResource metric. */
function statusOf(m: MetricSpec, src: { name: string; container?: string }, current: Record<string, unknown>): Record<string, unknown> {
  return m.type === 'Resource'
    ? { type: 'Resource', resource: { name: src.name, current } }
    : { type: 'ContainerResource', containerResource: { name: src.name, container: src.container, current } };
}
