// The node lifecycle controller (upstream pkg/controller/nodelifecycle): every --node-monitor-period it checks each
// node's heartbeat — its Lease in kube-node-lease being renewed, or its Ready condition being re-posted — by its own
// clock. A node silent for --node-monitor-grace-period gets every condition Unknown ("Kubelet stopped posting node
// status."), the pods on a not-ready node get Ready=False, and a not-ready / unreachable node is tainted NoExecute
// (rate-limited per zone, halted when a whole zone is down as upstream); the taint eviction controller then evicts
// its pods. Conditions also drive the NoSchedule taints (TaintNodesByCondition) through a queue of node names.
import type { KubeObject } from '../../../api/types.js';
import { NODE_NAME_INDEX, Resources, formatTime, indexByNodeName, isConflict, isNotFound, realClock, type ObjectReference } from '../../client/index.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { markPodsNotReady } from './pods.js';
import {
  NO_SCHEDULE_KEYS, TAINT_NOT_READY, TAINT_UNREACHABLE, noScheduleTaintKeys, updateNodeTaints, type NodeCondition, type Taint,
} from './taints.js';
import { ZoneLimiter, zoneOf, zoneStates } from './zones.js';

const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const WATCHED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

interface Health {
  /** Our clock's time when we last saw the node alive (a new heartbeat in its status or lease). */
  probeTimestamp: number;
  readyHeartbeat?: string;
  leaseRenewTime?: string;
  lastReadyStatus?: string;
}

const conditionsOf = (n: KubeObject): NodeCondition[] => (n.status?.conditions ?? []) as NodeCondition[];
const taintsOf = (n: KubeObject): Taint[] => (n.spec?.taints ?? []) as Taint[];

export async function startNodeLifecycleController(ctx: ClusterControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const cfg = ctx.config;
  const nodes = ctx.informers.nodes();
  const leases = ctx.informers.informerFor(Resources.leases);
  const pods = ctx.informers.informerFor(Resources.pods, { indexers: { [NODE_NAME_INDEX]: indexByNodeName } });
  const nodeLister = nodes.lister();
  const leaseLister = leases.lister();
  const health = new Map<string, Health>();
  const limiter = new ZoneLimiter(clock, cfg.nodeEvictionRate);
  const loop = workerLoop(ctx, 'node-lifecycle-controller', syncNoScheduleTaints);

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

  /** TaintNodesByCondition: the NoSchedule taints follow the node's conditions and spec.unschedulable. */
  async function syncNoScheduleTaints(name: string): Promise<void> {
    const node = nodeLister.get(name);
    if (!node) return;
    const want = noScheduleTaintKeys(conditionsOf(node), !!node.spec?.unschedulable);
    const ours = (t: Taint): boolean => t.effect === 'NoSchedule' && NO_SCHEDULE_KEYS.has(t.key);
    await updateTaints(node, (taints) => {
      if (want.join() === taints.filter(ours).map((t) => t.key).sort().join()) return undefined;
      return [...taints.filter((t) => !ours(t)), ...want.map((key): Taint => ({ key, effect: 'NoSchedule' }))];
    });
  }

  async function updateTaints(node: KubeObject, change: (taints: Taint[]) => Taint[] | undefined): Promise<void> {
    const nodesClient = ctx.client.nodes();
    const writer = { get: (name: string) => nodesClient.get(name, { signal: ctx.signal }), update: (n: KubeObject) => nodesClient.update(n, { signal: ctx.signal }) };
    try {
      await updateNodeTaints(writer, node, change, (ms) => clock.sleep(ms, ctx.signal));
    } catch (e) {
      if (isNotFound(e)) return;
      throw e; // conflicts still, after upstream's tries: the node's next change brings it back
    }
  }

  /** Updates the node's health record; returns whether it is silent for longer than its grace period. */
  function observe(node: KubeObject, now: number): boolean {
    const name = node.metadata!.name!;
    const ready = conditionsOf(node).find((c) => c.type === 'Ready');
    const lease = leaseLister.get(`${NODE_LEASE_NAMESPACE}/${name}`);
    const renew = lease?.spec?.renewTime as string | undefined;
    let h = health.get(name);
    if (!h) {
      h = { probeTimestamp: now, readyHeartbeat: ready?.lastHeartbeatTime, leaseRenewTime: renew };
      health.set(name, h);
    }
    if (ready?.lastHeartbeatTime !== h.readyHeartbeat) { h.readyHeartbeat = ready?.lastHeartbeatTime; h.probeTimestamp = now; }
    if (renew && (!h.leaseRenewTime || Date.parse(renew) > Date.parse(h.leaseRenewTime))) { h.leaseRenewTime = renew; h.probeTimestamp = now; }
    const grace = ready ? cfg.nodeMonitorGracePeriodMs : cfg.nodeStartupGracePeriodMs;
    return now > h.probeTimestamp + grace;
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

  /** Adds the NoExecute taint for the node's Ready status (and removes the other one); none when Ready. */
  async function syncNoExecuteTaint(node: KubeObject, allowed: () => boolean, now: number): Promise<void> {
    const status = conditionsOf(node).find((c) => c.type === 'Ready')?.status ?? 'Unknown';
    const want = status === 'False' ? TAINT_NOT_READY : status === 'Unknown' ? TAINT_UNREACHABLE : undefined;
    const isOurs = (t: Taint): boolean => t.effect === 'NoExecute' && (t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE);
    const right = (taints: Taint[]): boolean => {
      const current = taints.filter(isOurs);
      return current.length === (want ? 1 : 0) && (!want || current[0]!.key === want);
    };
    if (right(taintsOf(node))) return;
    if (want && !allowed()) return;
    ctx.logger.info({ node: node.metadata!.name, taint: want ?? null }, want ? 'tainting node NoExecute' : 'removing NoExecute taints');
    // the token is spent: a conflict (most often with the NoSchedule taint's writer) is retried now, on the node
    // read again, as upstream's SwapNodeControllerTaint
    await updateTaints(node, (taints) => (right(taints) ? undefined
      : [...taints.filter((t) => !isOurs(t)), ...(want ? [{ key: want, effect: 'NoExecute' as const, timeAdded: formatTime(now) }] : [])]));
  }

  async function monitorNodeHealth(): Promise<void> {
    const now = clock.now();
    const all = nodeLister.list();
    const results: { node: KubeObject; zone: string }[] = [];
    for (let node of all) {
      const name = node.metadata!.name!;
      // A node new to this controller (also every node after a restart, as upstream's knownNodeSet starts empty).
      if (!health.has(name)) nodeEvent(node, 'RegisteredNode', `Registered Node ${name} in Controller`);
      try {
        if (observe(node, now)) node = await markUnknown(node, now);
      } catch (e) {
        if (!isConflict(e) && !isNotFound(e)) ctx.logger.warn({ err: e, node: name }, 'cannot update node health');
        continue;
      }
      const ready = conditionsOf(node).find((c) => c.type === 'Ready')?.status ?? 'Unknown';
      const h = health.get(name)!;
      if (ready !== 'True' && h.lastReadyStatus === 'True') {
        // upstream's RecordNodeStatusChange
        ctx.recorder.event(nodeRef(node), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
      }
      h.lastReadyStatus = ready;
      if (ready !== 'True') {
        await markPodsNotReady(ctx, pods.indexer.byIndex(NODE_NAME_INDEX, name), now)
          .catch((err: unknown) => ctx.logger.warn({ err, node: name }, 'cannot mark pods not ready'));
      }
      results.push({ node, zone: zoneOf(node) });
    }
    const states = zoneStates(results.map(({ node, zone }) => ({ zone, ready: conditionsOf(node).find((c) => c.type === 'Ready')?.status === 'True' })));
    const allDown = states.size > 0 && [...states.values()].every((s) => s === 'FullDisruption');
    for (const { node, zone } of results) {
      const rate = allDown ? 0 : limiter.rateFor(zone, states.get(zone)!, results.filter((r) => r.zone === zone).length);
      const allowed = (): boolean => rate > 0 && limiter.tryTake(zone, rate);
      try {
        // In full disruption (every zone down), upstream stops evicting and lifts the NoExecute taints.
        await syncNoExecuteTaint(allDown ? { ...node, status: { conditions: [{ type: 'Ready', status: 'True' }] } } : node, allowed, now);
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
  await Promise.all([loop.run(), monitor()]);
}
