// Upstream's pod update queue (podUpdated → processPod): a pod the health pass may have missed, because it reached
// the cache after the pass marked its node's pods, is handled on its own once it shows up bound to a node. If that
// node's Ready condition, as the last health pass recorded it, is not True, the pod's Ready condition becomes False
// (MarkPodsNotReady for that one pod). A pod that fails is tried again with backoff for as long as it fails: upstream's
// podUpdateQueue requeues it rate-limited with no cap on the retries.
import type { KubeObject } from '../../../api/types.js';
import { workerLoop, type WorkerLoop } from '../shared/controller-utils.js';
import type { ControllerContext } from '../shared/types.js';
import type { Health } from './health.js';
import { markPodsNotReady } from './pods.js';

/** Upstream's podUpdated: only a pod first seen bound, or bound to another node than before, is queued. */
export const podNodeChanged = (oldPod: KubeObject | undefined, pod: KubeObject): boolean =>
  !!pod.spec?.nodeName && pod.spec.nodeName !== oldPod?.spec?.nodeName;

export interface PodUpdateDeps {
  pods: { get(key: string): KubeObject | undefined };
  nodes: { get(name: string): KubeObject | undefined };
  health: Map<string, Health>;
  now: () => number;
}

/** Throws when it is to be tried again: the node is not in the cache yet, or the status write failed. */
export async function processPod(ctx: ControllerContext, key: string, deps: PodUpdateDeps): Promise<void> {
  const pod = deps.pods.get(key);
  if (!pod) return; // deleted: nothing to do
  const nodeName = pod.spec!.nodeName as string;
  // not yet seen by a health pass (or removed since): the pass marks it with its node's pods if need be
  const health = deps.health.get(nodeName);
  if (!health) return;
  if (!deps.nodes.get(nodeName)) throw new Error(`node ${nodeName} of pod ${key} not in the cache`);
  // no Ready condition: the node is new, the pass that sees it turn not ready marks its pods
  if (!health.ready || health.ready === 'True') return;
  await markPodsNotReady(ctx, [pod], deps.now());
}

/** The queue of pods and its workers: a key is never dropped for failing too often. */
export const podUpdateLoop = (ctx: ControllerContext, deps: PodUpdateDeps): WorkerLoop =>
  workerLoop(ctx, 'node-lifecycle-controller-pods', (key) => processPod(ctx, key, deps), Infinity);
