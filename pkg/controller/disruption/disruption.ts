// The disruption controller (upstream pkg/controller/disruption): the status of every PodDisruptionBudget — the
// pods it covers (expectedPods: their count, or with a percentage / maxUnavailable the replicas of their
// controllers), how many are healthy (ready, not being deleted), how many must stay (desiredHealthy), how many may
// go now (disruptionsAllowed), observedGeneration, and the DisruptionAllowed condition; when the expected count
// cannot be computed the budget fails safe (no disruption allowed, reason SyncFailed). Pods whose eviction the
// apiserver admitted (status.disruptedPods) are not counted healthy until they are gone, or for two minutes.
import { setStatusCondition } from '../../../api/meta/v1/conditions.js';
import { conditionsAreUpToDate, DISRUPTION_ALLOWED, updateDisruptionAllowedCondition, type BudgetStatus } from '../../../api/policy/v1/disruption-allowed.js';
import type { KubeObject, OwnerReference } from '../../../api/types.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { Resources, formatTime, isConflict, isNotFound } from '../../client/index.js';
import { getControllerOf, objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { isPodReady } from '../shared/service-pods.js';
import { selectorString, type SelectorLike } from '../../apimachinery/selector-string.js';

/** How long an admitted eviction may take to delete its pod before the budget counts the pod again (DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

/** A selector as Go's %v prints it, for the UnmanagedPods warning's wording. */
const selectorOrNil = (sel: SelectorLike | undefined): string => (sel ? selectorString(sel) : 'nil');

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
  /**
   * A pod's change syncs one budget (upstream getPdbForPod): the first that selects it, with a warning on the pod
   * when more do. An update looks at the pod as it is now only, as upstream's updatePod.
   */
  const onPod = (pod: KubeObject): void => {
    const [pdb, ...more] = pdbLister.namespace(pod.metadata!.namespace!).list().filter((x) => selects(x, pod));
    if (!pdb) return;
    if (more.length) {
      ctx.recorder.event(pod, 'Warning', 'MultiplePodDisruptionBudgets',
        `Pod "${pod.metadata!.namespace!}"/"${pod.metadata!.name!}" matches multiple PodDisruptionBudgets.  Chose "${pdb.metadata!.name!}" arbitrarily.`);
    }
    loop.enqueue(pdb);
  };
  pdbs.addEventHandler({ onAdd: (p) => loop.enqueue(p), onUpdate: (_o, p) => loop.enqueue(p) });
  pods.addEventHandler({ onAdd: onPod, onUpdate: (_old, p) => onPod(p), onDelete: (o) => onPod(objOf(o)) });

  /**
   * The replicas of the controllers of these pods, each controller once (upstream getExpectedScale); pods without a
   * controller are left out and named, for a warning. A controller that is gone, or is another object of its name
   * now, is none, and fails the count.
   */
  async function expectedScale(pdb: KubeObject, selected: KubeObject[]): Promise<{ expected: number; unmanaged: string[] }> {
    const seen = new Map<string, number>();
    const unmanaged: string[] = [];
    for (const pod of selected) {
      const ref = getControllerOf(pod);
      if (!ref) { unmanaged.push(pod.metadata!.name!); continue; }
      if (seen.has(ref.uid)) continue;
      const found = await controllerScale(ref, pdb.metadata!.namespace!);
      if (!found) throw new Error(`found no controllers for pod "${pod.metadata!.name!}"`);
      seen.set(found.uid, found.replicas);
    }
    return { expected: [...seen.values()].reduce((a, b) => a + b, 0), unmanaged };
  }

  /**
   * The controller a pod's controller reference names and its replicas (upstream's finders): a Deployment through
   * its ReplicaSet, a ReplicaSet (not a Deployment's), StatefulSet or ReplicationController from the caches, any
   * other kind (or one the caches lack) through its scale subresource; undefined when there is none of that uid.
   */
  async function controllerScale(ref: OwnerReference, ns: string): Promise<{ uid: string; replicas: number } | undefined> {
    const [group, version] = ref.apiVersion.includes('/') ? ref.apiVersion.split('/') as [string, string] : ['', ref.apiVersion];
    const cached = (kind: keyof typeof listers, groups: string[]): KubeObject | undefined => {
      if (ref.kind !== kind || !groups.includes(group)) return undefined;
      const o = listers[kind].namespace(ns).get(ref.name);
      return o?.metadata?.uid === ref.uid ? o : undefined;
    };
    const replicas = (o: KubeObject): number => Number(o.spec?.replicas ?? 1);
    const rc = cached('ReplicationController', ['']);
    if (rc) return { uid: ref.uid, replicas: replicas(rc) };
    const rs = cached('ReplicaSet', ['apps', 'extensions']);
    const dref = rs && getControllerOf(rs);
    if (dref?.kind === 'Deployment') {
      const [dgroup] = dref.apiVersion.split('/');
      const d = ['apps', 'extensions'].includes(dgroup!) ? listers.Deployment.namespace(ns).get(dref.name) : undefined;
      if (d && d.metadata?.uid === dref.uid) return { uid: dref.uid, replicas: replicas(d) };
    } else if (rs) return { uid: ref.uid, replicas: replicas(rs) };
    const ss = cached('StatefulSet', ['apps']);
    if (ss) return { uid: ref.uid, replicas: replicas(ss) };
    // Any other kind: its scale subresource.
    type Discovery = { resources?: { name: string; kind: string }[] };
    const resources = await ctx.client.rest.request<Discovery>({ method: 'GET', path: group ? `/apis/${group}/${version}` : `/api/${version}`, signal: ctx.signal })
      .catch((e: unknown): Discovery => { if (isNotFound(e)) return {}; throw e; });
    const plural = resources.resources?.find((r) => r.kind === ref.kind && !r.name.includes('/'))?.name;
    if (!plural) throw new Error(`no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`);
    try {
      const scale = await ctx.client.resource({ group, version, resource: plural, namespaced: true }, ns).getScale(ref.name, { signal: ctx.signal });
      return scale.metadata?.uid === ref.uid ? { uid: ref.uid, replicas: Number(scale.spec?.replicas ?? 0) } : undefined;
    } catch (e) {
      if (!isNotFound(e)) throw e;
      // not found: the object is gone, or its kind has no scale subresource
      if (!resources.resources?.some((r) => r.name === `${plural}/scale`)) throw new Error(`${group ? `${plural}.${group}` : plural} does not implement the scale subresource`);
      return undefined;
    }
  }

  /** How many pods it expects and how many must stay healthy (upstream getExpectedPodCount). */
  async function expectedCount(pdb: KubeObject, selected: KubeObject[]): Promise<{ expected: number; desired: number; unmanaged: string[] }> {
    if (pdb.spec?.maxUnavailable != null) {
      const { expected, unmanaged } = await expectedScale(pdb, selected);
      return { expected, desired: Math.max(0, expected - scaled(pdb.spec.maxUnavailable, expected)), unmanaged };
    }
    if (typeof pdb.spec?.minAvailable === 'number') return { expected: selected.length, desired: pdb.spec.minAvailable, unmanaged: [] };
    if (pdb.spec?.minAvailable != null) {
      const { expected, unmanaged } = await expectedScale(pdb, selected);
      return { expected, desired: scaled(pdb.spec.minAvailable, expected), unmanaged };
    }
    return { expected: 0, desired: 0, unmanaged: [] };
  }

  /**
   * The evictions still expected to delete their pod (upstream buildDisruptedPodMap): an entry goes once its pod is
   * gone or being deleted, or after DELETION_TIMEOUT_MS (a warning on the pod: the eviction did not see it through);
   * with the time the earliest remaining one runs out.
   */
  function pendingEvictions(pdb: KubeObject, selected: KubeObject[], now: number): { disrupted: Record<string, string>; recheckAt?: number } {
    const recorded = (pdb.status?.disruptedPods ?? {}) as Record<string, string>;
    const disrupted: Record<string, string> = {};
    let recheckAt: number | undefined;
    for (const pod of selected) {
      const at = recorded[pod.metadata!.name!];
      if (pod.metadata?.deletionTimestamp || at === undefined) continue;
      const expires = Date.parse(at) + DELETION_TIMEOUT_MS;
      if (expires < now) {
        ctx.recorder.event(pod, 'Warning', 'NotDeleted', `Pod was expected by PDB ${pdb.metadata!.namespace}/${pdb.metadata!.name} to be deleted but it wasn't`);
        continue;
      }
      disrupted[pod.metadata!.name!] = at;
      if (recheckAt === undefined || expires < recheckAt) recheckAt = expires;
    }
    return { disrupted, recheckAt };
  }

  async function sync(key: string): Promise<void> {
    const pdb = pdbLister.get(key);
    if (!pdb) return;
    const selected = podLister.namespace(pdb.metadata!.namespace!).list().filter((p) => selects(pdb, p));
    if (!selected.length) ctx.recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    const now = ctx.clock?.now() ?? Date.now();
    let status: BudgetStatus;
    let recheckAt: number | undefined;
    try {
      const { expected, desired, unmanaged } = await expectedCount(pdb, selected);
      if (unmanaged.length) {
        ctx.recorder.event(pdb, 'Warning', 'UnmanagedPods', `Pods selected by this PodDisruptionBudget (selector: ${selectorOrNil(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`);
      }
      const pending = pendingEvictions(pdb, selected, now);
      recheckAt = pending.recheckAt;
      // pods being deleted, or whose eviction was admitted, are not counted healthy
      const currentHealthy = selected.filter((p) => !p.metadata?.deletionTimestamp && !pending.disrupted[p.metadata!.name!] && isPodReady(p)).length;
      const allowed = expected <= 0 ? 0 : Math.max(0, currentHealthy - desired);
      const old = pdb.status ?? {};
      const upToDate = old.currentHealthy === currentHealthy && old.desiredHealthy === desired && old.expectedPods === expected
        && old.disruptionsAllowed === allowed && jsonEqual(old.disruptedPods ?? {}, pending.disrupted) && conditionsAreUpToDate(old, pdb.metadata?.generation);
      if (upToDate) {
        status = old;
      } else {
        status = {
          currentHealthy, desiredHealthy: desired, expectedPods: expected, disruptionsAllowed: allowed,
          ...(Object.keys(pending.disrupted).length ? { disruptedPods: pending.disrupted } : {}),
          observedGeneration: pdb.metadata?.generation, conditions: old.conditions,
        };
        updateDisruptionAllowedCondition(status, formatTime(now));
      }
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      ctx.recorder.event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${(e as Error).message}`);
      // fail safe: no disruption allowed until the count can be made again
      const old: BudgetStatus = pdb.status ?? {};
      status = { ...old, disruptionsAllowed: 0 };
      status.conditions = setStatusCondition(old.conditions, {
        type: DISRUPTION_ALLOWED, status: 'False', reason: 'SyncFailed', message: (e as Error).message, observedGeneration: old.observedGeneration,
      }, formatTime(now));
    }
    if (!jsonEqual(status, pdb.status ?? {})) {
      try {
        await ctx.client.resource(Resources.podDisruptionBudgets, pdb.metadata!.namespace).updateStatus({ ...pdb, status }, { signal: ctx.signal });
      } catch (e) {
        if (isNotFound(e)) return;
        if (isConflict(e)) { loop.queue.addRateLimited(key); return; }
        throw e;
      }
    }
    if (recheckAt !== undefined) loop.queue.addAfter(key, Math.max(0, recheckAt - now));
  }

  await loop.run();
}
