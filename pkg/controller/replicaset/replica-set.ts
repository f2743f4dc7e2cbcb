// The ReplicaSet controller (upstream pkg/controller/replicaset), which also runs ReplicationControllers: it keeps
// `replicas` active pods matching the selector, creating them in slow-start batches and deleting the lowest
// ranked first, with expectations so a watch that lags never makes it act twice; it adopts matching orphans,
// releases pods that stop matching, and reports status.
import type { KubeObject } from '../../../api/types.js';
import { labelSelectorAsSelector, selectorFromSet, type Selector } from '../../apimachinery/labels.js';
import { CONTROLLER_INDEX, Resources, indexByController, isNotFound, realClock, type ResourceClient, type ResourceRef } from '../../client/index.js';
import {
  BURST_REPLICAS, ControllerExpectations, SLOW_START_INITIAL_BATCH, controllerRef, getControllerOf, keyOf, objOf,
  slowStartBatch, workerLoop,
} from '../shared/controller-utils.js';
import {
  compareForDeletion, isPodActive, podFromTemplate, rankByRelatedOnSameNode, type Pod,
} from '../shared/controller-utils-pods.js';
import { claimObjects } from '../shared/controller-utils-refs.js';
import { isNamespaceTerminating } from '../shared/errors.js';
import type { ControllerContext } from '../shared/types.js';
import { calculateStatus, statusEqual, writtenStatus } from './status.js';

export interface ReplicaSetKind {
  ref: ResourceRef;
  apiVersion: string;
  kind: string;
  name: string;
  selectorOf(o: KubeObject): Selector;
}

export const replicaSetKind: ReplicaSetKind = {
  ref: Resources.replicaSets, apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'replicaset-controller',
  selectorOf: (o) => labelSelectorAsSelector(o.spec?.selector),
};

export const replicationControllerKind: ReplicaSetKind = {
  ref: Resources.replicationControllers, apiVersion: 'v1', kind: 'ReplicationController', name: 'replication-controller',
  selectorOf: (o) => (o.spec?.selector && Object.keys(o.spec.selector).length ? selectorFromSet(o.spec.selector) : labelSelectorAsSelector(null)),
};

export async function startReplicaSetController(ctx: ControllerContext, kind: ReplicaSetKind = replicaSetKind): Promise<void> {
  const clock = ctx.clock ?? realClock;
  const rsInformer = ctx.informers.informerFor(kind.ref);
  // the pods it controls and the orphans it may adopt, without walking every pod of the namespace per sync
  const podInformer = ctx.informers.informerFor(Resources.pods, { indexers: { [CONTROLLER_INDEX]: indexByController } });
  const rsLister = rsInformer.lister();
  const podLister = podInformer.lister();
  const expectations = new ControllerExpectations(clock);
  const log = ctx.logger.child({ controller: kind.name });
  const rsClient = (ns: string): ResourceClient => ctx.client.resource(kind.ref, ns);

  const loop = workerLoop(ctx, kind.name, sync);

  const ownerOf = (pod: Pod): KubeObject | undefined => {
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== kind.kind) return undefined;
    const rs = rsLister.get(`${pod.metadata!.namespace}/${ref.name}`);
    return rs?.metadata?.uid === ref.uid ? rs : undefined;
  };
  const matchingOwners = (pod: Pod): KubeObject[] =>
    rsLister.namespace(pod.metadata!.namespace!).list().filter((rs) => {
      const sel = kind.selectorOf(rs);
      return !sel.empty && sel.matches(pod.metadata?.labels);
    });

  rsInformer.addEventHandler({
    onAdd: (rs) => loop.enqueue(rs),
    onUpdate: (_o, rs) => loop.enqueue(rs),
    onDelete: (o) => { const rs = objOf(o); expectations.delete(keyOf(rs)); loop.enqueue(rs); },
  });
  podInformer.addEventHandler({
    onAdd: (pod) => {
      const rs = ownerOf(pod);
      if (rs) {
        if (pod.metadata?.deletionTimestamp) expectations.deletionObserved(keyOf(rs), pod.metadata.uid);
        else expectations.creationObserved(keyOf(rs));
        loop.enqueue(rs);
        return;
      }
      if (!getControllerOf(pod)) for (const r of matchingOwners(pod)) loop.enqueue(r);
    },
    onUpdate: (old, pod) => {
      if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
      const rs = ownerOf(pod);
      if (pod.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp && rs) expectations.deletionObserved(keyOf(rs), pod.metadata.uid);
      const oldRef = getControllerOf(old);
      if (oldRef && oldRef.uid !== getControllerOf(pod)?.uid) {
        const prev = rsLister.get(`${old.metadata!.namespace}/${oldRef.name}`);
        if (prev) loop.enqueue(prev);
      }
      if (rs) {
        loop.enqueue(rs);
        const minReady = rs.spec?.minReadySeconds ?? 0;
        if (minReady > 0) loop.enqueueAfter(rs, minReady * 1000 + 1000);
        return;
      }
      if (!getControllerOf(pod)) for (const r of matchingOwners(pod)) loop.enqueue(r);
    },
    onDelete: (o) => {
      const pod = objOf(o);
      const rs = ownerOf(pod);
      if (!rs) return;
      expectations.deletionObserved(keyOf(rs), pod.metadata?.uid);
      loop.enqueue(rs);
    },
  });

  async function sync(key: string): Promise<void> {
    const rs = rsLister.get(key);
    if (!rs) { expectations.delete(key); return; }
    const ns = rs.metadata!.namespace!;
    const selector = kind.selectorOf(rs);
    const needsSync = expectations.satisfied(key);
    const candidates = [...podInformer.indexer.byIndex(CONTROLLER_INDEX, rs.metadata!.uid!), ...podInformer.indexer.byIndex(CONTROLLER_INDEX, `orphan/${ns}`)];
    const active = candidates.filter(isPodActive);
    const pods = selector.empty ? [] : await claimObjects(active, {
      owner: rs, ownerApiVersion: kind.apiVersion, ownerKind: kind.kind, selector, client: ctx.client.pods(ns),
      canAdopt: async () => {
        const fresh = await rsClient(ns).get(rs.metadata!.name!);
        return fresh.metadata?.uid === rs.metadata?.uid && !fresh.metadata?.deletionTimestamp;
      },
    });
    let manageError: unknown;
    if (needsSync && !rs.metadata?.deletionTimestamp && !selector.empty) {
      try { await manageReplicas(rs, pods); } catch (err) { manageError = err; }
    }
    const status = calculateStatus(rs, pods, manageError, clock.now());
    const written = writtenStatus(status);
    if (!statusEqual(rs.status, written)) {
      try {
        await rsClient(ns).updateStatus({ ...rs, status: written });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    if (manageError) throw manageError;
    const minReady = rs.spec?.minReadySeconds ?? 0;
    if (minReady > 0 && status.readyReplicas === (rs.spec?.replicas ?? 1) && status.availableReplicas !== status.readyReplicas) {
      loop.enqueueAfter(key, minReady * 1000);
    }
  }

  /**
   * The pods of every set controlled by the same owner as `rs` (a Deployment's old and new sets), each once: what
   * ranks the victims of a scale-down by node (upstream getIndirectlyRelatedPods). A set without a controller has none.
   */
  function indirectlyRelatedPods(rs: KubeObject): Pod[] {
    const ref = getControllerOf(rs);
    if (!ref) return [];
    const ns = rs.metadata!.namespace!;
    const inNamespace = podLister.namespace(ns).list();
    const seen = new Set<string | undefined>();
    const related: Pod[] = [];
    for (const sibling of rsLister.namespace(ns).list()) {
      if (getControllerOf(sibling)?.uid !== ref.uid) continue;
      const sel = kind.selectorOf(sibling);
      for (const p of inNamespace) {
        if (seen.has(p.metadata?.uid) || !sel.matches(p.metadata?.labels)) continue;
        seen.add(p.metadata?.uid);
        related.push(p);
      }
    }
    return related;
  }

  async function manageReplicas(rs: KubeObject, pods: Pod[]): Promise<void> {
    const key = keyOf(rs);
    const ns = rs.metadata!.namespace!;
    const want = rs.spec?.replicas ?? 1;
    const diff = pods.length - want;
    if (diff < 0) {
      const n = Math.min(-diff, BURST_REPLICAS);
      expectations.expectCreations(key, n);
      const owner = controllerRef(rs, kind.apiVersion, kind.kind);
      const body = podFromTemplate(rs.spec?.template, owner, { generateName: `${rs.metadata!.name}-` });
      const { successes, error } = await slowStartBatch(n, SLOW_START_INITIAL_BATCH, async () => {
        try {
          const created = await ctx.client.pods(ns).createMeta(body);
          ctx.recorder.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.name ?? ''}`);
        } catch (err) {
          // a namespace being torn down refuses every create: upstream counts it as done, with no event, error or
          // retry (its pods go with the namespace)
          if (isNamespaceTerminating(err)) return;
          ctx.recorder.event(rs, 'Warning', 'FailedCreate', `Error creating: ${(err as Error).message}`);
          throw err;
        }
      });
      const skipped = n - successes;
      if (skipped > 0) expectations.lowerExpectations(key, skipped, 0);
      if (error) throw error;
      return;
    }
    if (diff > 0) {
      const n = Math.min(diff, BURST_REPLICAS);
      // all of them go when all must: no ranking (upstream getPodsToDelete)
      const victims = n < pods.length ? [...pods].sort(compareForDeletion(rankByRelatedOnSameNode(pods, indirectlyRelatedPods(rs)), clock.now())).slice(0, n) : pods;
      expectations.expectDeletions(key, victims.map((p) => p.metadata!.uid!));
      const results = await Promise.allSettled(victims.map(async (p) => {
        try {
          await ctx.client.pods(ns).delete(p.metadata!.name!, { preconditions: { uid: p.metadata!.uid } });
          ctx.recorder.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata!.name}`);
        } catch (err) {
          if (isNotFound(err)) { expectations.deletionObserved(key, p.metadata!.uid); return; }
          expectations.deletionObserved(key, p.metadata!.uid);
          ctx.recorder.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${(err as Error).message}`);
          throw err;
        }
      }));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
    log.trace({ key, have: pods.length, want }, 'replicas managed');
  }

  await loop.run();
}

export const startReplicationController = (ctx: ControllerContext): Promise<void> => startReplicaSetController(ctx, replicationControllerKind);
