// The apiserver's CRD controller (upstream: apiextensions-apiserver's NamingConditionController,
// EstablishingController, CRDFinalizer and the crdHandler's storage map, folded into one level-based loop):
// watches CustomResourceDefinitions through their registry; accepts names that clash with no other CRD and no
// built-in resource (NamesAccepted), serves the accepted CRD's versions and marks it Established; on deletion
// removes every custom resource, then the cleanup finalizer; publishes the served set for discovery and OpenAPI.
import { createHash } from 'node:crypto';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames } from '../../../api/apiextensions/v1/index.js';
import type { GroupVersion, KubeObject } from '../../../api/types.js';
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
import type { ServiceResolver } from './conversion.js';
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

const CLEANUP_POLL_MS = 50;

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

  const resolveService: ServiceResolver = (ref) => {
    const svc = o.registries.get('', 'v1', 'services')?.peek(ref.namespace, ref.name)?.object;
    const eps = o.registries.get('', 'v1', 'endpoints')?.peek(ref.namespace, ref.name)?.object;
    if (!svc || !eps) return undefined;
    const port = (svc.spec?.ports ?? []).find((p: { port: number }) => p.port === (ref.port ?? 443)) ?? svc.spec?.ports?.[0];
    for (const subset of eps.subsets ?? []) {
      const addr = subset.addresses?.[0]?.ip;
      const ep = (subset.ports ?? []).find((p: { name?: string }) => (p.name ?? '') === (port?.name ?? '')) ?? subset.ports?.[0];
      if (addr && ep) {
        const host = addr.includes(':') ? `[${addr}]` : addr;
        return { url: `https://${host}:${ep.port}${ref.path ?? ''}`, servername: `${ref.name}.${ref.namespace}.svc` };
      }
    }
    return undefined;
  };

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

  /** The first clash of `names` in `group` with a built-in resource or another CRD's accepted names. */
  const conflict = (crd: CustomResourceDefinition): { reason: string; message: string } | undefined => {
    const { group, names } = crd.spec;
    const mine = [names.plural, names.singular, ...(names.shortNames ?? [])].filter(Boolean) as string[];
    for (const gv of o.builtin) {
      if (gv.group !== group) continue;
      for (const r of gv.resources) {
        if (mine.includes(r.plural)) return { reason: 'PluralConflict', message: `"${r.plural}" is already in use` };
        if (r.kind === names.kind) return { reason: 'KindConflict', message: `"${names.kind}" is already in use` };
      }
    }
    for (const kv of crdRegistry.deps.cacher.list({ prefix: resourcePrefix(crdRegistry.rt) }).items) {
      const other = kv.object as CustomResourceDefinition;
      if (other.metadata.name === crd.metadata.name || other.spec?.group !== group) continue;
      const acc: CustomResourceDefinitionNames | undefined = other.status?.acceptedNames;
      if (!acc?.plural) continue;
      const theirs = new Set([acc.plural, acc.singular, ...(acc.shortNames ?? [])].filter(Boolean));
      if (theirs.has(names.plural)) return { reason: 'PluralConflict', message: `"${names.plural}" is already in use` };
      if (names.singular && theirs.has(names.singular)) return { reason: 'SingularConflict', message: `"${names.singular}" is already in use` };
      const short = (names.shortNames ?? []).find((s) => theirs.has(s));
      if (short) return { reason: 'ShortNamesConflict', message: `"${short}" is already in use` };
      if (acc.kind === names.kind) return { reason: 'KindConflict', message: `"${names.kind}" is already in use` };
      if (acc.listKind && acc.listKind === names.listKind) return { reason: 'ListKindConflict', message: `"${names.listKind}" is already in use` };
    }
    return undefined;
  };

  const writeStatus = async (name: string, shape: (status: Record<string, any>) => void): Promise<void> => {
    await update(crdRegistry, systemContext(), {
      name, subresource: 'status',
      build: (cur) => {
        if (!cur) throw new Error('gone');
        const next = structuredClone(cur);
        next.status ??= {};
        shape(next.status);
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

  const sameConditions = (crd: CustomResourceDefinition, wanted: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>[], names: CustomResourceDefinitionNames): boolean =>
    wanted.every((w) => crd.status?.conditions?.some((c) => c.type === w.type && c.status === w.status && c.reason === w.reason && c.message === w.message))
    && JSON.stringify(crd.status?.acceptedNames ?? {}) === JSON.stringify(names);

  const stopServing = (name: string): void => {
    const s = served.get(name);
    if (!s) return;
    served.delete(name);
    s.stop();
    publish();
  };

  /** Deletes every custom resource of the CRD, waits until none is left (finalizers), then drops the finalizer. */
  const cleanup = async (crd: CustomResourceDefinition): Promise<void> => {
    const name = crd.metadata.name!;
    const s = served.get(name);
    if (s) {
      s.terminating = true;
      const reg = s.versions[0]!.registry;
      const prefix = resourcePrefix(reg.rt);
      const deadline = Date.now() + 60_000;
      for (;;) {
        const items = reg.deps.cacher.list({ prefix }).items;
        if (items.length === 0 || stopped) break;
        for (const kv of items) {
          const meta = kv.object.metadata ?? {};
          if (meta.deletionTimestamp) continue;
          try {
            await deleteObject(reg, { ...systemContext(), namespace: meta.namespace }, meta.name!, {});
          } catch (err) {
            if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) o.onError(err, `deleting ${meta.name} of ${name}`);
          }
        }
        if (Date.now() > deadline) {
          await writeStatus(name, (st) => setCondition(st, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionCheck', message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition' })).catch(() => {});
          return;
        }
        await new Promise((r) => setTimeout(r, CLEANUP_POLL_MS));
      }
    }
    if (stopped) return;
    await update(crdRegistry, systemContext(), {
      name,
      build: (cur) => {
        if (!cur) throw new Error('gone');
        const next = structuredClone(cur);
        next.metadata!.finalizers = (next.metadata!.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
        if (next.metadata!.finalizers.length === 0) delete next.metadata!.finalizers;
        return next;
      },
    });
  };

  const reconcile = async (name: string): Promise<void> => {
    const crd = crdRegistry.peek(undefined, name)?.object as CustomResourceDefinition | undefined;
    if (!crd) return stopServing(name);
    if (crd.metadata.deletionTimestamp) {
      const s = served.get(name);
      if (s) s.terminating = true;
      if (crd.metadata.finalizers?.includes(CLEANUP_FINALIZER) && !cleaning.has(name)) {
        cleaning.add(name);
        void cleanup(crd).catch((err: unknown) => o.onError(err, `cleaning up ${name}`)).finally(() => cleaning.delete(name));
      }
      return;
    }
    const clash = conflict(crd);
    if (clash) {
      const wanted = [
        { type: 'NamesAccepted', status: 'False' as const, reason: clash.reason, message: clash.message },
        { type: 'Established', status: 'False' as const, reason: 'NotAccepted', message: 'not all names are accepted' },
      ];
      const accepted = crd.status?.acceptedNames ?? ({} as CustomResourceDefinitionNames);
      if (!sameConditions(crd, wanted, accepted)) await writeStatus(name, (st) => wanted.forEach((w) => setCondition(st, w)));
      return;
    }
    const hash = specHash(crd);
    const current = served.get(name);
    if (!current || current.specHash !== hash) {
      // The new spec is served before the old stops: its resources never answer 404 in between.
      const s = await serveCrd(crd, hash, { registries: o.registries, store: o.registries.store, resolveService, onError: o.onError, watchCacheHistorySize: o.watchCacheHistorySize });
      current?.stop();
      served.set(name, s);
      publish();
    }
    const names: CustomResourceDefinitionNames = { ...crd.spec.names };
    const wanted: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>[] = [
      { type: 'NamesAccepted', status: 'True' as const, reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True' as const, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ];
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
        } catch (err) {
          if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) o.onError(err, `reconciling customresourcedefinition ${name}`);
          // A conflict or a transient failure: look again shortly.
          if (!stopped) setTimeout(() => enqueue(name!), 200).unref();
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
