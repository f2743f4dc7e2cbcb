// The resource quota controller (upstream pkg/controller/resourcequota): status.hard mirrors spec.hard and
// status.used is recomputed from what the namespace holds — on quota changes, on changes of pods, services and
// claims (the objects whose usage changes without a create or delete), and for every quota each
// --resource-quota-sync-period (object counts of any resource included).
import type { KubeObject } from '../../../api/types.js';
import { canonicalQuantity } from '../../apimachinery/quantity.js';
import { Resources, isConflict, isNotFound, type ResourceRef } from '../../client/index.js';
import { canonicalJson, objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { listMetadata } from '../../client/metadata.js';
import { builtinResource } from '../../client/index.js';
import { COUNT_ALIASES, computeUsed } from './usage.js';

const canonicalList = (l: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(l ?? {}).map(([k, v]) => { try { return [k, canonicalQuantity(String(v))]; } catch { return [k, String(v)]; } }));

export async function startResourceQuotaController(ctx: ClusterControllerContext): Promise<void> {
  const quotas = ctx.informers.informerFor(Resources.resourceQuotas);
  const pods = ctx.informers.pods();
  const services = ctx.informers.informerFor(Resources.services);
  const claims = ctx.informers.informerFor(Resources.persistentVolumeClaims);
  const quotaLister = quotas.lister();
  const loop = workerLoop(ctx, 'resourcequota-controller', sync);

  quotas.addEventHandler({ onAdd: (q) => loop.enqueue(q), onUpdate: (_o, q) => loop.enqueue(q) }, ctx.config.resourceQuotaSyncPeriodMs);
  const onObject = (o: KubeObject): void => { for (const q of quotaLister.namespace(o.metadata!.namespace!).list()) loop.enqueue(q); };
  for (const inf of [pods, services, claims]) {
    inf.addEventHandler({ onAdd: (o, initial) => { if (!initial) onObject(o); }, onUpdate: (_o, o) => onObject(o), onDelete: (o) => onObject(objOf(o)) });
  }

  /** Counts objects of "configmaps" / "deployments.apps" in a namespace (metadata-only list). */
  async function count(resource: string, namespace: string): Promise<number> {
    const dot = resource.indexOf('.');
    const plural = dot < 0 ? resource : resource.slice(0, dot);
    const group = dot < 0 ? '' : resource.slice(dot + 1);
    let ref: ResourceRef | undefined;
    if (!group) ref = await builtinResource('v1', plural);
    else {
      const g = await ctx.client.rest.request<{ preferredVersion?: { version: string } }>({ method: 'GET', path: `/apis/${group}`, signal: ctx.signal }).catch(() => undefined);
      if (g?.preferredVersion) ref = { group, version: g.preferredVersion.version, resource: plural, namespaced: true };
    }
    if (!ref) return 0;
    const list = await listMetadata(ctx.client, ref, { namespace, signal: ctx.signal }).catch((e: unknown) => { if (isNotFound(e)) return undefined; throw e; });
    return list?.items.length ?? 0;
  }

  async function sync(key: string): Promise<void> {
    const quota = quotaLister.get(key);
    if (!quota) return;
    const ns = quota.metadata!.namespace!;
    const hardKeys = Object.keys(quota.spec?.hard ?? {});
    const counted = new Set<string>();
    for (const k of hardKeys) {
      if (k.startsWith('count/') && !['count/pods', 'count/services', 'count/persistentvolumeclaims'].includes(k)) counted.add(k.slice(6));
      else if (COUNT_ALIASES[k] && !['pods', 'services', 'persistentvolumeclaims'].includes(k)) counted.add(COUNT_ALIASES[k]);
    }
    const counts = new Map<string, number>(await Promise.all([...counted].map(async (r) => [r, await count(r, ns)] as [string, number])));
    const used = computeUsed(quota, {
      pods: pods.lister().namespace(ns).list(), services: services.lister().namespace(ns).list(), claims: claims.lister().namespace(ns).list(), counts,
    });
    const status = { hard: canonicalList(quota.spec?.hard), used: canonicalList(used) };
    if (canonicalJson(canonicalList(quota.status?.hard)) === canonicalJson(status.hard) && canonicalJson(canonicalList(quota.status?.used)) === canonicalJson(status.used)) return;
    try {
      await ctx.client.resource(Resources.resourceQuotas, ns).updateStatus({ ...quota, status }, { signal: ctx.signal });
    } catch (e) {
      if (isNotFound(e)) return;
      if (isConflict(e)) { loop.queue.addRateLimited(key); return; }
      throw e;
    }
  }

  await loop.run();
}
