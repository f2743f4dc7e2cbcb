// The garbage collector (upstream pkg/controller/garbagecollector): objects whose owners are all gone are deleted
// (background propagation); an owner deleted in the foreground (finalizer foregroundDeletion) first has its
// dependents deleted — it waits for those with blockOwnerDeletion — then loses the finalizer; an owner deleted
// with orphan propagation (finalizer orphan) has its owner references stripped from its dependents, then loses
// the finalizer. Work items are object uids; each is re-read from the caches (level-based).
// A namespaced object's owner is looked for in the object's own namespace only: a reference to an owner elsewhere is
// dangling (and reported in an OwnerRefInvalidNamespace event); a cluster-scoped object naming a namespaced owner is
// left alone.
import type { KubeObject, OwnerReference } from '../../../api/types.js';
import { isConflict, isNotFound, type ResourceRef } from '../../client/index.js';
import { deepEqual, objOf, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { groupVersionOf, type DiscoveredResource } from '../shared/discovery.js';
import { graphDebugHandler } from './graph-dump.js';
import { FOREGROUND, Monitors, ORPHAN, type Located } from './monitors.js';

/** 'unknown': a kind discovery does not serve (retried); 'invalid': a cluster-scoped object naming a namespaced owner. */
type OwnerState = 'solid' | 'dangling' | 'waiting' | 'unknown' | 'invalid';

const hasFinalizer = (o: KubeObject, f: string): boolean => !!o.metadata?.finalizers?.includes(f);
const sameRefs = (a: KubeObject, b: KubeObject): boolean => deepEqual(a.metadata?.ownerReferences ?? [], b.metadata?.ownerReferences ?? []);

export async function startGarbageCollector(ctx: ClusterControllerContext): Promise<void> {
  const log = ctx.logger;
  /** Owners verified absent, by apiVersion, kind, namespace ('' when cluster-scoped), name and uid (upstream's absentOwnerCache). */
  const absent = new Set<string>();
  const absentKey = (r: OwnerReference, ns: string): string => JSON.stringify([r.apiVersion, r.kind, ns, r.name, r.uid]);
  const loop = workerLoop(ctx, 'garbage-collector-controller', attemptToDelete);
  const add = (uid: string | undefined): void => { if (uid) loop.queue.add(uid); };
  const addOwners = (o: KubeObject): void => { for (const r of o.metadata?.ownerReferences ?? []) add(r.uid); };
  const needsWork = (o: KubeObject): boolean =>
    !!o.metadata?.ownerReferences?.length || (!!o.metadata?.deletionTimestamp && (hasFinalizer(o, FOREGROUND) || hasFinalizer(o, ORPHAN)));

  /** Upstream's reportInvalidNamespaceOwnerRef: a Warning on the dependent, naming the owner as looked for in its namespace. */
  const reportInvalidNamespace = ({ obj, resource }: Located, ownerUid: string): void => {
    const ref = obj.metadata?.ownerReferences?.find((r) => r.uid === ownerUid);
    if (!ref) return;
    const ns = obj.metadata?.namespace ?? '';
    ctx.recorder.event(
      { kind: resource.kind, apiVersion: groupVersionOf(resource), namespace: obj.metadata?.namespace, name: obj.metadata?.name, uid: obj.metadata?.uid },
      'Warning', 'OwnerRefInvalidNamespace',
      `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${ns}, name: ${ref.name}, uid: ${ref.uid}] does not exist in namespace ${JSON.stringify(ns)}`,
    );
  };
  /** Whether a reference names the observed owner by its coordinates (apiVersion, kind, name). */
  const matchesOwner = (r: OwnerReference, owner: Located): boolean =>
    r.name === owner.obj.metadata?.name && r.kind === owner.resource.kind && r.apiVersion === groupVersionOf(owner.resource);
  /**
   * As upstream's graph builder on references first seen: the first whose observed owner disagrees with it ends the
   * look, reported when the owner lives in another namespace (a cluster-scoped owner may own from anywhere).
   */
  const checkNewRefs = (dependent: Located, refs: OwnerReference[]): void => {
    const ns = dependent.obj.metadata?.namespace ?? '';
    for (const r of refs) {
      const owner = monitors.get(r.uid);
      if (!owner) continue;
      const ownerNs = owner.obj.metadata?.namespace ?? '';
      if (ownerNs && ownerNs !== ns) { reportInvalidNamespace(dependent, r.uid); return; }
      if (!matchesOwner(r, owner)) return;
    }
  };
  /** An owner first seen after its dependents (upstream: a virtual node observed): those it cannot own are looked at again. */
  const checkDependents = (owner: Located): void => {
    const uid = owner.obj.metadata!.uid!;
    const ns = owner.obj.metadata?.namespace ?? '';
    for (const d of monitors.dependentsOf(uid)) {
      if (ns && (d.obj.metadata?.namespace ?? '') !== ns) reportInvalidNamespace(d, uid);
      else if (d.obj.metadata?.ownerReferences?.every((r) => r.uid !== uid || matchesOwner(r, owner))) continue;
      add(d.obj.metadata?.uid);
    }
  };

  const monitors = new Monitors(ctx.client, ctx.informers, (resource) => ({
    onAdd: (o, known) => {
      if (!known) {
        checkNewRefs({ obj: o, resource }, o.metadata?.ownerReferences ?? []);
        checkDependents({ obj: o, resource });
      }
      if (needsWork(o)) add(o.metadata?.uid);
    },
    onUpdate: (old, o) => {
      const deletionChanged = !!old.metadata?.deletionTimestamp !== !!o.metadata?.deletionTimestamp
        || !deepEqual(old.metadata?.finalizers ?? [], o.metadata?.finalizers ?? []);
      if (!sameRefs(old, o)) {
        const before = new Set((old.metadata?.ownerReferences ?? []).map((r) => r.uid));
        checkNewRefs({ obj: o, resource }, (o.metadata?.ownerReferences ?? []).filter((r) => !before.has(r.uid)));
      }
      if (!sameRefs(old, o) || deletionChanged) {
        add(o.metadata?.uid);
        addOwners(old);
        addOwners(o);
      }
    },
    onDelete: (d) => {
      const o = objOf(d);
      // Its dependents may now be dangling; its owners may be waiting for it.
      for (const dep of monitors.dependentsOf(o.metadata!.uid!)) add(dep.obj.metadata?.uid);
      addOwners(o);
    },
  }), log);

  await monitors.resync(ctx.signal);
  ctx.serveDebug?.(graphDebugHandler(monitors));
  // Discovery is read again every period, and at once (at most once a second) when an owner reference names a kind
  // not yet discovered: the objects of a CRD created since would otherwise wait for the next period to be collected.
  let lastDiscovery = Date.now();
  let discovering = false;
  const rediscover = (): void => {
    if (discovering) return;
    discovering = true;
    lastDiscovery = Date.now();
    monitors.resync(ctx.signal)
      .catch((err: unknown) => { if (!ctx.signal.aborted) log.warn({ err }, 'discovery failed'); })
      .finally(() => { discovering = false; });
  };
  const discoveryTimer = setInterval(rediscover, ctx.config.discoveryPeriodMs);
  ctx.signal.addEventListener('abort', () => clearInterval(discoveryTimer), { once: true });
  if (!(await monitors.waitForSync(ctx.signal))) { clearInterval(discoveryTimer); await monitors.shutdown(); return; }
  log.info('garbage collector: caches synced');

  const clientFor = (r: ResourceRef, ns: string | undefined) => ctx.client.resource(r, r.namespaced ? ns : undefined);

  /**
   * Where an owner reference of `dependent` stands (upstream classifyReferences / isDangling): the owner is the object
   * of the reference's kind and name in the dependent's namespace (or cluster-wide) with the reference's uid. The
   * cache answers for the apiserver only when its object with that uid is that one.
   */
  async function ownerState(dependent: KubeObject, ref: OwnerReference): Promise<OwnerState> {
    const ns = dependent.metadata?.namespace ?? '';
    if (absent.has(absentKey(ref, '')) || absent.has(absentKey(ref, ns))) return 'dangling';
    const resource = monitors.resourceFor(ref.apiVersion, ref.kind);
    if (!resource) return 'unknown';
    if (resource.namespaced && !ns) return 'invalid';
    const cached = monitors.get(ref.uid);
    let owner = cached && cached.resource.group === resource.group && cached.resource.resource === resource.resource
      && cached.obj.metadata?.name === ref.name && (cached.obj.metadata?.namespace ?? '') === (resource.namespaced ? ns : '') ? cached.obj : undefined;
    if (!owner) {
      try {
        owner = await clientFor(resource, ns).metadataOnly().get(ref.name, { signal: ctx.signal });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      if (!owner || owner.metadata?.uid !== ref.uid) {
        if (absent.size > 10_000) absent.clear();
        absent.add(absentKey(ref, resource.namespaced ? ns : ''));
        return 'dangling';
      }
    }
    return owner.metadata?.deletionTimestamp && hasFinalizer(owner, FOREGROUND) ? 'waiting' : 'solid';
  }

  async function attemptToDelete(uid: string): Promise<void> {
    const item = monitors.get(uid);
    if (!item) return;
    const { obj } = item;
    if (obj.metadata?.deletionTimestamp) {
      if (hasFinalizer(obj, ORPHAN)) await orphanDependents(item);
      else if (hasFinalizer(obj, FOREGROUND)) await processDeletingDependents(item);
      return;
    }
    const refs = obj.metadata?.ownerReferences ?? [];
    if (!refs.length) return;
    // One after the other, as upstream: the first reference that cannot be classified decides.
    const states: OwnerState[] = [];
    for (const r of refs) {
      const state = await ownerState(obj, r);
      states.push(state);
      if (state === 'unknown' || state === 'invalid') break;
    }
    if (states.at(-1) === 'invalid') {
      // no retry will make it valid: upstream forgets the item
      log.debug({ object: describe(item) }, 'cluster-scoped object refers to a namespaced owner');
      return;
    }
    if (states.at(-1) === 'unknown') {
      if (Date.now() - lastDiscovery > 1000) rediscover();
      throw new Error(`${describe(item)}: an owner reference names a kind the apiserver does not serve`);
    }
    const solid = refs.filter((_, i) => states[i] === 'solid');
    const dangling = refs.filter((_, i) => states[i] === 'dangling');
    const waiting = refs.filter((_, i) => states[i] === 'waiting');
    if (solid.length) {
      // Still owned: only drop the references to owners that are gone or are deleting their dependents.
      if (dangling.length || waiting.length) {
        const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
        await patchMeta(item, { ownerReferences: refs.filter((r) => !drop.has(r.uid)) });
      }
      return;
    }
    // About to delete it: decide on the object as the apiserver has it (upstream reads the latest one first), not a
    // cache that may lag behind, e.g. still naming an owner that orphaned it just before going away.
    if (!(await stillAsCached(item))) return;
    const dependents = monitors.dependentsOf(uid);
    if (waiting.length && dependents.length) {
      // Its owner waits for it and it has dependents itself: delete it in the foreground, its owner waiting on. Only
      // when one of those dependents is deleting its own dependents too (maybe a cycle back to here) does it stop
      // blocking its owners first.
      if (dependents.some((d) => d.obj.metadata?.deletionTimestamp && hasFinalizer(d.obj, FOREGROUND)) && refs.some((r) => r.blockOwnerDeletion)) {
        await patchMeta(item, { ownerReferences: refs.map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r)) });
      }
      await deleteObject(item, 'Foreground');
      return;
    }
    await deleteObject(item, hasFinalizer(obj, ORPHAN) ? 'Orphan' : hasFinalizer(obj, FOREGROUND) ? 'Foreground' : 'Background');
  }

  /** Whether the apiserver's object is the cached one with the same owner references (its update, if any, comes next). */
  async function stillAsCached({ obj, resource }: Located): Promise<boolean> {
    let latest: KubeObject | undefined;
    try {
      latest = await clientFor(resource, obj.metadata?.namespace).metadataOnly().get(obj.metadata!.name!, { signal: ctx.signal });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    return latest?.metadata?.uid === obj.metadata?.uid && sameRefs(latest!, obj);
  }

  /**
   * Owners whose finalizer waits one more look because the caches showed them no dependent: dependents made just
   * before the owner's deletion may still be on their way from another watch than the owner's (each resource has its
   * own), and removing the finalizer then would delete them in the background (foreground) or not keep them (orphan).
   */
  const lookedOnce = new Set<string>();
  const RECHECK_MS = 250;
  const noDependentsYet = (uid: string, dependents: Located[]): boolean => {
    if (dependents.length || lookedOnce.has(uid)) { lookedOnce.delete(uid); return false; }
    lookedOnce.add(uid);
    loop.queue.addAfter(uid, RECHECK_MS);
    return true;
  };

  /** Foreground deletion: delete every dependent; once none blocks the owner, remove the finalizer. */
  async function processDeletingDependents(owner: Located): Promise<void> {
    const uid = owner.obj.metadata!.uid!;
    const dependents = monitors.dependentsOf(uid);
    if (noDependentsYet(uid, dependents)) return;
    for (const d of dependents) if (!d.obj.metadata?.deletionTimestamp || hasFinalizer(d.obj, FOREGROUND)) add(d.obj.metadata?.uid);
    const blocking = dependents.filter((d) => d.obj.metadata?.ownerReferences?.some((r) => r.uid === uid && r.blockOwnerDeletion));
    if (blocking.length) {
      log.debug({ owner: describe(owner), blocking: blocking.length }, 'waiting for blocking dependents');
      return;
    }
    await removeFinalizer(owner, FOREGROUND);
  }

  /** Orphan deletion: strip the owner reference from every dependent, then remove the finalizer. */
  async function orphanDependents(owner: Located): Promise<void> {
    const uid = owner.obj.metadata!.uid!;
    const dependents = monitors.dependentsOf(uid);
    if (noDependentsYet(uid, dependents)) return;
    await Promise.all(dependents.map((d) =>
      patchMeta(d, { ownerReferences: (d.obj.metadata?.ownerReferences ?? []).filter((r) => r.uid !== uid) })));
    await removeFinalizer(owner, ORPHAN);
  }

  async function removeFinalizer(item: Located, finalizer: string): Promise<void> {
    await patchMeta(item, { finalizers: (item.obj.metadata?.finalizers ?? []).filter((f) => f !== finalizer) });
    log.debug({ object: describe(item), finalizer }, 'removed finalizer');
  }

  /** A merge patch of metadata guarded by the cached resourceVersion (a conflict re-queues the item). */
  async function patchMeta(item: Located, meta: Record<string, unknown>): Promise<void> {
    const { obj, resource } = item;
    try {
      await clientFor(resource, obj.metadata?.namespace).patch(obj.metadata!.name!, 'merge', {
        metadata: { ...meta, uid: obj.metadata!.uid, resourceVersion: obj.metadata!.resourceVersion },
      }, { signal: ctx.signal });
    } catch (e) {
      if (isNotFound(e)) return;
      if (isConflict(e)) { loop.queue.addRateLimited(obj.metadata!.uid!); return; }
      throw e;
    }
  }

  async function deleteObject(item: Located, policy: 'Background' | 'Foreground' | 'Orphan'): Promise<void> {
    const { obj, resource } = item;
    log.info({ object: describe(item), propagationPolicy: policy }, 'deleting object');
    try {
      await clientFor(resource, obj.metadata?.namespace).delete(obj.metadata!.name!, {
        propagationPolicy: policy, preconditions: { uid: obj.metadata!.uid }, signal: ctx.signal,
      });
    } catch (e) {
      if (isNotFound(e) || isConflict(e)) return; // gone already, or replaced by a new object of that name
      throw e;
    }
  }

  try {
    await loop.run();
  } finally {
    clearInterval(discoveryTimer);
    await monitors.shutdown();
  }
}

const describe = ({ obj, resource }: Located | { obj: KubeObject; resource: DiscoveredResource }): string =>
  `${resource.resource}${resource.group ? `.${resource.group}` : ''} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name} (${obj.metadata?.uid})`;
