// The pod garbage collector (upstream pkg/controller/podgc), every gc period: the oldest terminated pods beyond
// --terminated-pod-gc-threshold are deleted (evicted ones first); pods terminating on a node that is not ready and
// tainted node.kubernetes.io/out-of-service (a node shut down for good) are marked Failed and force-deleted; pods
// bound to a node that no longer exists (checked against the API after a quarantine, so a slow node watch is no
// reason) are marked Failed with DisruptionTarget (DeletionByPodGC) and force-deleted; pods terminating that were
// never scheduled are marked Failed and force-deleted.
import { isPodTerminal } from '../../../api/core/v1/pod-conditions.js';
import type { KubeObject } from '../../../api/types.js';
import { formatTime, isConflict, isNotFound, realClock } from '../../client/index.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';

const created = (p: KubeObject): number => Date.parse(p.metadata?.creationTimestamp ?? '') || 0;
const evicted = (p: KubeObject): boolean => p.status?.phase === 'Failed' && p.status?.reason === 'Evicted';
/** Evicted pods first, then the oldest, then by name (upstream byEvictionAndCreationTimestamp). */
const byEvictionAndCreation = (a: KubeObject, b: KubeObject): number =>
  Number(evicted(b)) - Number(evicted(a)) || created(a) - created(b) || (a.metadata!.name! < b.metadata!.name! ? -1 : 1);
const isTerminating = (p: KubeObject): boolean => !!p.metadata?.deletionTimestamp && !isPodTerminal(p);
const OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

export async function startPodGcController(ctx: ClusterControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const cfg = ctx.config;
  const pods = ctx.informers.pods();
  const nodes = ctx.informers.nodes();
  const podLister = pods.lister();
  const nodeLister = nodes.lister();
  /** node name -> when we first missed it (upstream's delayed nodeQueue). */
  const missingSince = new Map<string, number>();

  const forceDelete = async (pod: KubeObject): Promise<void> => {
    try {
      await ctx.client.pods(pod.metadata!.namespace).delete(pod.metadata!.name!, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata!.uid }, signal: ctx.signal });
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  };

  /** Marks the pod Failed (with a DisruptionTarget condition when `disruption` says why) unless it is terminal, then force-deletes it. */
  const markFailedAndDelete = async (pod: KubeObject, why: string, disruption?: string): Promise<void> => {
    ctx.logger.info({ pod: `${pod.metadata!.namespace}/${pod.metadata!.name}`, node: pod.spec?.nodeName }, why);
    if (!isPodTerminal(pod)) {
      const conditions = disruption ? [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: disruption, lastTransitionTime: formatTime(clock.now()) }] : undefined;
      // A strategic merge patch of status (the pod-garbage-collector role may patch pods/status, not update it).
      await ctx.client.pods(pod.metadata!.namespace).patch(pod.metadata!.name!, 'strategic', { status: { phase: 'Failed', ...(conditions ? { conditions } : {}) } },
        { subresource: 'status', signal: ctx.signal }).catch((e: unknown) => { if (!isNotFound(e) && !isConflict(e)) throw e; });
    }
    await forceDelete(pod);
  };

  async function gcTerminated(all: KubeObject[]): Promise<void> {
    const threshold = cfg.terminatedPodGcThreshold;
    if (threshold <= 0) return;
    const terminated = all.filter((p) => isPodTerminal(p) && !p.metadata?.deletionTimestamp);
    const excess = terminated.length - threshold;
    if (excess <= 0) return;
    terminated.sort(byEvictionAndCreation);
    ctx.logger.info({ count: excess, threshold }, 'garbage collecting terminated pods');
    await Promise.all(terminated.slice(0, excess).map(forceDelete));
  }

  async function gcOrphaned(all: KubeObject[]): Promise<void> {
    const now = clock.now();
    const gone = new Set<string>();
    const wanted = new Set(all.map((p) => p.spec?.nodeName as string | undefined).filter((n): n is string => !!n && !nodeLister.get(n)));
    for (const n of missingSince.keys()) if (!wanted.has(n)) missingSince.delete(n);
    for (const name of wanted) {
      const since = missingSince.get(name) ?? now;
      missingSince.set(name, since);
      if (now - since < cfg.podGcQuarantineMs) continue;
      try {
        await ctx.client.nodes().get(name, { signal: ctx.signal });
        missingSince.delete(name);
      } catch (e) {
        if (isNotFound(e)) gone.add(name); else throw e;
      }
    }
    await Promise.all(all.filter((p) => p.spec?.nodeName && gone.has(p.spec.nodeName)).map((p) =>
      markFailedAndDelete(p, 'garbage collecting a pod of a node that no longer exists', 'PodGC: node no longer exists').catch((err: unknown) => ctx.logger.warn({ err, pod: p.metadata!.name }, 'cannot delete orphaned pod'))));
  }

  /** Pods still terminating on a node that is down and marked out of service: nothing there will finish them. */
  async function gcTerminatingOutOfService(all: KubeObject[]): Promise<void> {
    const stuck = all.filter((p) => {
      const node = isTerminating(p) && p.spec?.nodeName ? nodeLister.get(p.spec.nodeName) : undefined;
      if (!node) return false;
      const ready = (node.status?.conditions as { type: string; status: string }[] | undefined)?.some((c) => c.type === 'Ready' && c.status === 'True');
      return !ready && ((node.spec?.taints ?? []) as { key: string }[]).some((t) => t.key === OUT_OF_SERVICE);
    });
    await Promise.all(stuck.sort(byEvictionAndCreation).map((p) => markFailedAndDelete(p, 'garbage collecting a pod terminating on an out-of-service node')
      .catch((err: unknown) => ctx.logger.warn({ err, pod: p.metadata!.name }, 'cannot delete terminating pod'))));
  }

  async function gc(): Promise<void> {
    const all = podLister.list();
    await gcTerminated(all);
    await gcTerminatingOutOfService(all);
    await gcOrphaned(all);
    const unscheduled = all.filter((p) => p.metadata?.deletionTimestamp && !p.spec?.nodeName).sort(byEvictionAndCreation);
    for (const p of unscheduled) await markFailedAndDelete(p, 'garbage collecting an unscheduled terminating pod');
  }

  ctx.informers.start(ctx.signal);
  if (!(await ctx.informers.waitForCacheSync(ctx.signal))) return;
  ctx.logger.info('pod garbage collector started');
  while (!ctx.signal.aborted) {
    await gc().catch((err: unknown) => { if (!ctx.signal.aborted) ctx.logger.warn({ err }, 'pod gc pass failed'); });
    await clock.sleep(cfg.podGcPeriodMs, ctx.signal).catch(() => undefined);
  }
}
