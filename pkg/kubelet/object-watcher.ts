// Upstream's watch-based ConfigMap/Secret managers (pkg/kubelet/util/manager/watch_based_manager.go): one
// single-object watch (fieldSelector metadata.name, which the Node authorizer allows for objects its pods use) per
// ConfigMap or Secret referenced by a pod's volumes, kept while some pod refers to it. Reads hit the cache once the
// watch has synced; a change calls onChange so the kubelet re-syncs the pods that use the object.
import type { Logger } from 'pino';
import { Resources, SharedIndexInformer, type Client, type KubeObject } from '../client/index.js';
import type { Volume } from './volumes.js';
import type { VolumeObjectGetter, VolumeObjectKind } from './volumes/host-volumes.js';

type Kind = 'configmaps' | 'secrets';
interface Watched { informer: SharedIndexInformer; stop: AbortController; users: Set<string> }

const keyOf = (kind: Kind, ns: string, name: string): string => `${kind}/${ns}/${name}`;

/** The ConfigMaps and Secrets the pod's volumes project. */
export const volumeReferences = (pod: KubeObject): { kind: Kind; name: string }[] => {
  const refs: { kind: Kind; name: string }[] = [];
  for (const v of (pod.spec?.volumes ?? []) as Volume[]) {
    if (v.configMap) refs.push({ kind: 'configmaps', name: v.configMap.name });
    if (v.secret) refs.push({ kind: 'secrets', name: v.secret.secretName });
    for (const s of v.projected?.sources ?? []) {
      if (s.configMap) refs.push({ kind: 'configmaps', name: s.configMap.name });
      if (s.secret) refs.push({ kind: 'secrets', name: s.secret.name });
    }
  }
  return refs;
};

export class ObjectWatcher {
  private readonly watched = new Map<string, Watched>();
  private readonly byPod = new Map<string, Set<string>>();

  constructor(private readonly o: { client: Client; logger: Logger; onChange: (users: string[]) => void }) {}

  /** Watches what the pod (by uid) refers to now, and stops watching what no pod refers to any more. */
  track(uid: string, pod: KubeObject): void {
    const ns = pod.metadata!.namespace!;
    const keys = new Set(volumeReferences(pod).map((r) => keyOf(r.kind, ns, r.name)));
    for (const r of volumeReferences(pod)) this.watch(r.kind, ns, r.name).users.add(uid);
    for (const old of this.byPod.get(uid) ?? []) if (!keys.has(old)) this.release(old, uid);
    if (keys.size) this.byPod.set(uid, keys); else this.byPod.delete(uid);
  }

  forget(uid: string): void {
    for (const k of this.byPod.get(uid) ?? []) this.release(k, uid);
    this.byPod.delete(uid);
  }

  /** A getter that answers ConfigMaps and Secrets from synced watches, everything else from the API. */
  getter(fallback: VolumeObjectGetter): VolumeObjectGetter {
    return async (kind: VolumeObjectKind, ns: string, name: string) => {
      const w = kind === 'configmaps' || kind === 'secrets' ? this.watched.get(keyOf(kind, ns, name)) : undefined;
      if (w?.informer.hasSynced()) return w.informer.indexer.getByKey(`${ns}/${name}`);
      return fallback(kind, ns, name);
    };
  }

  close(): void {
    for (const w of this.watched.values()) w.stop.abort();
    this.watched.clear();
    this.byPod.clear();
  }

  private watch(kind: Kind, ns: string, name: string): Watched {
    const key = keyOf(kind, ns, name);
    let w = this.watched.get(key);
    if (w) return w;
    const api = this.o.client.resource(kind === 'configmaps' ? Resources.configMaps : Resources.secrets, ns);
    const fieldSelector = `metadata.name=${name}`;
    const informer = new SharedIndexInformer({
      list: (lo) => api.list({ ...lo, fieldSelector }),
      watch: (wo) => api.watch({ ...wo, fieldSelector }),
    }, { name: key, logger: this.o.logger });
    const users = new Set<string>();
    const changed = (): void => this.o.onChange([...users]);
    informer.addEventHandler({ onAdd: (_o, initial) => { if (!initial) changed(); }, onUpdate: changed, onDelete: changed });
    w = { informer, stop: new AbortController(), users };
    this.watched.set(key, w);
    informer.run(w.stop.signal).catch((err: unknown) => this.o.logger.warn({ err, object: key }, 'object watch ended'));
    return w;
  }

  private release(key: string, uid: string): void {
    const w = this.watched.get(key);
    if (!w) return;
    w.users.delete(uid);
    if (w.users.size) return;
    w.stop.abort();
    this.watched.delete(key);
  }
}
