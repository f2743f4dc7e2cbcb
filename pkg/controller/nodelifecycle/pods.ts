// Pods of a node that is not ready (upstream controller/util/node MarkPodsNotReady): their Ready condition becomes
// False, so endpoints stop sending them traffic while the node is gone, and each gets a NodeNotReady event, unless it
// is gone. A failed write (a conflict too) fails the call once every pod was tried: the caller tries again.
import type { KubeObject } from '../../../api/types.js';
import { formatTime, isNotFound } from '../../client/index.js';
import type { ControllerContext } from '../shared/types.js';

export async function markPodsNotReady(ctx: ControllerContext, pods: KubeObject[], now: number): Promise<void> {
  let failed: unknown;
  for (const pod of pods) {
    const conds = (pod.status?.conditions ?? []) as { type: string; status: string; lastTransitionTime?: string }[];
    const ready = conds.find((c) => c.type === 'Ready');
    // whatever the pod's phase, as upstream: only a Ready condition already False is left as it is
    if (!ready || ready.status === 'False') continue;
    const updated = {
      ...pod,
      status: { ...pod.status, conditions: conds.map((c) => (c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: formatTime(now) } : c)) },
    };
    try {
      await ctx.client.pods(pod.metadata!.namespace).updateStatus(updated, { signal: ctx.signal });
    } catch (e) {
      if (isNotFound(e)) continue; // gone: no event either
      failed ??= e;
    }
    // after any other failure too, as upstream's (its event follows the write whatever became of it)
    ctx.recorder.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
  }
  if (failed) throw failed;
}
