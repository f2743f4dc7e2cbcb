// The taint eviction controller (upstream pkg/controller/tainteviction): a pod on a node with NoExecute taints it
// does not tolerate is deleted at once; one that tolerates them for tolerationSeconds is deleted that long after
// this controller first saw it exposed (the smallest of its matching tolerations); a taint lifted in time cancels
// it. Before deleting, the pod gets the DisruptionTarget condition (reason DeletionByTaintManager). Both the
// deletion and the cancelling of a pending one are TaintManagerEviction events.
import type { KubeObject } from '../../../api/types.js';
import {
  NODE_NAME_INDEX, Resources, formatTime, indexByNodeName, isConflict, isNotFound, realClock, splitMetaNamespaceKey, type ObjectReference,
} from '../../client/index.js';
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
    onDelete: (o) => { const p = objOf(o); cancel(`${p.metadata!.namespace}/${p.metadata!.name}`); },
  });

  /**
   * The pod's events name it as upstream's emitPodDeletionEvent builds the reference by hand: apiVersion, kind,
   * name and namespace only (no uid, no resourceVersion).
   */
  const podRef = (key: string): ObjectReference => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    return { apiVersion: 'v1', kind: 'Pod', name, namespace };
  };

  /** Upstream's cancelWorkWithEvent: a pending eviction dropped is an event; with none pending, nothing is said. */
  function cancel(key: string): void {
    if (exposedSince.delete(key)) ctx.recorder.event(podRef(key), 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  async function sync(key: string): Promise<void> {
    const pod = podLister.get(key);
    if (!pod) { cancel(key); return; }
    if (pod.metadata?.deletionTimestamp || !pod.spec?.nodeName) { exposedSince.delete(key); return; }
    const taints = noExecuteTaints(nodeLister.get(pod.spec.nodeName));
    if (!taints.length) { cancel(key); return; }
    const tolerateMs = tolerationTimeMs((pod.spec.tolerations ?? []) as Toleration[], taints);
    if (tolerateMs === Infinity) { cancel(key); return; }
    // a taint not tolerated: a pending eviction gives way to one at once
    if (tolerateMs === undefined) cancel(key);
    const now = clock.now();
    const since = exposedSince.get(key) ?? now;
    exposedSince.set(key, since);
    const due = since + (tolerateMs ?? 0);
    if (now < due) {
      loop.enqueueAfter(key, due - now);
      return;
    }
    // no longer pending once it fires: the pod's deletion that follows cancels nothing
    exposedSince.delete(key);
    try {
      await evict(pod, key, now);
    } catch (e) {
      exposedSince.set(key, since); // retried as due still, not after another toleration period
      throw e;
    }
  }

  async function evict(pod: KubeObject, key: string, now: number): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const client = ctx.client.pods(namespace);
    ctx.logger.info({ pod: key, node: pod.spec?.nodeName }, 'deleting pod for its NoExecute taint');
    ctx.recorder.event(podRef(key), 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
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
