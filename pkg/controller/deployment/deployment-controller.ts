// The Deployment controller (upstream pkg/controller/deployment): owns ReplicaSets `<name>-<pod-template-hash>`,
// rolls from old to new with RollingUpdate (maxSurge / maxUnavailable) or Recreate, scales proportionally,
// keeps revision annotations and revisionHistoryLimit, honours pause, and reports status with the Progressing and
// Available conditions (progressDeadlineSeconds).
import type { KubeObject } from '../../../api/types.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { Resources, isNotFound, realClock } from '../../client/index.js';
import { getControllerOf, keyOf, objOf, workerLoop } from '../shared/controller-utils.js';
import { claimObjects } from '../shared/controller-utils-refs.js';
import type { ControllerContext } from '../shared/types.js';
import { Rollout } from './rollout.js';
import type { RS } from './util.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export async function startDeploymentController(ctx: ControllerContext): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const dInformer = ctx.informers.deployments();
  const rsInformer = ctx.informers.replicaSets();
  const podInformer = ctx.informers.pods();
  const dLister = dInformer.lister();
  const rsLister = rsInformer.lister();
  const podLister = podInformer.lister();
  const loop = workerLoop(ctx, 'deployment-controller', sync);

  const deploymentOf = (rs: KubeObject): KubeObject | undefined => {
    const ref = getControllerOf(rs);
    if (!ref || ref.kind !== 'Deployment') return undefined;
    const d = dLister.get(`${rs.metadata!.namespace}/${ref.name}`);
    return d?.metadata?.uid === ref.uid ? d : undefined;
  };
  const enqueueForRS = (rs: KubeObject): void => {
    const d = deploymentOf(rs);
    if (d) { loop.enqueue(d); return; }
    if (getControllerOf(rs)) return;
    for (const x of dLister.namespace(rs.metadata!.namespace!).list()) {
      const sel = labelSelectorAsSelector(x.spec?.selector);
      if (!sel.empty && sel.matches(rs.metadata?.labels)) loop.enqueue(x);
    }
  };

  dInformer.addEventHandler({
    onAdd: (d) => loop.enqueue(d),
    onUpdate: (_o, d) => loop.enqueue(d),
    onDelete: (o) => loop.enqueue(objOf(o)),
  });
  rsInformer.addEventHandler({
    onAdd: enqueueForRS,
    onUpdate: (old, rs) => {
      if (old.metadata?.resourceVersion === rs.metadata?.resourceVersion) return;
      const oldRef = getControllerOf(old);
      if (oldRef && oldRef.uid !== getControllerOf(rs)?.uid) enqueueForRS(old);
      enqueueForRS(rs);
    },
    onDelete: (o) => enqueueForRS(objOf(o)),
  });
  podInformer.addEventHandler({
    // Recreate waits for the old pods to go: a deleted pod may unblock its Deployment.
    onDelete: (o) => {
      const pod = objOf(o);
      const ref = getControllerOf(pod);
      if (ref?.kind !== 'ReplicaSet') return;
      const rs = rsLister.get(`${pod.metadata!.namespace}/${ref.name}`);
      const d = rs && deploymentOf(rs);
      if (d && d.spec?.strategy?.type === 'Recreate') loop.enqueue(d);
    },
  });

  async function sync(key: string): Promise<void> {
    const cached = dLister.get(key);
    if (!cached) return;
    const d = cloneJson(cached);
    const ns = d.metadata!.namespace!;
    const selector = labelSelectorAsSelector(d.spec?.selector);
    if (selector.empty) {
      ctx.recorder.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) {
        await ctx.client.deployments(ns).updateStatus({ ...d, status: { ...d.status, observedGeneration: d.metadata?.generation } });
      }
      return;
    }
    const candidates = rsLister.namespace(ns).list();
    const rsList: RS[] = await claimObjects(candidates, {
      owner: d, ownerApiVersion: 'apps/v1', ownerKind: 'Deployment', selector, client: ctx.client.replicaSets(ns),
      canAdopt: async () => {
        const fresh = await ctx.client.deployments(ns).get(d.metadata!.name!);
        return fresh.metadata?.uid === d.metadata?.uid && !fresh.metadata?.deletionTimestamp;
      },
    });
    const r = new Rollout(ctx, clock, d, rsList, podLister, (ms) => loop.enqueueAfter(key, ms));
    try {
      await r.run();
    } catch (err) {
      if (isNotFound(err) && !dLister.get(key)) return;
      throw err;
    }
  }

  await loop.run();
}

export const deploymentKey = (d: KubeObject): string => keyOf(d);
export const deploymentsRef = Resources.deployments;
