// The pod garbage collector (upstream pkg/controller/podgc), every gc period: the oldest terminated pods beyond
// --terminated-pod-gc-threshold are deleted; pods bound to a node that no longer exists (checked against the API
// after a quarantine, so a slow node watch is no reason) are marked Failed with DisruptionTarget (DeletionByPodGC)
// and force-deleted; pods terminating that were never scheduled are force-deleted.
import { isPodTerminal } from '../../../api/core/v1/pod-conditions.js';
import type { KubeObject } from '../../../api/types.js';
import { formatTime, isConflict, isNotFound, realClock } from '../../client/index.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';

const created = (p: KubeObject): number => Date.parse(p.metadata?.creationTimestamp ?? '') || 0;

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

  const markFailedAndDelete = async (pod: KubeObject, message: string): Promise<void> => {
    ctx.logger.info({ pod: `${pod.metadata!.namespace}/${pod.metadata!.name}`, node: pod.spec?.nodeName }, message);
    if (!isPodTerminal(pod)) {
      // A strategic merge patch of status (the pod-garbage-collector role may patch pods/status, not update it).
      await ctx.client.pods(pod.metadata!.namespace).patch(pod.metadata!.name!, 'strategic', {
        status: { phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message, lastTransitionTime: formatTime(clock.now()) }] },
      }, { subresource: 'status', signal: ctx.signal }).catch((e: unknown) => { if (!isNotFound(e) && !isConflict(e)) throw e; });
    }
    await forceDelete(pod);
  };

  async function gcTerminated(all: KubeObject[]): Promise<void> {
    const threshold = cfg.terminatedPodGcThreshold;
    if (threshold <= 0) return;
    const terminated = all.filter((p) => isPodTerminal(p) && !p.metadata?.deletionTimestamp);
    const excess = terminated.length - threshold;
    if (excess <= 0) return;
    terminated.sort((a, b) => created(a) - created(b));
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
      markFailedAndDelete(p, 'PodGC: node no longer exists').catch((err: unknown) => ctx.logger.warn({ err, pod: p.metadata!.name }, 'cannot delete orphaned pod'))));
  }

  async function gc(): Promise<void> {
    const all = podLister.list();
    await gcTerminated(all);
    await gcOrphaned(all);
    for (const p of all) if (p.metadata?.deletionTimestamp && !p.spec?.nodeName) await forceDelete(p);
  }

  ctx.informers.start(ctx.signal);
  if (!(await ctx.informers.waitForCacheSync(ctx.signal))) return;
  ctx.logger.info('pod garbage collector started');
  while (!ctx.signal.aborted) {
    await gc().catch((err: unknown) => { if (!ctx.signal.aborted) ctx.logger.warn({ err }, 'pod gc pass failed'); });
    await clock.sleep(cfg.podGcPeriodMs, ctx.signal).catch(() => undefined);
  }
}
