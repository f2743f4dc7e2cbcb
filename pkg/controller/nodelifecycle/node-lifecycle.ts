// The node lifecycle controller (upstream pkg/controller/nodelifecycle): every --node-monitor-period it checks each
// node's heartbeat — its Lease in kube-node-lease being renewed, or its Ready condition being re-posted — by its own
// clock. A node silent for --node-monitor-grace-period gets every condition Unknown ("Kubelet stopped posting node
// status."; one that never posted any, after --node-startup-grace-period from its creation: "Kubelet never posted node
// status."), the pods of a node so turned from Ready get Ready=False, and a not-ready / unreachable node is tainted NoExecute
// (rate-limited per zone, by the zone's disruption state, see zones.ts); the taint eviction controller then evicts
// its pods. A node first seen (every node, after a restart) has its NoExecute taints lifted at once, as upstream's
// markNodeAsReachable for each node new to its knownNodeSet, and set again from its Ready condition the same pass.
// Conditions also drive the NoSchedule taints (TaintNodesByCondition) through a queue of node names, whose worker also
// keeps the beta OS/arch labels in step (labels.ts); pods seen newly bound go through a queue of their own
// (pod-updates.ts).
import type { KubeObject } from '../../../api/types.js';
import { NODE_NAME_INDEX, Resources, formatTime, indexByNodeName, isConflict, isNotFound, realClock, type ObjectReference } from '../../client/index.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { observeHealth, readyOf, type Health } from './health.js';
import { betaLabelsToReconcile } from './labels.js';
import { podNodeChanged, podUpdateLoop } from './pod-updates.js';
import { markPodsNotReady } from './pods.js';
import {
  NO_SCHEDULE_KEYS, TAINT_NOT_READY, TAINT_UNREACHABLE, noScheduleTaintKeys, updateNodeTaints, type NodeCondition, type Taint,
} from './taints.js';
import { ZoneEvictions, countedZoneStates, zoneOf } from './zones.js';

const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const WATCHED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

const conditionsOf = (n: KubeObject): NodeCondition[] => (n.status?.conditions ?? []) as NodeCondition[];
const taintsOf = (n: KubeObject): Taint[] => (n.spec?.taints ?? []) as Taint[];
const isNoExecuteOurs = (t: Taint): boolean => t.effect === 'NoExecute' && (t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE);
const noExecuteKeyFor = (status: NodeCondition['status']): string | undefined =>
  (status === 'False' ? TAINT_NOT_READY : status === 'Unknown' ? TAINT_UNREACHABLE : undefined);
/** The node carries the NoExecute taint of the other not-ready status than this one (upstream swaps it at once). */
const hasOppositeTaint = (taints: Taint[], status: NodeCondition['status']): boolean => {
  const opposite = status === 'False' ? TAINT_UNREACHABLE : status === 'Unknown' ? TAINT_NOT_READY : undefined;
  return taints.some((t) => t.effect === 'NoExecute' && t.key === opposite);
};

export async function startNodeLifecycleController(ctx: ClusterControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const cfg = ctx.config;
  const nodes = ctx.informers.nodes();
  const leases = ctx.informers.informerFor(Resources.leases);
  const pods = ctx.informers.informerFor(Resources.pods, { indexers: { [NODE_NAME_INDEX]: indexByNodeName } });
  const nodeLister = nodes.lister();
  const leaseLister = leases.lister();
  const health = new Map<string, Health>();
  const grace = { monitorMs: cfg.nodeMonitorGracePeriodMs, startupMs: cfg.nodeStartupGracePeriodMs };
  const zones = new ZoneEvictions(clock, {
    primary: cfg.nodeEvictionRate, secondary: cfg.secondaryNodeEvictionRate, largeClusterThreshold: cfg.largeClusterSizeThreshold,
  });
  const loop = workerLoop(ctx, 'node-lifecycle-controller', syncNode);
  const podLoop = podUpdateLoop(ctx, { pods: pods.lister(), nodes: nodeLister, health, now: () => clock.now() });

  pods.addEventHandler({
    onAdd: (p) => { if (podNodeChanged(undefined, p)) podLoop.enqueue(p); },
    onUpdate: (o, p) => { if (podNodeChanged(o, p)) podLoop.enqueue(p); },
  });

  nodes.addEventHandler({
    onAdd: (n) => loop.enqueue(n),
    onUpdate: (_o, n) => loop.enqueue(n),
    onDelete: (o) => {
      const node = objOf(o);
      if (health.delete(node.metadata!.name!)) nodeEvent(node, 'RemovingNode', `Removing Node ${node.metadata!.name} from Controller`);
    },
  });

  /** The node as upstream's RecordNodeEvent and RecordNodeStatusChange name it: apiVersion v1, its own UID. */
  const nodeRef = (node: KubeObject): ObjectReference =>
    ({ apiVersion: 'v1', kind: 'Node', name: node.metadata!.name!, uid: node.metadata?.uid, namespace: '' });

  /** Upstream's RecordNodeEvent: the message prefixed "Node <name> event: ". */
  function nodeEvent(node: KubeObject, reason: string, event: string): void {
    ctx.recorder.event(nodeRef(node), 'Normal', reason, `Node ${node.metadata!.name} event: ${event}`);
  }

  /** Upstream's doNodeProcessingPassWorker: the NoSchedule taints, then the labels, each whether or not the other failed. */
  async function syncNode(name: string): Promise<void> {
    const tainted = await syncNoScheduleTaints(name).then(() => undefined, (e: unknown) => ({ e }));
    await reconcileNodeLabels(name);
    if (tainted) throw tainted.e;
  }

  /** Upstream's reconcileNodeLabels: a merge patch of the labels, so a stale cached copy does not conflict. */
  async function reconcileNodeLabels(name: string): Promise<void> {
    const labels = betaLabelsToReconcile(nodeLister.get(name)?.metadata?.labels);
    if (!labels) return;
    await ctx.client.nodes().patch(name, 'merge', { metadata: { labels } }, { signal: ctx.signal }).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
  }

  /** TaintNodesByCondition: the NoSchedule taints follow the node's conditions and spec.unschedulable. */
  async function syncNoScheduleTaints(name: string): Promise<void> {
    const node = nodeLister.get(name);
    if (!node) return;
    const want = noScheduleTaintKeys(conditionsOf(node), !!node.spec?.unschedulable);
    const ours = (t: Taint): boolean => t.effect === 'NoSchedule' && NO_SCHEDULE_KEYS.has(t.key);
    await updateTaints(node, (taints) => {
      const have = taints.filter(ours);
      if (want.join() === have.map((t) => t.key).sort().join()) return undefined;
      // the ones added get timeAdded, as every taint upstream's SwapNodeControllerTaint adds; those kept keep theirs
      const added = want.filter((key) => !have.some((t) => t.key === key)).map((key): Taint => ({ key, effect: 'NoSchedule', timeAdded: formatTime(clock.now()) }));
      return [...taints.filter((t) => !ours(t) || want.includes(t.key)), ...added];
    });
  }

  /** The node with its taints changed (as last read when unchanged), or undefined when it is gone. */
  async function updateTaints(node: KubeObject, change: (taints: Taint[]) => Taint[] | undefined): Promise<KubeObject | undefined> {
    const nodesClient = ctx.client.nodes();
    const writer = { get: (name: string) => nodesClient.get(name, { signal: ctx.signal }), update: (n: KubeObject) => nodesClient.update(n, { signal: ctx.signal }) };
    try {
      return await updateNodeTaints(writer, node, change, (ms) => clock.sleep(ms, ctx.signal));
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e; // conflicts still, after upstream's tries: the node's next change brings it back
    }
  }

  /** Upstream's markNodeAsReachable: both NoExecute taints off the node, at once. */
  async function markReachable(node: KubeObject): Promise<KubeObject | undefined> {
    return updateTaints(node, (taints) => (taints.some(isNoExecuteOurs) ? taints.filter((t) => !isNoExecuteOurs(t)) : undefined));
  }

  /** Every watched condition becomes Unknown (upstream tryUpdateNodeHealth). */
  async function markUnknown(node: KubeObject, now: number): Promise<KubeObject> {
    const ts = formatTime(now);
    const conds = conditionsOf(node).map((c) => ({ ...c }));
    let changed = false;
    for (const type of WATCHED_CONDITIONS) {
      const c = conds.find((x) => x.type === type);
      if (!c) {
        conds.push({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: node.metadata?.creationTimestamp ?? undefined, lastTransitionTime: ts });
        changed = true;
      } else if (c.status !== 'Unknown') {
        Object.assign(c, { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: ts });
        changed = true;
      }
    }
    if (!changed) return node;
    return ctx.client.nodes().updateStatus({ ...node, status: { ...node.status, conditions: conds } }, { signal: ctx.signal });
  }

  /**
   * Adds the NoExecute taint for a Ready status (and removes the other one); none when Ready. Adding one takes a token
   * from `allowed`, unless `swapNow`: upstream's processTaintBaseEviction swaps a node carrying the other taint at once.
   */
  async function syncNoExecuteTaint(node: KubeObject, status: NodeCondition['status'], allowed: () => boolean, swapNow: boolean, now: number): Promise<void> {
    const want = noExecuteKeyFor(status);
    const right = (taints: Taint[]): boolean => {
      const current = taints.filter(isNoExecuteOurs);
      return current.length === (want ? 1 : 0) && (!want || current[0]!.key === want);
    };
    if (right(taintsOf(node))) return;
    if (want && !swapNow && !allowed()) return;
    ctx.logger.info({ node: node.metadata!.name, taint: want ?? null }, want ? 'tainting node NoExecute' : 'removing NoExecute taints');
    // the token is spent: a conflict (most often with the NoSchedule taint's writer) is retried now, on the node
    // read again, as upstream's SwapNodeControllerTaint
    await updateTaints(node, (taints) => (right(taints) ? undefined
      : [...taints.filter((t) => !isNoExecuteOurs(t)), ...(want ? [{ key: want, effect: 'NoExecute' as const, timeAdded: formatTime(now) }] : [])]));
  }

  /**
   * Upstream's monitorNodeHealth. A node without a Ready condition (its kubelet never posted status, the startup grace
   * period not over) is only counted as not ready in its zone. Otherwise the NoExecute taint follows the Ready status
   * seen before this pass (upstream's observedReadyCondition: a node this pass turns Unknown is tainted at the next),
   * and its pods are marked not ready only when this pass turned its Ready condition from True. The zones' states
   * from this pass set the tainting rates first (upstream's handleDisruption, after its pass, before its tainting
   * loop next runs); the pass that finds every zone fully disrupted lifts every node's NoExecute taints instead.
   */
  async function monitorNodeHealth(): Promise<void> {
    const now = clock.now();
    const all = nodeLister.list();
    const results: { node: KubeObject; observed?: NodeCondition['status']; swapNow?: boolean }[] = [];
    for (let node of all) {
      const name = node.metadata!.name!;
      // as listed: the copy upstream's processTaintBaseEviction looks at for the other NoExecute taint
      const listedTaints = taintsOf(node);
      // A node new to this controller (also every node after a restart, as upstream's knownNodeSet starts empty).
      if (!health.has(name)) {
        nodeEvent(node, 'RegisteredNode', `Registered Node ${name} in Controller`);
        const lifted = await markReachable(node).catch((e: unknown) => { ctx.logger.warn({ err: e, node: name }, 'cannot remove NoExecute taints'); return node; });
        if (!lifted) continue;
        node = lifted;
      }
      // upstream's stand-in for a missing Ready condition: Unknown
      const observed = readyOf(node)?.status ?? 'Unknown';
      try {
        const renew = leaseLister.get(`${NODE_LEASE_NAMESPACE}/${name}`)?.spec?.renewTime as string | undefined;
        if (observeHealth(health, node, renew, now, grace)) node = await markUnknown(node, now);
      } catch (e) {
        if (!isConflict(e) && !isNotFound(e)) ctx.logger.warn({ err: e, node: name }, 'cannot update node health');
        continue;
      }
      const current = readyOf(node)?.status;
      const h = health.get(name)!;
      h.ready = current;
      if (!current) {
        results.push({ node });
        h.podsNotReadyRetry = false;
        continue;
      }
      const turned = current !== 'True' && observed === 'True';
      // upstream's RecordNodeStatusChange: only for the change this controller made (the kubelet reports its own)
      if (turned) ctx.recorder.event(nodeRef(node), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
      if (turned || (h.podsNotReadyRetry && observed !== 'True')) {
        try {
          await markPodsNotReady(ctx, pods.indexer.byIndex(NODE_NAME_INDEX, name), now);
          h.podsNotReadyRetry = false;
        } catch (err) {
          ctx.logger.warn({ err, node: name }, 'cannot mark pods not ready; queuing for retry');
          h.podsNotReadyRetry = true;
        }
      } else {
        h.podsNotReadyRetry = false;
      }
      results.push({ node, observed, swapNow: hasOppositeTaint(listedTaints, observed) });
    }
    const transition = zones.handleDisruption(countedZoneStates(results.map(({ node }) => ({ node, ready: readyOf(node)?.status === 'True' })), cfg.unhealthyZoneThreshold));
    if (transition === 'enter') {
      // every zone fully disrupted: tainting stopped everywhere, and the NoExecute taints lifted off every node, once
      ctx.logger.info('all nodes are not ready: entering full disruption mode');
      const latest = new Map(results.map(({ node }) => [node.metadata!.name!, node]));
      for (const node of all) {
        await markReachable(latest.get(node.metadata!.name!) ?? node)
          .catch((e: unknown) => ctx.logger.warn({ err: e, node: node.metadata!.name }, 'cannot remove NoExecute taints'));
      }
      return;
    }
    if (transition === 'exit') {
      // every node gets its grace period again from now
      ctx.logger.info('some nodes are ready: exiting full disruption mode');
      for (const node of all) { const h = health.get(node.metadata!.name!); if (h) h.probeTimestamp = now; }
    }
    for (const { node, observed, swapNow } of results) {
      if (!observed) continue;
      try {
        await syncNoExecuteTaint(node, observed, () => zones.tryTake(zoneOf(node)), !!swapNow, now);
      } catch (e) {
        if (!isConflict(e)) ctx.logger.warn({ err: e, node: node.metadata!.name }, 'cannot update NoExecute taints');
      }
    }
  }

  const monitor = async (): Promise<void> => {
    if (!(await ctx.informers.waitForCacheSync(ctx.signal))) return;
    while (!ctx.signal.aborted) {
      await monitorNodeHealth().catch((err: unknown) => { if (!ctx.signal.aborted) ctx.logger.warn({ err }, 'node health pass failed'); });
      await clock.sleep(cfg.nodeMonitorPeriodMs, ctx.signal).catch(() => undefined);
    }
  };
  await Promise.all([loop.run(), podLoop.run(), monitor()]);
}
