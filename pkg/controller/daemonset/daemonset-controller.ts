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
import type { ControllerContext } from '../shared/types.js';
import { nodeOfDaemonPod, nodeShouldRunDaemonPod, pinToNode, withDefaultTolerations } from './placement.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

const TEMPLATE_GENERATION = 'pod-template-generation';

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
    const { revision, collisionCount } = await ensureRevision(ctx.client, ds, { apiVersion: 'apps/v1', kind: 'DaemonSet' }, history, ds.spec?.selector?.matchLabels ?? {});
    const hash = revision.metadata!.labels![CONTROLLER_REVISION_HASH]!;
    const nowMs = clock.now();
    const minReady = ds.spec?.minReadySeconds ?? 0;

    const byNode = new Map<string, Pod[]>();
    for (const p of owned) {
      const n = nodeOfDaemonPod(p);
      if (n) byNode.set(n, [...(byNode.get(n) ?? []), p]);
    }
    const toCreate: string[] = [];
    const toDelete: Pod[] = [];
    const nodeList = nodes.list();
    let desired = 0, scheduled = 0, misscheduled = 0, ready = 0, available = 0, updated = 0;
    const eligible: string[] = [];
    for (const node of nodeList) {
      const name = node.metadata!.name!;
      const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(ds, node);
      const here = (byNode.get(name) ?? []).filter((p) => !p.metadata?.deletionTimestamp);
      if (shouldRun) { desired++; eligible.push(name); }
      if (shouldRun && here.length === 0) toCreate.push(name);
      if (!shouldContinueRunning) { toDelete.push(...here); if (here.length) misscheduled++; continue; }
      if (here.length && !shouldRun) misscheduled++;
      const failed = here.filter((p) => p.status?.phase === 'Failed');
      toDelete.push(...failed);
      const running = here.filter((p) => p.status?.phase !== 'Failed');
      if (shouldRun && running.length === 0 && failed.length) toCreate.push(name);
      // Keep one (the updated one if any, else the oldest); extra pods go, except a surge pod mid-update.
      if (running.length > 1) {
        const sorted = [...running].sort((a, b) => Date.parse(a.metadata!.creationTimestamp ?? '') - Date.parse(b.metadata!.creationTimestamp ?? ''));
        const surging = running.length === 2 && sorted.some((p) => p.metadata?.labels?.[CONTROLLER_REVISION_HASH] === hash);
        if (!surging) toDelete.push(...sorted.slice(1));
      }
      if (running.length) {
        scheduled += shouldRun ? 1 : 0;
        const p = running.find((x) => x.metadata?.labels?.[CONTROLLER_REVISION_HASH] === hash) ?? running[0]!;
        if (isPodReady(p)) ready++;
        if (isPodAvailable(p, minReady, nowMs)) available++;
        if (p.metadata?.labels?.[CONTROLLER_REVISION_HASH] === hash) updated++;
      }
    }

    if (expectations.satisfied(key)) {
      if (ds.spec?.updateStrategy?.type !== 'OnDelete') rollingUpdate(ds, hash, eligible, byNode, toCreate, toDelete, nowMs);
      await manage(ds, hash, toCreate, [...new Set(toDelete)]);
    }

    // DaemonSetStatus: the first four always written, the others omitempty
    const status = withoutEmpty({
      currentNumberScheduled: scheduled, numberMisscheduled: misscheduled, desiredNumberScheduled: desired,
      numberReady: ready, observedGeneration: ds.metadata?.generation, updatedNumberScheduled: updated,
      numberAvailable: available, numberUnavailable: Math.max(0, desired - available),
      // a pointer upstream sets on the first hash collision only
      collisionCount: ds.status?.collisionCount != null || collisionCount > 0 ? collisionCount : undefined,
    }, ['observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable']);
    const { conditions, ...old } = ds.status ?? {};
    if (JSON.stringify(Object.fromEntries(Object.entries(old).sort())) !== JSON.stringify(Object.fromEntries(Object.entries(status).filter(([, v]) => v !== undefined).sort()))) {
      try { await ctx.client.daemonSets(ns).updateStatus({ ...ds, status: { ...status, ...(conditions ? { conditions } : {}) } }); } catch (err) { if (!isNotFound(err)) throw err; }
    }
    const live = new Set([revision.metadata!.name!, ...owned.map((p) => `${ds.metadata!.name}-${p.metadata?.labels?.[CONTROLLER_REVISION_HASH]}`)]);
    await truncateHistory(ctx.client, revisionsOf(ds, revs), live, ds.spec?.revisionHistoryLimit ?? 10);
    if (minReady > 0 && available < ready) loop.enqueueAfter(key, minReady * 1000);
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
    for (const node of eligible) {
      const here = (byNode.get(node) ?? []).filter(isPodActive);
      const fresh = here.find((p) => p.metadata?.labels?.[CONTROLLER_REVISION_HASH] === hash);
      const old = here.filter((p) => p.metadata?.labels?.[CONTROLLER_REVISION_HASH] !== hash);
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
    const { successes, error } = await slowStartBatch(toCreate.length, SLOW_START_INITIAL_BATCH, async () => {
      const node = queue.shift()!;
      const pod = podFromTemplate(ds.spec?.template, controllerRef(ds, 'apps/v1', 'DaemonSet'), {
        generateName: `${ds.metadata!.name}-`, labels: { [CONTROLLER_REVISION_HASH]: hash, [TEMPLATE_GENERATION]: String(ds.metadata?.generation ?? 1) },
      });
      pinToNode(pod.spec, node);
      pod.spec.tolerations = withDefaultTolerations(pod.spec.tolerations, !!pod.spec.hostNetwork);
      try {
        const created = await ctx.client.pods(ns).create(pod);
        ctx.recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata!.name}`);
      } catch (err) {
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
