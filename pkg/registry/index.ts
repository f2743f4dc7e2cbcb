// Builds one Registry per served resource over a Store: a watch cache each, the shared schema
// index, the strategies, and the admission chain (built later, once the registries exist, since
// admission plugins look objects up through them).
import { apiVersionOf, type Defaulter, type GroupVersion, type KubeObject, type ResourceType, type StorageConversion } from '../../api/types.js';
import { refTo, type Definitions } from '../../api/schema.js';
import type { Admission } from '../admission/interface.js';
import { Cacher } from '../storage/cacher/cacher.js';
import type { Store } from '../storage/interface.js';
import { convertingStore, type ViewCodec } from './generic/converting-store.js';
import type { Decoder } from './generic/decode.js';
import { createFieldManager } from './generic/managed-fields.js';
import { Registry, type RegistryDeps } from './generic/registry.js';
import { groupPrefix, resourcePrefix } from './keys.js';
import { SchemaIndex } from './schema/index.js';
import { pruneUnknown } from './schema/prune.js';
import { fillZeroValues } from './schema/zero-values.js';
import { TypeChecker } from './schema/typecheck.js';
import { crdStrategy } from './strategies/crd.js';
import { statefulSetStrategyWithMaxUnavailable } from './strategies/statefulsets.js';
import { strategyFor } from './strategies/index.js';
import { IpAllocator, PortAllocator } from './strategies/ip-allocator.js';
import { reserveExisting, serviceStrategy } from './strategies/services.js';

export interface RegistrySet {
  get(group: string, version: string, plural: string): Registry | undefined;
  /** The registry of a group's resource in whichever version serves it first (custom resources included once served). */
  byGroupResource(group: string, plural: string): Registry | undefined;
  all(): Registry[];
  /** Admission is wired in after construction: its plugins read through the registries. */
  setAdmission(admission: Admission): void;
  ips: IpAllocator;
  /** The decoder of the built-in definitions, for bodies that are no stored object (reviews, bindings, evictions). */
  decoder: Decoder;
  stop(): void;
  /** The store under every registry (custom resources build their version views over it). */
  store: Store;
  /** The alpha Initializers feature is on (custom resources keep metadata.initializers). */
  initializers: boolean;
  /**
   * The resources serving the same stored objects as `rt` (upstream's equivalent resources: the other versions of a
   * custom resource or of a built-in kind, events.k8s.io Events for core Events), `rt`'s own among them.
   */
  equivalents(rt: ResourceType): ResourceType[];
  /** Serves a resource added at run time (custom resources); replaces one at the same group/version/plural. */
  add(rt: ResourceType, deps: Omit<RegistryDeps, 'admission' | 'peer'>): Registry;
  /**
   * Stops serving a resource added with add() (its cacher is the caller's to stop), unless another registry has
   * replaced it since (a CRD's new spec served before the old one stops); false then.
   */
  remove(reg: Registry): boolean;
}

export interface RegistryOptions {
  store: Store;
  groupVersions: GroupVersion[];
  definitions: Definitions;
  defaulters: Record<string, Defaulter>;
  serviceClusterIpRange: string;
  /** Events each watch cache keeps for resuming watches (the Cacher's default when unset). */
  watchCacheHistorySize?: number;
  /** The alpha Initializers feature (--feature-gates=Initializers=true). */
  initializers?: boolean;
  /** --allow-privileged (unset: allowed). */
  allowPrivileged?: boolean;
  /** --feature-gates: MaxUnavailableStatefulSet keeps a StatefulSet's rollingUpdate.maxUnavailable. */
  featureGates?: Record<string, boolean>;
  /** --service-node-port-range (unset: 30000-32767). */
  serviceNodePortRange?: { min: number; max: number };
}

/**
 * A converted object as Go's encoding of the target version writes it: its omitempty zeros left out and its zero
 * values written (a legacy Event's `reportingComponent: ""` is no `reportingController` in events.k8s.io/v1). The
 * conversions share unchanged parts with their input, parts of the same types that hold nothing to change.
 */
const encodedAs = (index: SchemaIndex, definition: string | undefined) => (obj: KubeObject): KubeObject => {
  if (!definition) return obj;
  pruneUnknown(index, obj, refTo(definition), '', 'json', true);
  fillZeroValues(index, obj, refTo(definition));
  return obj;
};

/** A built-in conversion is synchronous and total. */
const builtinCodec = (c: StorageConversion, view: (o: KubeObject) => KubeObject, stored: (o: KubeObject) => KubeObject): ViewCodec => ({
  toView: (obj) => view(c.fromStorage(obj)),
  toStorage: (obj) => stored(c.toStorage(obj)),
  lazy: true,
});

export async function createRegistries(o: RegistryOptions): Promise<RegistrySet> {
  const index = new SchemaIndex(o.definitions, o.defaulters);
  const decoder = { index, types: new TypeChecker(index) };
  const fieldManager = createFieldManager(index);
  const ips = new IpAllocator(o.serviceClusterIpRange);
  const ports = new PortAllocator(o.serviceNodePortRange?.min, o.serviceNodePortRange?.max);
  const extra = {
    '/services': serviceStrategy(ips, ports), 'apiextensions.k8s.io/customresourcedefinitions': crdStrategy,
    ...(o.featureGates?.MaxUnavailableStatefulSet ? { 'apps/statefulsets': statefulSetStrategyWithMaxUnavailable } : {}),
  };
  let admission: Admission = { mutate: async () => {}, validate: async () => {} };
  const byKey = new Map<string, Registry>();
  const byGroupPlural = new GroupPluralMap();
  const cachers: Cacher[] = [];
  /** Served resources by the storage they serve, made again when resources come or go. */
  let equivalent: Map<string, ResourceType[]> | undefined;

  const resources = o.groupVersions.flatMap((gv) => gv.resources.map((rt) => ({ rt, conversion: gv.conversions?.[rt.plural] })));
  await dropKeptApart(o.store, resources.map(({ rt }) => rt));
  await Promise.all(resources.map(async ({ rt, conversion }) => {
    // a version stored as another one reads and writes that one's keys through a converting view
    const storedAs = conversion && resources.find((r) => r.rt.plural === rt.plural && r.rt.version === conversion.storageVersion
      && r.rt.group === (rt.storageGroup ?? rt.group))?.rt.definition;
    const codec = conversion ? builtinCodec(conversion, encodedAs(index, rt.definition), encodedAs(index, storedAs)) : undefined;
    const store = codec ? convertingStore(o.store, codec) : o.store;
    const cacher = new Cacher(store, resourcePrefix(rt), { historySize: o.watchCacheHistorySize });
    await cacher.start();
    cachers.push(cacher);
    const reg = new Registry(rt, {
      store,
      cacher,
      decoder,
      strategy: strategyFor(rt, extra, o.allowPrivileged ?? true),
      admission: { mutate: (a) => admission.mutate(a), validate: (a) => admission.validate(a) },
      fieldManager,
      peer: (group, plural) => byGroupPlural.get(group, plural),
      initializers: o.initializers,
      codec,
    });
    byKey.set(`${apiVersionOf(rt.group, rt.version)}/${rt.plural}`, reg);
    // peers see the storage version; a resource kept as another group's is its group's only registry
    if (!conversion || rt.storageGroup !== undefined) byGroupPlural.set(rt.group, rt.plural, reg);
  }));

  const services = byGroupPlural.get('', 'services');
  if (services) reserveExisting(services.deps.cacher.list({ prefix: resourcePrefix(services.rt) }).items.map((kv) => kv.object), ips, ports);

  return {
    get: (group, version, plural) => byKey.get(`${apiVersionOf(group, version)}/${plural}`),
    byGroupResource: (group, plural) => byGroupPlural.get(group, plural),
    equivalents: (rt) => {
      equivalent ??= groupByStorage([...byKey.values()]);
      return equivalent.get(storageKey(rt)) ?? [];
    },
    all: () => [...byKey.values()],
    setAdmission: (a) => {
      admission = a;
    },
    ips,
    decoder,
    stop: () => cachers.forEach((c) => c.stop()),
    store: o.store,
    initializers: o.initializers === true,
    add: (rt, deps) => {
      const reg = new Registry(rt, {
        ...deps,
        admission: { mutate: (a) => admission.mutate(a), validate: (a) => admission.validate(a) },
        peer: (group, plural) => byGroupPlural.get(group, plural),
        initializers: o.initializers,
      });
      const key = `${apiVersionOf(rt.group, rt.version)}/${rt.plural}`;
      const replaced = byKey.get(key);
      byKey.set(key, reg);
      const first = byGroupPlural.get(rt.group, rt.plural);
      if (!first || first === replaced) byGroupPlural.set(rt.group, rt.plural, reg);
      equivalent = undefined;
      return reg;
    },
    remove: (reg) => {
      const { group, version, plural } = reg.rt;
      const key = `${apiVersionOf(group, version)}/${plural}`;
      if (byKey.get(key) !== reg) return false;
      byKey.delete(key);
      equivalent = undefined;
      if (byGroupPlural.get(group, plural) === reg) {
        byGroupPlural.delete(group, plural);
        const other = [...byKey.values()].find((r) => r.rt.group === group && r.rt.plural === plural);
        if (other) byGroupPlural.set(group, plural, other);
      }
      return true;
    },
  };
}

const storageKey = (rt: ResourceType): string => `${rt.storageGroup ?? rt.group}/${rt.plural}`;

function groupByStorage(registries: Registry[]): Map<string, ResourceType[]> {
  const out = new Map<string, ResourceType[]>();
  for (const { rt } of registries) {
    const key = storageKey(rt);
    const list = out.get(key);
    if (list) list.push(rt);
    else out.set(key, [rt]);
  }
  return out;
}

/**
 * Objects of a resource now kept as another group's, stored apart by an older mini-kube (events.k8s.io Events before
 * they became core Events): short-lived records, dropped rather than left unreachable.
 */
async function dropKeptApart(store: Store, rts: ResourceType[]): Promise<void> {
  for (const rt of rts) {
    if (rt.storageGroup === undefined || rt.storageGroup === rt.group) continue;
    for (const kv of (await store.list(groupPrefix(rt.group, rt.plural))).items) await store.delete(kv.key).catch(() => undefined);
  }
}

/** Registries by group, then plural: looked up several times per request (admission, peers), without building a key. */
class GroupPluralMap {
  private readonly groups = new Map<string, Map<string, Registry>>();

  get(group: string, plural: string): Registry | undefined {
    return this.groups.get(group)?.get(plural);
  }

  set(group: string, plural: string, reg: Registry): void {
    let plurals = this.groups.get(group);
    if (!plurals) this.groups.set(group, plurals = new Map());
    plurals.set(plural, reg);
  }

  delete(group: string, plural: string): void {
    this.groups.get(group)?.delete(plural);
  }
}
