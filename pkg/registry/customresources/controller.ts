// The apiserver's CRD controller (upstream: apiextensions-apiserver's NamingConditionController,
// EstablishingController, KubernetesAPIApprovalPolicyConformantConditionController, CRDFinalizer and the crdHandler's
// storage map, folded into one level-based loop):
// watches CustomResourceDefinitions through their registry; accepts names that clash with no other CRD and no
// built-in resource (NamesAccepted), serves the accepted CRD's versions and marks it Established; on deletion
// removes every custom resource, then the cleanup finalizer; publishes the served set for discovery and OpenAPI.
import { createHash } from 'node:crypto';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames } from '../../../api/apiextensions/v1/index.js';
import type { GroupVersion, KubeObject, ObjectMeta } from '../../../api/types.js';
import { isStatusError } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import { systemContext } from '../context.js';
import { deleteObject } from '../generic/delete.js';
import type { Registry } from '../generic/registry.js';
import { update } from '../generic/update.js';
import type { RegistrySet } from '../index.js';
import { resourcePrefix } from '../keys.js';
import { followCache } from '../../storage/cacher/follow.js';
import { rfc3339 } from '../meta.js';
import { CLEANUP_FINALIZER } from '../strategies/crd.js';
import { apiApprovalCondition } from './definition/api-approval.js';
import { nonStructuralViolations } from './definition/validate.js';
import { celLoaded, loadCel } from '../../apimachinery/cel/index.js';
import { serveCrd, type ServedCrd } from './serve.js';

export interface CustomResourcesOptions {
  registries: RegistrySet;
  /** The built-in group-versions, listed first in the served set. */
  builtin: GroupVersion[];
  onError(err: unknown, what: string): void;
  watchCacheHistorySize?: number;
}

export interface CustomResources {
  /** The served set: built-ins, then every established CRD's group-versions (a new array on every change). */
  groupVersions(): GroupVersion[];
  /** Resolves once the CRDs stored at start-up are served. */
  start(): Promise<void>;
  stop(): void;
}

/**
 * How the cleanup of a deleted CRD waits for its custom resources to go (upstream: polled every 5 s for a minute);
 * read on every poll, so tests may shorten it.
 */
export const finalizerTiming = { pollMs: 50, timeoutMs: 60_000 };

const specHash = (crd: CustomResourceDefinition): string => createHash('sha256').update(JSON.stringify(crd.spec)).digest('hex');

export function createCustomResources(o: CustomResourcesOptions): CustomResources {
  const crds = o.registries.get('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
  if (!crds) throw new Error('customresourcedefinitions are not served');
  const crdRegistry: Registry = crds;
  const served = new Map<string, ServedCrd>();
  let published: GroupVersion[] = o.builtin;
  let unsubscribe: (() => void) | undefined;
  let stopped = false;
  const queue = new Set<string>();
  let running: Promise<void> | undefined;
  const cleaning = new Set<string>();

  const publish = (): void => {
    const byKey = new Map<string, GroupVersion>();
    const names = [...served.keys()].sort();
    for (const name of names) {
      for (const gv of served.get(name)!.groupVersions) {
        const key = `${gv.group}/${gv.version}`;
        const prev = byKey.get(key);
        byKey.set(key, prev
          ? { group: gv.group, version: gv.version, resources: [...prev.resources, ...gv.resources].sort((a, b) => (a.plural < b.plural ? -1 : 1)), definitions: { ...prev.definitions, ...gv.definitions } }
          : gv);
      }
    }
    const custom = [...byKey.values()].sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
    published = [...o.builtin, ...custom];
  };

  /**
   * Upstream's NamingConditionController.calculateNamesAndConditions: each requested name (plural, singular,
   * shortNames, kind, listKind, in that order) is accepted when it is already this CRD's or no other CRD of the group
   * (nor a built-in resource) has it; a name in use keeps the accepted one and makes NamesAccepted False, the last
   * conflict found giving the reason.
   */
  const calculateNames = (crd: CustomResourceDefinition): { names: CustomResourceDefinitionNames; clash?: { reason: string; message: string } } => {
    const { group, names: requested } = crd.spec;
    const resources = new Set<string>();
    const kinds = new Set<string>();
    for (const gv of o.builtin) {
      if (gv.group !== group) continue;
      for (const r of gv.resources) {
        resources.add(r.plural);
        kinds.add(r.kind);
      }
    }
    for (const kv of crdRegistry.deps.cacher.list({ prefix: resourcePrefix(crdRegistry.rt) }).items) {
      const other = kv.object as CustomResourceDefinition;
      if (other.metadata.name === crd.metadata.name || other.spec?.group !== group) continue;
      const acc: Partial<CustomResourceDefinitionNames> = other.status?.acceptedNames ?? {};
      for (const n of [acc.plural, acc.singular, ...(acc.shortNames ?? [])]) if (n) resources.add(n);
      for (const n of [acc.kind, acc.listKind]) if (n) kinds.add(n);
    }
    const accepted: Partial<CustomResourceDefinitionNames> = crd.status?.acceptedNames ?? {};
    const next: Partial<CustomResourceDefinitionNames> = { ...accepted };
    let clash: { reason: string; message: string } | undefined;
    const inUse = (want: string | undefined, have: string | undefined, used: Set<string>): boolean => want !== have && want !== undefined && used.has(want);
    const check = (field: 'plural' | 'singular' | 'kind' | 'listKind', used: Set<string>, reason: string): void => {
      if (inUse(requested[field], accepted[field], used)) clash = { reason, message: `"${requested[field]}" is already in use` };
      else if (requested[field] === undefined) delete next[field];
      else next[field] = requested[field];
    };
    check('plural', resources, 'PluralConflict');
    check('singular', resources, 'SingularConflict');
    if (JSON.stringify(requested.shortNames) !== JSON.stringify(accepted.shortNames)) {
      const mine = new Set(accepted.shortNames ?? []);
      const taken = (requested.shortNames ?? []).filter((n) => !mine.has(n) && resources.has(n));
      const messages = taken.map((n) => `"${n}" is already in use`);
      if (taken.length) clash = { reason: 'ShortNamesConflict', message: messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]` };
      else if (requested.shortNames === undefined) delete next.shortNames;
      else next.shortNames = requested.shortNames;
    }
    check('kind', kinds, 'KindConflict');
    check('listKind', kinds, 'ListKindConflict');
    if (requested.categories === undefined) delete next.categories;
    else next.categories = requested.categories;
    return { names: next as CustomResourceDefinitionNames, clash };
  };

  const writeStatus = async (name: string, shape: (status: Record<string, any>) => void, shapeMeta?: (meta: ObjectMeta) => void): Promise<void> => {
    await update(crdRegistry, systemContext(), {
      name, subresource: 'status',
      build: (cur) => {
        if (!cur) throw new Error('gone');
        const next = structuredClone(cur);
        next.status ??= {};
        shape(next.status);
        if (shapeMeta) shapeMeta(next.metadata!);
        return next;
      },
    });
  };

  const setCondition = (status: Record<string, any>, c: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>): void => {
    const list: CustomResourceDefinitionCondition[] = status.conditions ?? [];
    const old = list.find((x) => x.type === c.type);
    const lastTransitionTime = old && old.status === c.status ? old.lastTransitionTime : rfc3339(new Date());
    const next = { type: c.type, status: c.status, lastTransitionTime, reason: c.reason, message: c.message };
    status.conditions = old ? list.map((x) => (x === old ? next : x)) : [...list, next];
  };

  const sameConditions = (crd: CustomResourceDefinition, wanted: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>[], names?: CustomResourceDefinitionNames): boolean =>
    wanted.every((w) => crd.status?.conditions?.some((c) => c.type === w.type && c.status === w.status && c.reason === w.reason && c.message === w.message))
    && (!names || JSON.stringify(crd.status?.acceptedNames ?? {}) === JSON.stringify(names));

  const stopServing = (name: string): void => {
    const s = served.get(name);
    if (!s) return;
    served.delete(name);
    s.stop();
    publish();
  };

  type Condition = Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;
  const terminating = (status: 'True' | 'False', reason: string, message: string): Condition => ({ type: 'Terminating', status, reason, message });

  /**
   * Upstream's CRDFinalizer.deleteInstances: deletes every custom resource of the CRD and waits (up to
   * finalizerTiming.timeoutMs) until none is left; the Terminating condition to record, and whether it is done.
   */
  const deleteInstances = async (name: string, s: ServedCrd): Promise<{ done: boolean; condition: Condition }> => {
    const reg = s.versions[0]!.registry;
    const prefix = resourcePrefix(reg.rt);
    const started = Date.now();
    for (;;) {
      const items = reg.deps.cacher.list({ prefix }).items;
      if (items.length === 0 || stopped) return { done: true, condition: terminating('False', 'InstanceDeletionCompleted', 'removed all instances') };
      const failures: string[] = [];
      for (const kv of items) {
        const meta = kv.object.metadata ?? {};
        if (meta.deletionTimestamp) continue;
        try {
          await deleteObject(reg, { ...systemContext(), namespace: meta.namespace }, meta.name!, {});
        } catch (err) {
          if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) failures.push(err instanceof Error ? err.message : String(err));
        }
      }
      if (failures.length) {
        const message = failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`;
        return { done: false, condition: terminating('True', 'InstanceDeletionFailed', `could not issue all deletes: ${message}`) };
      }
      if (Date.now() - started >= finalizerTiming.timeoutMs) {
        return { done: false, condition: terminating('True', 'InstanceDeletionCheck', 'could not confirm zero CustomResources remaining: timed out waiting for the condition') };
      }
      await new Promise((r) => setTimeout(r, finalizerTiming.pollMs));
    }
  };

  /**
   * Upstream's CRDFinalizer.sync: Terminating=True InstanceDeletionInProgress, then (for a CRD that was served) every
   * custom resource deleted; once none is left the cleanup finalizer goes with Terminating=False. False when the
   * instances could not all be removed (the CRD is looked at again later, rate-limited).
   */
  const cleanup = async (crd: CustomResourceDefinition): Promise<boolean> => {
    const name = crd.metadata.name!;
    const inProgress = terminating('True', 'InstanceDeletionInProgress', 'CustomResource deletion is in progress');
    if (!sameConditions(crd, [inProgress])) await writeStatus(name, (st) => setCondition(st, inProgress));
    const s = served.get(name);
    let condition = terminating('False', 'NeverEstablished', 'resource was never established');
    if (s) {
      const r = await deleteInstances(name, s);
      if (stopped) return true;
      if (!r.done) {
        await writeStatus(name, (st) => setCondition(st, r.condition));
        return false;
      }
      condition = r.condition;
    }
    if (stopped) return true;
    await writeStatus(name, (st) => setCondition(st, condition), (meta) => {
      meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
      if (meta.finalizers.length === 0) delete meta.finalizers;
    });
    return true;
  };

  /**
   * Upstream's default controller rate limiter (per item: 5 ms doubling up to 1000 s), for a failed cleanup and for a
   * failed reconcile (each its own controller upstream, each with its own queue).
   */
  const failures = new Map<string, number>();
  const reconcileFailures = new Map<string, number>();
  const requeueRateLimited = (name: string, counts = failures): void => {
    const n = counts.get(name) ?? 0;
    counts.set(name, n + 1);
    if (!stopped) setTimeout(() => enqueue(name), Math.min(5 * 2 ** n, 1_000_000)).unref();
  };

  const isTrue = (crd: CustomResourceDefinition, type: string): boolean => Boolean(crd.status?.conditions?.some((c) => c.type === type && c.status === 'True'));

  /** Serves the CRD under its accepted names (upstream's crdInfo), anew when its spec or those names changed. */
  const serve = async (crd: CustomResourceDefinition): Promise<void> => {
    const name = crd.metadata.name!;
    const asServed: CustomResourceDefinition = { ...crd, spec: { ...crd.spec, names: { ...crd.spec.names, ...crd.status?.acceptedNames } } };
    const hash = specHash(asServed);
    const current = served.get(name);
    if (current && current.specHash === hash) return;
    // The new spec is served before the old stops: its resources never answer 404 in between.
    const s = await serveCrd(asServed, hash, { registries: o.registries, store: o.registries.store, watchCacheHistorySize: o.watchCacheHistorySize });
    current?.stop();
    served.set(name, s);
    publish();
  };

  const reconcile = async (name: string): Promise<void> => {
    const crd = crdRegistry.peek(undefined, name)?.object as CustomResourceDefinition | undefined;
    if (!crd) return stopServing(name);
    if (crd.metadata.deletionTimestamp) {
      // still served (after a restart too) until its instances are gone; creates are refused
      if (!served.has(name) && isTrue(crd, 'Established')) await serve(crd);
      const s = served.get(name);
      if (s) s.terminating = true;
      if (crd.metadata.finalizers?.includes(CLEANUP_FINALIZER) && !cleaning.has(name)) {
        cleaning.add(name);
        void cleanup(crd)
          .catch((err: unknown) => {
            if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) o.onError(err, `cleaning up ${name}`);
            return false;
          })
          .then((done) => {
            cleaning.delete(name);
            if (done) failures.delete(name);
            else requeueRateLimited(name);
          });
      }
      return;
    }
    const { names, clash } = calculateNames(crd);
    const approval = apiApprovalCondition(crd);
    const wanted: Condition[] = [
      // upstream's apiapproval controller writes it as soon as it sees the CRD, usually before the naming controller
      ...(approval ? [approval] : []),
      clash ? { type: 'NamesAccepted', status: 'False', ...clash } : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
    ];
    // An established CRD stays so (served under the names it has), as upstream's naming controller keeps it.
    const established = isTrue(crd, 'Established') || !clash;
    if (!isTrue(crd, 'Established')) {
      wanted.push(clash
        ? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }
        : { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    }
    if (established) await serve({ ...crd, status: { ...crd.status, acceptedNames: names } });
    // Upstream's NonStructuralSchema controller: only CRDs stored before structural schemas were enforced get it.
    const violations = nonStructuralViolations(crd).map(causeToString);
    if (violations.length) wanted.push({ type: 'NonStructuralSchema', status: 'True', reason: 'Violations', message: violations.length === 1 ? violations[0] : `[${violations.join(', ')}]` });
    const staleNonStructural = !violations.length && crd.status?.conditions?.some((c) => c.type === 'NonStructuralSchema');
    if (!sameConditions(crd, wanted, names) || staleNonStructural) {
      await writeStatus(name, (st) => {
        st.acceptedNames = names;
        wanted.forEach((w) => setCondition(st, w));
        if (staleNonStructural) st.conditions = (st.conditions as CustomResourceDefinitionCondition[]).filter((c) => c.type !== 'NonStructuralSchema');
      });
    }
  };

  const drain = (): Promise<void> => {
    if (running) return running;
    running = (async () => {
      await Promise.resolve();
      // serving a CRD compiles its validation rules and prices them
      if (queue.size && !celLoaded()) await loadCel();
      while (queue.size && !stopped) {
        const [name] = queue;
        queue.delete(name!);
        try {
          await reconcile(name!);
          reconcileFailures.delete(name!);
        } catch (err) {
          if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) o.onError(err, `reconciling customresourcedefinition ${name}`);
          // A conflict or a transient failure: look again, backing off while it keeps failing.
          requeueRateLimited(name!, reconcileFailures);
        }
      }
      running = undefined;
    })();
    return running;
  };

  const enqueue = (name: string): void => {
    queue.add(name);
    void drain();
  };

  return {
    groupVersions: () => published,
    async start() {
      for (const kv of crdRegistry.deps.cacher.list({ prefix: resourcePrefix(crdRegistry.rt) }).items) queue.add(kv.object.metadata!.name!);
      await drain();
      const cacher = crdRegistry.deps.cacher;
      unsubscribe = followCache(cacher, resourcePrefix(crdRegistry.rt), (ev) => {
        const obj = ev.kv.object as KubeObject;
        enqueue(obj.metadata!.name!);
        // Another CRD's names may now be free (or taken).
        for (const kv of cacher.list({ prefix: resourcePrefix(crdRegistry.rt) }).items) {
          const other = kv.object as CustomResourceDefinition;
          if (other.metadata.name !== obj.metadata!.name && other.spec?.group === (obj as CustomResourceDefinition).spec?.group
            && other.status?.conditions?.some((c) => c.type === 'NamesAccepted' && c.status === 'False')) enqueue(other.metadata.name!);
        }
      }, { onResync: (err) => o.onError(err, 'the customresourcedefinitions watch closed; listing them again') });
    },
    stop() {
      stopped = true;
      unsubscribe?.();
      for (const s of served.values()) s.stop();
      served.clear();
    },
  };
}
