// The disruption controller (upstream pkg/controller/disruption): the status of every PodDisruptionBudget — the
// pods it covers (expectedPods: their count, or with a percentage / maxUnavailable the replicas of their
// controllers), how many are healthy (ready, not being deleted), how many must stay (desiredHealthy), how many may
// go now (disruptionsAllowed), observedGeneration, and the DisruptionAllowed condition; when the expected count
// cannot be computed the budget fails safe (no disruption allowed, reason SyncFailed).
import type { KubeObject } from '../../../api/types.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { Resources, formatTime, isConflict, isNotFound } from '../../client/index.js';
import { canonicalJson, getControllerOf, objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { isPodReady } from '../shared/service-pods.js';

/** intstr.GetScaledValueFromIntOrPercent with rounding up. */
export const scaled = (v: number | string, total: number): number => {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) { if (/^\d+$/.test(v)) return Number(v); throw new Error(`invalid value for IntOrString: invalid value "${v}"`); }
  return Math.ceil((Number(m[1]) * total) / 100);
};

export async function startDisruptionController(ctx: ClusterControllerContext): Promise<void> {
  const pdbs = ctx.informers.informerFor(Resources.podDisruptionBudgets);
  const pods = ctx.informers.pods();
  const listers = {
    ReplicaSet: ctx.informers.replicaSets().lister(),
    Deployment: ctx.informers.deployments().lister(),
    StatefulSet: ctx.informers.informerFor(Resources.statefulSets).lister(),
    ReplicationController: ctx.informers.informerFor(Resources.replicationControllers).lister(),
  };
  const pdbLister = pdbs.lister();
  const podLister = pods.lister();
  const loop = workerLoop(ctx, 'disruption-controller', sync);

  const selects = (pdb: KubeObject, pod: KubeObject): boolean =>
    pdb.spec?.selector != null && labelSelectorAsSelector(pdb.spec.selector).matches(pod.metadata?.labels);
  const onPod = (pod: KubeObject): void => {
    for (const pdb of pdbLister.namespace(pod.metadata!.namespace!).list()) if (selects(pdb, pod)) loop.enqueue(pdb);
  };
  pdbs.addEventHandler({ onAdd: (p) => loop.enqueue(p), onUpdate: (_o, p) => loop.enqueue(p) });
  pods.addEventHandler({ onAdd: onPod, onUpdate: (old, p) => { onPod(old); onPod(p); }, onDelete: (o) => onPod(objOf(o)) });

  /** The replicas of the controllers of these pods, each controller once (upstream getExpectedScale). */
  async function expectedScale(pdb: KubeObject, selected: KubeObject[]): Promise<number> {
    const seen = new Map<string, number>();
    for (const pod of selected) {
      const ref = getControllerOf(pod);
      if (!ref) throw new Error(`found no controller ref for pod "${pod.metadata!.name}"`);
      if (seen.has(ref.uid)) continue;
      const ns = pdb.metadata!.namespace!;
      let owner: KubeObject | undefined = ref.kind in listers ? listers[ref.kind as keyof typeof listers].namespace(ns).get(ref.name) : undefined;
      if (owner?.metadata?.uid !== ref.uid) owner = undefined;
      if (owner && ref.kind === 'ReplicaSet') {
        const dref = getControllerOf(owner);
        const d = dref?.kind === 'Deployment' ? listers.Deployment.namespace(ns).get(dref.name) : undefined;
        if (d && d.metadata?.uid === dref!.uid) { seen.set(d.metadata!.uid!, Number(d.spec?.replicas ?? 1)); seen.set(ref.uid, 0); continue; }
      }
      if (owner) { seen.set(ref.uid, Number(owner.spec?.replicas ?? 1)); continue; }
      // Any other kind: its scale subresource.
      const [group, version] = ref.apiVersion.includes('/') ? ref.apiVersion.split('/') as [string, string] : ['', ref.apiVersion];
      const resources = await ctx.client.rest.request<{ resources?: { name: string; kind: string }[] }>({ method: 'GET', path: group ? `/apis/${group}/${version}` : `/api/${version}`, signal: ctx.signal });
      const plural = resources.resources?.find((r) => r.kind === ref.kind && !r.name.includes('/'))?.name;
      if (!plural) throw new Error(`no scale for ${ref.kind} ${ref.name}`);
      const scale = await ctx.client.resource({ group, version, resource: plural, namespaced: true }, ns).getScale(ref.name, { signal: ctx.signal });
      if (scale.metadata?.uid && scale.metadata.uid !== ref.uid) continue;
      seen.set(ref.uid, Number(scale.spec?.replicas ?? 0));
    }
    return [...seen.values()].reduce((a, b) => a + b, 0);
  }

  async function sync(key: string): Promise<void> {
    const pdb = pdbLister.get(key);
    if (!pdb) return;
    const selected = podLister.namespace(pdb.metadata!.namespace!).list().filter((p) => selects(pdb, p));
    const disrupted: Record<string, string> = { ...(pdb.status?.disruptedPods ?? {}) };
    for (const name of Object.keys(disrupted)) if (!selected.some((p) => p.metadata?.name === name && !p.metadata?.deletionTimestamp)) delete disrupted[name];
    const currentHealthy = selected.filter((p) => !p.metadata?.deletionTimestamp && !disrupted[p.metadata!.name!] && isPodReady(p)).length;
    let status: Record<string, unknown>;
    try {
      let expected = 0;
      let desired = 0;
      if (pdb.spec?.maxUnavailable != null) {
        expected = await expectedScale(pdb, selected);
        desired = Math.max(0, expected - scaled(pdb.spec.maxUnavailable, expected));
      } else if (typeof pdb.spec?.minAvailable === 'number') {
        desired = pdb.spec.minAvailable;
        expected = selected.length;
      } else if (pdb.spec?.minAvailable != null) {
        expected = await expectedScale(pdb, selected);
        desired = scaled(pdb.spec.minAvailable, expected);
      }
      const allowed = expected <= 0 ? 0 : Math.max(0, currentHealthy - desired);
      status = {
        currentHealthy, desiredHealthy: desired, expectedPods: expected, disruptionsAllowed: allowed,
        ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
        conditions: condition(pdb, allowed > 0 ? ['True', 'SufficientPods', ''] : ['False', 'InsufficientPods', '']),
      };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      ctx.recorder.event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${(e as Error).message}`);
      status = {
        currentHealthy, desiredHealthy: pdb.status?.desiredHealthy ?? 0, expectedPods: pdb.status?.expectedPods ?? 0, disruptionsAllowed: 0,
        conditions: condition(pdb, ['False', 'SyncFailed', (e as Error).message]),
      };
    }
    status.observedGeneration = pdb.metadata?.generation;
    if (canonicalJson(status) === canonicalJson(pdb.status ?? {})) return;
    try {
      await ctx.client.resource(Resources.podDisruptionBudgets, pdb.metadata!.namespace).updateStatus({ ...pdb, status }, { signal: ctx.signal });
    } catch (e) {
      if (isNotFound(e)) return;
      if (isConflict(e)) { loop.queue.addRateLimited(key); return; }
      throw e;
    }
  }

  const condition = (pdb: KubeObject, [status, reason, message]: [string, string, string]): unknown[] => {
    const old = ((pdb.status?.conditions ?? []) as { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[]).find((c) => c.type === 'DisruptionAllowed');
    const same = old && old.status === status && old.reason === reason && (old.message ?? '') === message;
    return [same ? old : { type: 'DisruptionAllowed', status, reason, message, observedGeneration: pdb.metadata?.generation, lastTransitionTime: formatTime(Date.now()) }];
  };

  await loop.run();
}
