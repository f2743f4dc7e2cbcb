// The DaemonSet controller (upstream pkg/controller/daemon): one pod per eligible node (node selector, affinity,
// taints with the DaemonSet default tolerations), pinned by node affinity for the scheduler; failed pods replaced;
// RollingUpdate with maxUnavailable / maxSurge or OnDelete; ControllerRevisions; status counts.
import type { KubeObject } from '../../../api/types.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { Resources, isNotFound, realClock } from '../../client/index.js';
import { CONTROLLER_REVISION_HASH, ensureRevision, revisionsOf, truncateHistory } from '../controllerhistory/history.js';
import { scaled } from '../deployment/util.js';
import { ControllerExpectations, SLOW_START_INITIAL_BATCH, controllerRef, getControllerOf, keyOf, objOf, slowStartBatch, withoutEmpty, workerLoop } from '../shared/controller-utils.js';
import { isPodActive, isPodAvailable, isPodReady, podFromTemplate, type Pod } from '../shared/controller-utils-pods.js';
import { claimObjects } from '../shared/controller-utils-refs.js';
import { isNamespaceTerminating } from '../shared/errors.js';
import type { ControllerContext } from '../shared/types.js';
import { nodeOfDaemonPod, nodeShouldRunDaemonPod, pinToNode, withDefaultTolerations } from './placement.js';
import { FailedPodsBackoff } from './failed-pods-backoff.js';
import { TEMPLATE_GENERATION_LABEL, byCreationScheduledFirst, daemonSetStatusCounts, isPodUpdated, templateGenerationOf } from './status.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export async function startDaemonSetController(ctx: ControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const dsInformer = ctx.informers.informerFor(Resources.daemonSets);
  const podInformer = ctx.informers.pods();
  const nodeInformer = ctx.informers.nodes();
  const revInformer = ctx.informers.informerFor(Resources.controllerRevisions);
  const dss = dsInformer.lister();
  const pods = podInformer.lister();
  const nodes = nodeInformer.lister();
  const revs = revInformer.lister();
  const expectations = new ControllerExpectations(clock);
  const failedPodsBackoff = new FailedPodsBackoff(clock);
  const loop = workerLoop(ctx, 'daemonset-controller', sync);

  const dsOf = (p: KubeObject): KubeObject | undefined => {
    const ref = getControllerOf(p);
    if (ref?.kind !== 'DaemonSet') return undefined;
    const d = dss.get(`${p.metadata!.namespace}/${ref.name}`);
    return d?.metadata?.uid === ref.uid ? d : undefined;
  };
  const all = (): void => { for (const d of dss.list()) loop.enqueue(d); };
  dsInformer.addEventHandler({ onAdd: (d) => loop.enqueue(d), onUpdate: (_o, d) => loop.enqueue(d), onDelete: (o) => expectations.delete(keyOf(objOf(o))) });
  nodeInformer.addEventHandler({
    onAdd: all,
    onUpdate: (o, n) => { if (JSON.stringify([o.metadata?.labels, o.spec?.taints]) !== JSON.stringify([n.metadata?.labels, n.spec?.taints])) all(); },
    onDelete: all,
  });
  podInformer.addEventHandler({
    onAdd: (p) => { const d = dsOf(p); if (d) { expectations.creationObserved(keyOf(d)); loop.enqueue(d); } },
    onUpdate: (_o, p) => { const d = dsOf(p); if (d) loop.enqueue(d); },
    onDelete: (o) => { const p = objOf(o); const d = dsOf(p); if (d) { expectations.deletionObserved(keyOf(d), p.metadata?.uid); loop.enqueue(d); } },
  });

  async function sync(key: string): Promise<void> {
    const cached = dss.get(key);
    if (!cached) { expectations.delete(key); return; }
    const ds = cloneJson(cached);
    const ns = ds.metadata!.namespace!;
    const selector = labelSelectorAsSelector(ds.spec?.selector);
    if (selector.empty) return;
    const owned = await claimObjects(pods.namespace(ns).list(), {
      owner: ds, ownerApiVersion: 'apps/v1', ownerKind: 'DaemonSet', selector, client: ctx.client.pods(ns),
    });
    if (ds.metadata?.deletionTimestamp) return;
    const history = revisionsOf(ds, revs);
    const { revision, collisionCount } = await ensureRevision(ctx.client, ds, { apiVersion: 'apps/v1', kind: 'DaemonSet', hashLabel: CONTROLLER_REVISION_HASH }, history);
    const hash = revision.metadata!.labels![CONTROLLER_REVISION_HASH]!;
    const nowMs = clock.now();
    const minReady = ds.spec?.minReadySeconds ?? 0;

    const byNode = new Map<string, Pod[]>();
    for (const p of owned) {
      const n = nodeOfDaemonPod(p);
      if (n) byNode.set(n, [...(byNode.get(n) ?? []), p]);
    }
    const nodeList = nodes.list();
    const eligible: string[] = [];
    const placement = new Map<string, Placement>();
    for (const node of nodeList) {
      const name = node.metadata!.name!;
      const where = nodeShouldRunDaemonPod(ds, node);
      placement.set(name, where);
      if (where.shouldRun) eligible.push(name);
    }

    if (expectations.satisfied(key)) {
      const toCreate: string[] = [];
      const toDelete: Pod[] = [];
      for (const [name, where] of placement) podsShouldBeOnNode(ds, hash, name, where, byNode.get(name) ?? [], toCreate, toDelete, nowMs);
      if (ds.spec?.updateStrategy?.type !== 'OnDelete') rollingUpdate(ds, hash, eligible, byNode, toCreate, toDelete, nowMs);
      await manage(ds, hash, toCreate, [...new Set(toDelete)]);
    }

    // from the pods as listed before this sync acted (upstream lists its cache again, which has rarely caught up)
    const counts = daemonSetStatusCounts([...placement].map(([name, { shouldRun }]) => ({ name, shouldRun })), byNode, hash, minReady, nowMs, templateGenerationOf(ds));
    // DaemonSetStatus: the first four always written, the others omitempty
    const status = withoutEmpty({
      currentNumberScheduled: counts.currentNumberScheduled, numberMisscheduled: counts.numberMisscheduled,
      desiredNumberScheduled: counts.desiredNumberScheduled, numberReady: counts.numberReady,
      observedGeneration: ds.metadata?.generation, updatedNumberScheduled: counts.updatedNumberScheduled,
      numberAvailable: counts.numberAvailable, numberUnavailable: counts.desiredNumberScheduled - counts.numberAvailable,
      // a pointer upstream sets on the first hash collision only
      collisionCount: ds.status?.collisionCount != null || collisionCount > 0 ? collisionCount : undefined,
    }, ['observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable']);
    const { conditions, ...old } = ds.status ?? {};
    if (JSON.stringify(Object.fromEntries(Object.entries(old).sort())) !== JSON.stringify(Object.fromEntries(Object.entries(status).filter(([, v]) => v !== undefined).sort()))) {
      try { await ctx.client.daemonSets(ns).updateStatus({ ...ds, status: { ...status, ...(conditions ? { conditions } : {}) } }); } catch (err) { if (!isNotFound(err)) throw err; }
    }
    const live = new Set([revision.metadata!.name!, ...owned.map((p) => `${ds.metadata!.name}-${p.metadata?.labels?.[CONTROLLER_REVISION_HASH]}`)]);
    await truncateHistory(ctx.client, revisionsOf(ds, revs), live, ds.spec?.revisionHistoryLimit ?? 10);
    if (minReady > 0 && counts.numberAvailable !== counts.numberReady) loop.enqueueAfter(key, minReady * 1000);
  }

  /**
   * The pods to create and delete for one node (upstream podsShouldBeOnNode). `pods` are all of the node's daemon pods,
   * terminating ones included: a node with any pod left gets no new one (without surge, the replacement of a deleted
   * or failed pod waits until the old pod is gone). Failed pods are deleted at most as often as failedPodsBackoff
   * allows per node, with a FailedDaemonPod warning; succeeded pods are deleted too.
   */
  function podsShouldBeOnNode(ds: KubeObject, hash: string, name: string, { shouldRun, shouldContinueRunning }: Placement, pods: Pod[], toCreate: string[], toDelete: Pod[], nowMs: number): void {
    if (shouldRun && pods.length === 0) { toCreate.push(name); return; }
    if (!shouldContinueRunning) { toDelete.push(...pods.filter((p) => !p.metadata?.deletionTimestamp)); return; }
    const running: Pod[] = [];
    for (const p of pods) {
      if (p.metadata?.deletionTimestamp) continue;
      const where = `${p.metadata!.namespace}/${p.metadata!.name} on node ${name}`;
      if (p.status?.phase === 'Failed') {
        const backoffKey = `${ds.metadata!.uid}/${ds.status?.observedGeneration ?? 0}/${name}`;
        if (failedPodsBackoff.inBackoff(backoffKey)) { loop.enqueueAfter(keyOf(ds), failedPodsBackoff.delay(backoffKey)); continue; }
        failedPodsBackoff.next(backoffKey);
        ctx.recorder.event(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${where}, will try to kill it`);
        toDelete.push(p);
      } else if (p.status?.phase === 'Succeeded') {
        ctx.recorder.event(ds, 'Normal', 'SucceededDaemonPod', `Found succeeded daemon pod ${where}, will try to delete it`);
        toDelete.push(p);
      } else running.push(p);
    }
    const sorted = running.sort(byCreationScheduledFirst);
    if (!allowsSurge(ds)) { toDelete.push(...sorted.slice(1)); return; }
    if (sorted.length === 0) { if (shouldRun) toCreate.push(name); return; }
    // surging: the oldest pod of the current revision and the oldest of an older one may both stay, the old one only
    // while it is ready and the new one is not yet available
    const isNew = (p: Pod): boolean => p.metadata?.labels?.[CONTROLLER_REVISION_HASH] === hash;
    const oldestNew = sorted.find(isNew);
    const oldestOld = sorted.find((p) => !isNew(p));
    toDelete.push(...sorted.filter((p) => p !== oldestNew && p !== oldestOld));
    if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, ds.spec?.minReadySeconds ?? 0, nowMs))) toDelete.push(oldestOld);
  }

  /** RollingUpdate: old pods go (maxUnavailable at a time), or with maxSurge a new pod starts beside the old. */
  function rollingUpdate(ds: KubeObject, hash: string, eligible: string[], byNode: Map<string, Pod[]>, toCreate: string[], toDelete: Pod[], nowMs: number): void {
    const ru = ds.spec?.updateStrategy?.rollingUpdate ?? {};
    const n = eligible.length;
    const maxSurge = scaled(ru.maxSurge, n, true, '0');
    const maxUnavailable = maxSurge > 0 ? scaled(ru.maxUnavailable ?? 0, n, true, '0') : Math.max(1, scaled(ru.maxUnavailable, n, true, '1'));
    const minReady = ds.spec?.minReadySeconds ?? 0;
    let unavailable = 0;
    const oldAvailable: Pod[] = [], oldUnavailable: Pod[] = [];
    let surging = 0;
    const generation = templateGenerationOf(ds);
    for (const node of eligible) {
      const here = (byNode.get(node) ?? []).filter(isPodActive);
      const fresh = here.find((p) => isPodUpdated(p, hash, generation));
      const old = here.filter((p) => !isPodUpdated(p, hash, generation));
      if (!here.length) { unavailable++; continue; }
      if (fresh && old.length) {
        surging++;
        if (isPodAvailable(fresh, minReady, nowMs)) toDelete.push(...old);
        continue;
      }
      if (fresh) { if (!isPodAvailable(fresh, minReady, nowMs)) unavailable++; continue; }
      const o = old[0]!;
      if (isPodAvailable(o, minReady, nowMs)) oldAvailable.push(o); else { oldUnavailable.push(o); unavailable++; }
    }
    // Old pods that are not available anyway go first, whatever the budget.
    toDelete.push(...oldUnavailable);
    if (maxSurge > 0) {
      for (const p of oldAvailable.slice(0, Math.max(0, maxSurge - surging))) toCreate.push(nodeOfDaemonPod(p)!);
      return;
    }
    for (const p of oldAvailable.slice(0, Math.max(0, maxUnavailable - unavailable))) toDelete.push(p);
  }

  async function manage(ds: KubeObject, hash: string, toCreate: string[], toDelete: Pod[]): Promise<void> {
    const key = keyOf(ds);
    const ns = ds.metadata!.namespace!;
    expectations.expectCreations(key, toCreate.length);
    const queue = [...toCreate];
    // the template generation as the apiserver keeps it, not metadata.generation (upstream CreatePodTemplate)
    const generation = templateGenerationOf(ds);
    const labels = { [CONTROLLER_REVISION_HASH]: hash, ...(generation !== undefined ? { [TEMPLATE_GENERATION_LABEL]: generation } : {}) };
    const { successes, error } = await slowStartBatch(toCreate.length, SLOW_START_INITIAL_BATCH, async () => {
      const node = queue.shift()!;
      const pod = podFromTemplate(ds.spec?.template, controllerRef(ds, 'apps/v1', 'DaemonSet'), {
        generateName: `${ds.metadata!.name}-`, labels,
      });
      pinToNode(pod.spec, node);
      pod.spec.tolerations = withDefaultTolerations(pod.spec.tolerations, !!pod.spec.hostNetwork);
      try {
        const created = await ctx.client.pods(ns).create(pod);
        ctx.recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata!.name}`);
      } catch (err) {
        // a namespace being torn down refuses every create: nothing to report or retry (as upstream)
        if (isNamespaceTerminating(err)) return;
        ctx.recorder.event(ds, 'Warning', 'FailedCreate', `Error creating: ${(err as Error).message}`);
        throw err;
      }
    });
    if (successes < toCreate.length) expectations.lowerExpectations(key, toCreate.length - successes, 0);
    for (const p of toDelete) {
      try {
        await ctx.client.pods(ns).delete(p.metadata!.name!, { preconditions: { uid: p.metadata!.uid } });
        ctx.recorder.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata!.name}`);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    if (error) throw error;
  }

  await loop.run();
}

type Placement = ReturnType<typeof nodeShouldRunDaemonPod>;

/** RollingUpdate with a maxSurge that is not 0 (upstream AllowsSurge). */
const allowsSurge = (ds: KubeObject): boolean =>
  (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && scaled(ds.spec?.updateStrategy?.rollingUpdate?.maxSurge, 1, true, '0') > 0;
