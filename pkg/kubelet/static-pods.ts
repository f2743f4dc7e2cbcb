// Static pods (upstream pkg/kubelet/config/file.go, pod/mirror_client.go): every file in --pod-manifest-path holds one
// Pod (YAML or JSON) that this kubelet runs without the apiserver. Such a pod is named <name>-<node>, has a uid hashed
// from its content, the node and the file (also its kubernetes.io/config.hash), tolerates every NoExecute taint, and
// is mirrored in the API by a mirror pod (annotation kubernetes.io/config.mirror = the hash, owned by the Node) that
// carries its status. A deleted or outdated mirror pod is deleted (grace 0) and made again; a removed file stops
// the pod and deletes its mirror. The directory is watched, and re-read every file-check period anyway.
import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { parseYaml } from '../apimachinery/yaml.js';
import { formatTime, isAlreadyExists, isConflict, isNotFound, WorkQueue, type Client, type Clock, type KubeObject } from '../client/index.js';
import { MIRROR_POD_ANNOTATION } from '../../api/core/v1/annotations.js';

const HASH_ANNOTATION = 'kubernetes.io/config.hash';
const SOURCE_ANNOTATION = 'kubernetes.io/config.source';
const SEEN_ANNOTATION = 'kubernetes.io/config.seen';

export const isMirrorPod = (pod: KubeObject): boolean => pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;

const keyOf = (pod: KubeObject): string => `${pod.metadata!.namespace}/${pod.metadata!.name}`;

const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) =>
  (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

/** The static pod a manifest describes on this node (upstream's applyDefaults), or why it cannot be one. */
export const staticPodFrom = (text: string, file: string, nodeName: string, now: number): KubeObject | string => {
  let pod: KubeObject;
  try { pod = parseYaml(text) as KubeObject; } catch (e) { return `invalid YAML or JSON: ${(e as Error).message}`; }
  if (!pod || typeof pod !== 'object' || pod.kind !== 'Pod' || pod.apiVersion !== 'v1') return 'not a v1 Pod';
  if (!pod.metadata?.name) return 'metadata.name: Required value';
  if (!Array.isArray(pod.spec?.containers) || !pod.spec.containers.length) return 'spec.containers: Required value';
  const hash = createHash('md5').update(canonical(pod)).update(`host:${nodeName}`).update(`file:${file}`).digest('hex');
  const { status: _status, ...rest } = pod;
  return {
    ...rest,
    metadata: {
      ...pod.metadata, name: `${pod.metadata.name}-${nodeName.toLowerCase()}`, namespace: pod.metadata.namespace || 'default', uid: hash,
      annotations: { ...pod.metadata.annotations, [HASH_ANNOTATION]: hash, [SOURCE_ANNOTATION]: 'file', [SEEN_ANNOTATION]: formatTime(now) },
    },
    spec: { ...pod.spec, nodeName, tolerations: [...(pod.spec.tolerations ?? []), { operator: 'Exists', effect: 'NoExecute' }] },
  };
};

export interface StaticPodSourceOptions {
  dir: string;
  nodeName: string;
  client: Client;
  logger: Logger;
  clock: Clock;
  /** Runs, updates or stops (gracefully) a static pod on this node. */
  add: (pod: KubeObject) => void;
  remove: (pod: KubeObject) => void;
  /** How often the directory is re-read besides watching it (upstream --file-check-frequency, 20 s). */
  checkMs?: number;
}

export class StaticPodSource {
  /** Static pods by namespace/name, with the file they came from. */
  private readonly pods = new Map<string, { pod: KubeObject; file: string }>();
  /** Mirror pods in the API by namespace/name, as the pod informer shows them (only it writes here, in order). */
  private readonly mirrors = new Map<string, KubeObject>();
  private readonly queue = new WorkQueue<string>();
  private nodeUid?: string;
  private scanning: Promise<void> = Promise.resolve();
  /** Manifests already reported as unusable (file and content), so each re-read does not report them again. */
  private readonly reported = new Set<string>();

  constructor(private readonly o: StaticPodSourceOptions) {}

  /** The mirror pod that stands for this static pod in the API (its status goes there), if there is one. */
  mirrorOf(pod: KubeObject): KubeObject | undefined {
    const m = this.mirrors.get(keyOf(pod));
    return m && !m.metadata?.deletionTimestamp && m.metadata?.annotations?.[MIRROR_POD_ANNOTATION] === pod.metadata?.uid ? m : undefined;
  }

  /** The static pod a mirror pod stands for. */
  staticOf(mirror: KubeObject): KubeObject | undefined { return this.pods.get(keyOf(mirror))?.pod; }

  mirrorChanged(pod: KubeObject): void { this.mirrors.set(keyOf(pod), pod); this.queue.add(keyOf(pod)); }

  mirrorRemoved(pod: KubeObject): void {
    if (this.mirrors.get(keyOf(pod))?.metadata?.uid === pod.metadata?.uid) this.mirrors.delete(keyOf(pod));
    this.queue.add(keyOf(pod));
  }

  /** Reads the directory, watches it and keeps the mirror pods right until the signal aborts. */
  async run(signal: AbortSignal, registered: Promise<void>): Promise<void> {
    await this.scan();
    let watcher: FSWatcher | undefined;
    let pending: ReturnType<typeof setTimeout> | undefined;
    try {
      watcher = watch(this.o.dir, () => { clearTimeout(pending); pending = setTimeout(() => void this.scan(), 100); });
      watcher.on('error', (err) => this.o.logger.warn({ err, dir: this.o.dir }, 'cannot watch the static pod directory'));
    } catch (err) {
      this.o.logger.warn({ err, dir: this.o.dir }, 'cannot watch the static pod directory; re-reading it periodically');
    }
    const stop = (): void => { clearTimeout(pending); watcher?.close(); this.queue.shutDown(); };
    signal.addEventListener('abort', stop, { once: true });
    void (async () => {
      while (!signal.aborted) {
        await this.o.clock.sleep(this.o.checkMs ?? 20_000, signal).catch(() => undefined);
        if (!signal.aborted) await this.scan();
      }
    })();
    await Promise.race([registered, new Promise((r) => signal.addEventListener('abort', r, { once: true }))]);
    for (;;) {
      const { item, shutdown } = await this.queue.get();
      if (shutdown) return;
      try {
        await this.syncMirror(item);
      } catch (err) {
        if (!signal.aborted) {
          this.o.logger.warn({ err, pod: item }, 'failed to sync the mirror pod, will retry');
          this.o.clock.setTimer(() => this.queue.add(item), 1_000);
        }
      } finally {
        this.queue.done(item);
      }
    }
  }

  /** Resolves once the reads asked for so far are done: the pods of the directory are known (upstream's source ready). */
  whenRead(): Promise<void> { return this.scanning; }

  /** One read of the directory at a time (the watch and the periodic check both ask). */
  private scan(): Promise<void> {
    this.scanning = this.scanning.then(() => this.read());
    return this.scanning;
  }

  private async read(): Promise<void> {
    const seen = new Map<string, { pod: KubeObject; file: string }>();
    let names: string[] = [];
    try {
      names = (await readdir(this.o.dir)).filter((n) => !n.startsWith('.')).sort();
    } catch (err) {
      this.o.logger.warn({ err, dir: this.o.dir }, 'cannot read the static pod directory');
      return;
    }
    for (const name of names) {
      const file = join(this.o.dir, name);
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const known = [...this.pods.values()].find((p) => p.file === file);
      const pod = staticPodFrom(text, file, this.o.nodeName, this.o.clock.now());
      if (typeof pod === 'string') {
        const key = `${file}\0${text}`;
        if (!this.reported.has(key)) this.o.logger.warn({ file, reason: pod }, 'skipping a static pod manifest');
        this.reported.add(key);
        continue;
      }
      // the same content keeps the pod it was (and its first-seen time)
      const same = known && known.pod.metadata?.uid === pod.metadata!.uid ? known.pod : pod;
      if (seen.has(keyOf(same))) { this.o.logger.warn({ file, pod: keyOf(same) }, 'a static pod of this name comes from another file; skipping'); continue; }
      seen.set(keyOf(same), { pod: same, file });
    }
    for (const [key, old] of this.pods) {
      const now = seen.get(key);
      if (now?.pod.metadata?.uid === old.pod.metadata?.uid) continue;
      this.o.logger.info({ pod: key, file: old.file }, now ? 'static pod changed' : 'static pod removed');
      this.pods.delete(key);
      this.o.remove(old.pod);
      this.queue.add(key);
    }
    for (const [key, p] of seen) {
      if (this.pods.get(key)?.pod.metadata?.uid === p.pod.metadata?.uid) continue;
      this.o.logger.info({ pod: key, file: p.file, uid: p.pod.metadata?.uid }, 'static pod added');
      this.pods.set(key, p);
      this.o.add(p.pod);
      this.queue.add(key);
    }
  }

  /** Makes the API's mirror pod match the static pod: none, or one with its hash that is not being deleted. */
  private async syncMirror(key: string): Promise<void> {
    const current = this.pods.get(key)?.pod;
    const mirror = this.mirrors.get(key);
    if (mirror && isMirrorPod(mirror) && (!current || mirror.metadata?.deletionTimestamp || mirror.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== current.metadata?.uid)) {
      this.o.logger.info({ pod: key }, current ? 'deleting an outdated or deleted mirror pod' : 'deleting the mirror pod of a removed static pod');
      try {
        await this.o.client.pods(mirror.metadata!.namespace).delete(mirror.metadata!.name!, { gracePeriodSeconds: 0, preconditions: { uid: mirror.metadata!.uid } });
      } catch (e) {
        if (!isNotFound(e) && !isConflict(e)) throw e;
      }
    } else if (mirror) {
      return;
    }
    if (!current) return;
    this.nodeUid ??= (await this.o.client.nodes().get(this.o.nodeName)).metadata?.uid;
    const { uid: _uid, resourceVersion: _rv, ...meta } = current.metadata!;
    try {
      await this.o.client.pods(meta.namespace).create({
        ...current,
        metadata: {
          ...meta, annotations: { ...meta.annotations, [MIRROR_POD_ANNOTATION]: current.metadata!.uid! },
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.o.nodeName, uid: this.nodeUid!, controller: true }],
        },
      });
      this.o.logger.info({ pod: key }, 'created mirror pod');
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      // one the pod informer has not shown yet (it keeps `mirrors`): look again once it has
      this.o.clock.setTimer(() => this.queue.add(key), 500);
    }
  }
}
