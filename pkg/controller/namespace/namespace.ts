// The namespace controller (upstream pkg/controller/namespace): a namespace with a deletionTimestamp is emptied —
// every namespaced resource that supports delete, found through discovery, deleted by collection (background
// propagation) or one by one — its conditions report progress as upstream's, and once nothing remains the
// "kubernetes" finalizer is removed through PUT /api/v1/namespaces/NAME/finalize, after which the apiserver
// deletes the namespace.
import { Resources, isConflict, isNotFound, type KubeObject, type ResourceRef } from '../../client/index.js';
import { workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { discoverPreferredResources, hasVerbs, type DiscoveredResource } from '../shared/discovery.js';
import { listMetadata } from '../../client/metadata.js';
import { ConditionUpdater } from './conditions.js';

export const FINALIZER_KUBERNETES = 'kubernetes';
/** Upstream's wait for content held by finalizers (garbage collection) before looking again. */
const FINALIZER_ESTIMATE_SECONDS = 15;

interface Remaining { count: number; finalizers: Map<string, number>; estimate: number }

export async function startNamespaceController(ctx: ClusterControllerContext): Promise<void> {
  const informer = ctx.informers.informerFor(Resources.namespaces);
  const lister = informer.lister();
  const loop = workerLoop(ctx, 'namespace-controller', sync);
  const namespaces = ctx.client.namespaces();
  const enqueue = (ns: KubeObject): void => { if (ns.metadata?.deletionTimestamp) loop.enqueue(ns); };
  informer.addEventHandler({ onAdd: enqueue, onUpdate: (_o, ns) => enqueue(ns) }, ctx.config.namespaceSyncPeriodMs);

  async function sync(name: string): Promise<void> {
    const cached = lister.get(name);
    if (!cached?.metadata?.deletionTimestamp) return;
    let ns: KubeObject;
    try {
      ns = await namespaces.get(name, { signal: ctx.signal });
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!ns.metadata?.deletionTimestamp) return;
    if (ns.status?.phase !== 'Terminating') {
      ns = await namespaces.updateStatus({ ...ns, status: { ...ns.status, phase: 'Terminating' } }, { signal: ctx.signal });
    }
    if (!(ns.spec?.finalizers as string[] | undefined)?.includes(FINALIZER_KUBERNETES)) return;

    const estimate = await deleteAllContent(ns);
    if (estimate > 0) {
      ctx.logger.debug({ namespace: name, estimate }, 'content remains; looking again later');
      loop.enqueueAfter(name, (Math.floor(estimate / 2) + 1) * 1000);
      return;
    }
    try {
      await namespaces.updateSubresource(name, 'finalize', {
        ...ns, spec: { ...ns.spec, finalizers: (ns.spec!.finalizers as string[]).filter((f) => f !== FINALIZER_KUBERNETES) },
      }, { signal: ctx.signal });
      ctx.logger.info({ namespace: name }, 'namespace finalized');
    } catch (e) {
      if (isNotFound(e)) return;
      if (isConflict(e)) { loop.queue.addRateLimited(name); return; }
      throw e;
    }
  }

  /** Deletes what is in the namespace; returns how many seconds to wait before looking again (0: empty). */
  async function deleteAllContent(ns: KubeObject): Promise<number> {
    const name = ns.metadata!.name!;
    const conditions = new ConditionUpdater(ns.status?.conditions);
    const errors: string[] = [];
    let discovered: DiscoveredResource[] = [];
    try {
      const d = await discoverPreferredResources(ctx.client, ctx.signal);
      discovered = d.resources;
      const failures = [...d.failed].map(([gv, msg]) => `${gv}: ${msg}`).sort(); // as ErrGroupDiscoveryFailed.Error
      conditions.discovery(failures);
      // as upstream's deleter: what was found is deleted, but a group that could not be read keeps the namespace
      if (failures.length) errors.push(`unable to retrieve the complete list of server APIs: ${failures.join(', ')}`);
    } catch (e) {
      conditions.discovery([(e as Error).message]);
      errors.push((e as Error).message);
    }
    const deletable = discovered.filter((r) => r.namespaced && hasVerbs(r, 'delete'));
    let estimate = 0;
    const remaining = new Map<string, Remaining>();
    const contentErrors: string[] = [];
    await Promise.all(deletable.map(async (r) => {
      try {
        const left = await deleteResource(r, name);
        estimate = Math.max(estimate, left.estimate);
        // upstream formats every resource as resource.group, leaving "configmaps." for the core group
        if (left.count > 0) remaining.set(`${r.resource}.${r.group}`, left);
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        contentErrors.push((e as Error).message);
      }
    }));
    conditions.contentTotals(remaining);
    conditions.contentErrors(contentErrors);
    if (conditions.changed) {
      await namespaces.updateStatus({ ...ns, status: { ...ns.status, conditions: conditions.conditions } }, { signal: ctx.signal })
        .catch((e: unknown) => { if (!isNotFound(e) && !isConflict(e)) throw e; });
    }
    if (errors.length || contentErrors.length) throw new Error(`namespace ${name}: ${[...errors, ...contentErrors].join('; ')}`);
    return estimate;
  }

  async function deleteResource(r: DiscoveredResource, namespace: string): Promise<Remaining> {
    const ref: ResourceRef = r;
    const client = ctx.client.resource(ref, namespace);
    if (hasVerbs(r, 'deletecollection')) {
      await client.deleteCollection({ propagationPolicy: 'Background', signal: ctx.signal }).catch(ignoreGone);
    } else if (hasVerbs(r, 'list')) {
      const items = (await listMetadata(ctx.client, ref, { namespace, signal: ctx.signal }).catch(ignoreGone))?.items ?? [];
      await Promise.all(items.map((o) => client.delete(o.metadata!.name!, { propagationPolicy: 'Background', signal: ctx.signal }).catch(ignoreGone)));
    }
    if (!hasVerbs(r, 'list')) return { count: 0, finalizers: new Map(), estimate: 0 };
    const items = (await listMetadata(ctx.client, ref, { namespace, signal: ctx.signal }).catch(ignoreGone))?.items ?? [];
    const finalizers = new Map<string, number>();
    for (const o of items) for (const f of o.metadata?.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    let estimate = 0;
    if (r.group === '' && r.resource === 'pods' && items.length) estimate = await podsGraceEstimate(namespace);
    if (items.length && estimate === 0) {
      if (finalizers.size > 0) estimate = FINALIZER_ESTIMATE_SECONDS;
      else throw new Error(`unexpected items still remain in namespace: ${namespace} for gvr: ${r.group}/${r.version}, Resource=${r.resource}`);
    }
    return { count: items.length, finalizers, estimate };
  }

  /** Upstream's estimateGracefulTermination: the longest grace period of the namespace's pods still running. */
  async function podsGraceEstimate(namespace: string): Promise<number> {
    const pods = await ctx.client.pods(namespace).list({ signal: ctx.signal });
    let estimate = 0;
    for (const p of pods.items) {
      if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
      estimate = Math.max(estimate, Number(p.spec?.terminationGracePeriodSeconds ?? 0), 1);
    }
    return estimate;
  }

  await loop.run();
}

const ignoreGone = (e: unknown): undefined => {
  if (isNotFound(e) || (e as { code?: number }).code === 405) return undefined;
  throw e;
};
