// The taint eviction controller (upstream pkg/controller/tainteviction): a pod on a node with NoExecute taints it
// does not tolerate is deleted at once; one that tolerates them for tolerationSeconds is deleted that long after
// this controller first saw it exposed (the smallest of its matching tolerations); a taint lifted in time cancels
// it. Before deleting, the pod gets the DisruptionTarget condition (reason DeletionByTaintManager).
import type { KubeObject } from '../../../api/types.js';
import { NODE_NAME_INDEX, Resources, formatTime, indexByNodeName, isConflict, isNotFound, realClock, splitMetaNamespaceKey } from '../../client/index.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { tolerationTimeMs, type Taint, type Toleration } from './taints.js';

const noExecuteTaints = (node: KubeObject | undefined): Taint[] =>
  ((node?.spec?.taints ?? []) as Taint[]).filter((t) => t.effect === 'NoExecute');

export async function startTaintEvictionController(ctx: ClusterControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const nodes = ctx.informers.nodes();
  const pods = ctx.informers.informerFor(Resources.pods, { indexers: { [NODE_NAME_INDEX]: indexByNodeName } });
  const nodeLister = nodes.lister();
  const podLister = pods.lister();
  /** pod key -> when we first saw it exposed to taints it tolerates only for a while. */
  const exposedSince = new Map<string, number>();
  const loop = workerLoop(ctx, 'taint-eviction-controller', sync);

  const enqueueNodePods = (node: KubeObject): void => {
    for (const p of pods.indexer.byIndex(NODE_NAME_INDEX, node.metadata!.name!)) loop.enqueue(p);
  };
  nodes.addEventHandler({
    onAdd: enqueueNodePods,
    onUpdate: (old, n) => { if (JSON.stringify(noExecuteTaints(old)) !== JSON.stringify(noExecuteTaints(n))) enqueueNodePods(n); },
  });
  pods.addEventHandler({
    onAdd: (p) => { if (p.spec?.nodeName) loop.enqueue(p); },
    onUpdate: (old, p) => {
      if (p.spec?.nodeName && (old.spec?.nodeName !== p.spec.nodeName || JSON.stringify(old.spec?.tolerations) !== JSON.stringify(p.spec.tolerations))) loop.enqueue(p);
    },
    onDelete: (o) => { const p = objOf(o); exposedSince.delete(`${p.metadata!.namespace}/${p.metadata!.name}`); },
  });

  async function sync(key: string): Promise<void> {
    const pod = podLister.get(key);
    if (!pod || pod.metadata?.deletionTimestamp || !pod.spec?.nodeName) { exposedSince.delete(key); return; }
    const taints = noExecuteTaints(nodeLister.get(pod.spec.nodeName));
    if (!taints.length) { exposedSince.delete(key); return; }
    const tolerateMs = tolerationTimeMs((pod.spec.tolerations ?? []) as Toleration[], taints);
    if (tolerateMs === Infinity) { exposedSince.delete(key); return; }
    const now = clock.now();
    const since = exposedSince.get(key) ?? now;
    exposedSince.set(key, since);
    if (now < since + tolerateMs) {
      loop.enqueueAfter(key, since + tolerateMs - now);
      return;
    }
    await evict(pod, now);
    exposedSince.delete(key);
  }

  async function evict(pod: KubeObject, now: number): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(`${pod.metadata!.namespace}/${pod.metadata!.name}`);
    const client = ctx.client.pods(namespace);
    ctx.logger.info({ pod: `${namespace}/${name}`, node: pod.spec?.nodeName }, 'deleting pod for its NoExecute taint');
    ctx.recorder.event(pod, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${namespace}/${name}`);
    try {
      const conds = ((pod.status?.conditions ?? []) as { type: string }[]).filter((c) => c.type !== 'DisruptionTarget');
      await client.updateStatus({
        ...pod,
        status: { ...pod.status, conditions: [...conds, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint', lastTransitionTime: formatTime(now) }] },
      }, { signal: ctx.signal }).catch((e: unknown) => { if (!isConflict(e)) throw e; });
      await client.delete(name, { preconditions: { uid: pod.metadata!.uid }, signal: ctx.signal });
    } catch (e) {
      if (isNotFound(e) || isConflict(e)) return;
      throw e;
    }
  }

  await loop.run();
}
