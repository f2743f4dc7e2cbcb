// The garbage collector's view of the cluster (upstream graph_builder.go, as a set of caches rather than a graph):
// one informer per deletable, listable, watchable resource found by discovery (re-read periodically, so custom
// resources join), an index uid -> object across all of them, and each informer indexed by owner uid so the
// dependents of any object are one lookup per resource. As upstream's informerFactory.ForResource, a built-in kind
// (or one another controller already watches) uses the controllers' shared typed informer (pods, replicasets...: one
// watch, each event decoded once); the others get a metadata-only informer of their own.
import type { Logger } from 'pino';
import {
  OWNER_UID_INDEX, Resources, finalState, indexByOwnerUid, type Client, type EventHandler, type KubeObject, type SharedIndexInformer, type SharedInformerFactory,
} from '../../client/index.js';
import { discoverPreferredResources, groupKind, hasVerbs, type DiscoveredResource } from '../shared/discovery.js';
import { metadataInformer } from '../../client/metadata.js';

/** The finalizers of owners deleted in the foreground and with orphan propagation. */
export const FOREGROUND = 'foregroundDeletion';
export const ORPHAN = 'orphan';

/** Upstream's ignoredResources: events are never owners nor collected. */
const IGNORED = new Set(['events.', 'events.events.k8s.io']);

interface Monitor {
  resource: DiscoveredResource;
  informer: SharedIndexInformer;
  /** Stops watching: the monitor's own informer stops, a shared one only loses the monitor's handler. */
  stop: () => void;
  run: Promise<void>;
}

export interface Located {
  obj: KubeObject;
  resource: DiscoveredResource;
}

/**
 * A monitor's events as the collector hears them. An add says whether the uid was already tracked (a monitor
 * replaced after discovery lists again what was seen): upstream's graph treats only a first sight as new.
 */
export type MonitorHandler = Omit<EventHandler, 'onAdd'> & { onAdd?(obj: KubeObject, known: boolean): void };

export class Monitors {
  private readonly monitors = new Map<string, Monitor>();
  /** Every discovered kind (group/kind -> resource), watched or not: owner references are resolved with it. */
  private readonly kinds = new Map<string, DiscoveredResource>();
  private readonly byUid = new Map<string, { monitor: Monitor; key: string }>();

  constructor(
    private readonly client: Client,
    private readonly informers: SharedInformerFactory,
    private readonly handler: (resource: DiscoveredResource) => MonitorHandler,
    private readonly logger: Logger,
  ) {}

  /** Reads discovery and starts (or stops) monitors to match; returns the resources newly monitored. */
  async resync(signal: AbortSignal): Promise<DiscoveredResource[]> {
    const { resources, failed } = await discoverPreferredResources(this.client, signal);
    for (const r of resources) this.kinds.set(`${r.kind}.${r.group}`, r);
    const wanted = resources.filter((r) => hasVerbs(r, 'delete', 'list', 'watch') && !IGNORED.has(`${r.resource}.${r.group}`));
    const keys = new Set(wanted.map((r) => `${r.resource}.${r.group}`));
    const added: DiscoveredResource[] = [];
    for (const r of wanted) {
      const key = `${r.resource}.${r.group}`;
      const existing = this.monitors.get(key);
      if (existing && existing.resource.version === r.version) continue;
      existing?.stop();
      const shared = isBuiltin(r) || this.informers.existing(r) !== undefined;
      const informer = shared
        ? this.informers.informerFor(r, { indexers: { [OWNER_UID_INDEX]: indexByOwnerUid } })
        : metadataInformer(this.client, r, { logger: this.logger, indexers: { [OWNER_UID_INDEX]: indexByOwnerUid } });
      const own = new AbortController();
      const monitor: Monitor = { resource: r, informer, stop: () => own.abort(), run: Promise.resolve() };
      const h = this.handler(r);
      const registration = informer.addEventHandler({
        onAdd: (o) => {
          const known = !!o.metadata?.uid && this.byUid.has(o.metadata.uid);
          this.track(monitor, o);
          h.onAdd?.(o, known);
        },
        onUpdate: (old, o) => { this.track(monitor, o); h.onUpdate?.(old, o); },
        onDelete: (d) => { const o = finalState(d); this.untrack(monitor, o); h.onDelete?.(d); },
      });
      if (shared) {
        monitor.stop = () => registration.remove();
        this.informers.start(signal);
      } else {
        monitor.run = informer.run(AbortSignal.any([signal, own.signal]));
      }
      this.monitors.set(key, monitor);
      added.push(r);
    }
    // A group whose discovery failed keeps its monitors; a resource that is really gone loses its own.
    for (const [key, m] of this.monitors) {
      if (keys.has(key) || failed.has(m.resource.group ? `${m.resource.group}/${m.resource.version}` : m.resource.version)) continue;
      m.stop();
      this.monitors.delete(key);
    }
    return added;
  }

  async waitForSync(signal: AbortSignal): Promise<boolean> {
    return (await Promise.all([...this.monitors.values()].map((m) => m.informer.waitForSync(signal)))).every(Boolean);
  }

  async shutdown(): Promise<void> {
    for (const m of this.monitors.values()) m.stop();
    await Promise.allSettled([...this.monitors.values()].map((m) => m.run));
  }

  private track(m: Monitor, o: KubeObject): void {
    const uid = o.metadata?.uid;
    if (uid) this.byUid.set(uid, { monitor: m, key: keyOf(o) });
  }

  private untrack(m: Monitor, o: KubeObject): void {
    const uid = o.metadata?.uid;
    if (uid && this.byUid.get(uid)?.monitor === m) this.byUid.delete(uid);
  }

  /** The cached object with this uid, and its resource. */
  get(uid: string): Located | undefined {
    const at = this.byUid.get(uid);
    const obj = at?.monitor.informer.indexer.getByKey(at.key);
    return obj && obj.metadata?.uid === uid ? { obj, resource: at!.monitor.resource } : undefined;
  }

  /** Every cached object the collector tracks. */
  *all(): Iterable<Located> {
    for (const uid of this.byUid.keys()) {
      const item = this.get(uid);
      if (item) yield item;
    }
  }

  /** Every cached object with an owner reference to this uid. */
  dependentsOf(uid: string): Located[] {
    const out: Located[] = [];
    for (const m of this.monitors.values()) {
      for (const obj of m.informer.indexer.byIndex(OWNER_UID_INDEX, uid)) out.push({ obj, resource: m.resource });
    }
    return out;
  }

  /** The resource of an owner reference's kind (in whichever version discovery prefers). */
  resourceFor(apiVersion: string | undefined, kind: string | undefined): DiscoveredResource | undefined {
    return this.kinds.get(groupKind(apiVersion, kind));
  }
}

const BUILTIN = new Set(Object.values(Resources).map((r) => `${r.group}/${r.version}/${r.resource}`));
/** A kind the controllers' shared factory can watch typed (upstream: every built-in one). */
const isBuiltin = (r: DiscoveredResource): boolean => BUILTIN.has(`${r.group}/${r.version}/${r.resource}`);

const keyOf = (o: KubeObject): string => (o.metadata?.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata!.name!);
