// Helpers the workload controllers share (upstream pkg/controller/controller_utils.go): expectations, slow-start
// batches, the template hash, owner references, conditions and the worker loop over a rate-limited queue.
import type { KubeObject, OwnerReference } from '../../../api/types.js';
import {
  RateLimitingQueue, finalState, formatTime, isAbortError, realClock, type Clock, type DeletedFinalStateUnknown, type ItemRateLimiter,
} from '../../client/index.js';
import type { ControllerContext } from './types.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';

/** How long expectations wait for a watch to confirm them before they count as satisfied (upstream: 5 min). */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;
/** Most pods one sync creates or deletes (upstream's burstReplicas). */
export const BURST_REPLICAS = 500;
/** The first batch of a slow start (upstream's SlowStartInitialBatchSize). */
export const SLOW_START_INITIAL_BATCH = 1;

interface Expectation { add: number; del: number; at: number; uids: Set<string> }

/**
 * Creations and deletions a controller has asked for and not yet seen through its informers. A sync that finds
 * them unsatisfied must not act again (a slow watch would otherwise double-create); they expire after 5 minutes.
 */
export class ControllerExpectations {
  private readonly m = new Map<string, Expectation>();
  constructor(private readonly clock: Clock = realClock) {}

  satisfied(key: string): boolean {
    const e = this.m.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.clock.now() - e.at > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(key: string, n: number): void { this.m.set(key, { add: n, del: 0, at: this.clock.now(), uids: new Set() }); }

  /** Deletions of these pods (by key or uid); each is lowered once when its deletion is observed. */
  expectDeletions(key: string, ids: string[]): void { this.m.set(key, { add: 0, del: ids.length, at: this.clock.now(), uids: new Set(ids) }); }

  creationObserved(key: string): void { const e = this.m.get(key); if (e) e.add--; }

  deletionObserved(key: string, id?: string): void {
    const e = this.m.get(key);
    if (!e) return;
    if (id !== undefined && e.uids.size > 0) {
      if (!e.uids.delete(id)) return;
    }
    e.del--;
  }

  lowerExpectations(key: string, add: number, del: number): void {
    const e = this.m.get(key);
    if (e) { e.add -= add; e.del -= del; }
  }

  delete(key: string): void { this.m.delete(key); }
}

/**
 * Runs fn `count` times in batches of 1, 2, 4, ... (upstream slowStartBatch): a batch that has a failure ends the
 * run, so a quota or webhook that refuses every pod costs one request, not hundreds. Returns the successes.
 */
export async function slowStartBatch(count: number, initialBatch: number, fn: () => Promise<void>): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatch); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += batch - failed.length;
    if (failed.length > 0) return { successes, error: failed[0]!.reason };
    remaining -= batch;
  }
  return { successes };
}

// ---- hashing (upstream controller.ComputeHash: fnv32a, then rand.SafeEncodeString) ----

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export const fnv32a = (s: string): number => {
  let h = 0x811c9dc5;
  const bytes = Buffer.from(s, 'utf8');
  for (const b of bytes) { h ^= b; h = Math.imul(h, 0x01000193) >>> 0; }
  return h >>> 0;
};

export const safeEncodeString = (s: string): string => [...s].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join('');

/** JSON with sorted keys, undefined dropped: one text per value whatever the key order. */
export const canonicalJson = (v: unknown): string => {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
};

/**
 * The pod-template-hash of a template (and the collision count, when set): FNV-32a, safe-encoded, as upstream.
 * Upstream hashes a go-spew `%#v` dump of the Go PodTemplateSpec struct (every field of every nested struct, zero
 * ones included, in Go declaration order with Go type names), so its value follows the Go struct layout of the
 * release and changes when a release adds a field; reproducing it would mean modelling that layout byte for byte.
 * Nothing depends on the value itself: Deployments find their ReplicaSets by comparing templates without the
 * label (as upstream's EqualIgnoreHash does), so ours is a hash of the template's canonical JSON instead.
 */
export const computeHash = (template: unknown, collisionCount?: number): string => {
  let text = canonicalJson(template);
  if (collisionCount != null) text += `#${collisionCount}`;
  return safeEncodeString(String(fnv32a(text)));
};

/** Equal as JSON (canonicalJson's equality, without building either text). */
export const deepEqual = (a: unknown, b: unknown): boolean => jsonEqual(a ?? null, b ?? null);

/**
 * A status as the API serializes it: the `omitempty` fields of its Go type left out at 0 or "" (a Python or
 * client-node reader sees them unset, as against a cluster). Controllers write and compare this form.
 */
export const withoutEmpty = <T extends object>(status: T, omitempty: readonly string[]): T => {
  const out = { ...status } as Record<string, unknown>;
  for (const f of omitempty) if (out[f] === 0 || out[f] === '' || out[f] === undefined) delete out[f];
  return out as T;
};

// ---- owner references ----

export const getControllerOf = (obj: KubeObject): OwnerReference | undefined =>
  obj.metadata?.ownerReferences?.find((r) => r.controller === true);

export const controllerRef = (owner: KubeObject, apiVersion: string, kind: string): OwnerReference => ({
  apiVersion, kind, name: owner.metadata!.name!, uid: owner.metadata!.uid!, controller: true, blockOwnerDeletion: true,
});

export const keyOf = (obj: KubeObject): string => (obj.metadata?.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata!.name!);

export const objOf = <T extends KubeObject>(o: T | DeletedFinalStateUnknown<T>): T => finalState(o);

// ---- conditions ----

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string;
}

export const getCondition = (conds: Condition[] | undefined, type: string): Condition | undefined => conds?.find((c) => c.type === type);

export const removeCondition = (conds: Condition[] | undefined, type: string): Condition[] => (conds ?? []).filter((c) => c.type !== type);

export const now = (clock: Clock | undefined): string => formatTime((clock ?? realClock).now());

export const parseTime = (t: string | undefined | null): number | undefined => (t ? Date.parse(t) : undefined);

// ---- running ----

export interface WorkerLoop {
  queue: RateLimitingQueue<string>;
  /** Queue the key of an object. */
  enqueue(obj: KubeObject): void;
  enqueueAfter(obj: KubeObject | string, ms: number): void;
  /** Syncs informers, then runs ctx.workers workers until ctx.signal aborts. */
  run(): Promise<void>;
}

/** Upstream's names of the controllers' work queues (the `name` label of the workqueue_* series). */
const UPSTREAM_QUEUE_NAMES: Record<string, string> = {
  'deployment-controller': 'deployment', 'replicaset-controller': 'replicaset', 'daemonset-controller': 'daemonset',
  'statefulset-controller': 'statefulset', 'job-controller': 'job', 'cronjob-controller': 'cronjob',
  'endpoints-controller': 'endpoint', 'endpointslice-controller': 'endpoint_slice', 'endpointslice-mirroring-controller': 'endpoint_slice_mirroring',
  'namespace-controller': 'namespace', 'serviceaccount-controller': 'serviceaccount', 'disruption-controller': 'disruption',
  'garbage-collector-controller': 'garbage_collector_attempt_to_delete', 'resourcequota-controller': 'resourcequota_primary',
  'clusterrole-aggregation-controller': 'ClusterRoleAggregator', 'ttl-after-finished-controller': 'ttl_jobs_to_delete',
  'horizontal-pod-autoscaler-controller': 'horizontalpodautoscaler', 'root-ca-certificate-publisher-controller': 'root_ca_cert_publisher',
  'persistentvolumeclaim-protection-controller': 'pvcprotection', 'persistentvolume-protection-controller': 'pvprotection',
  'bootstrap-signer-controller': 'bootstrap_signer_queue', 'token-cleaner-controller': 'token_cleaner',
};

/** A queue's metrics name: upstream's where there is one, else the loop's name without "-controller", in snake case. */
export const queueName = (loop: string): string =>
  UPSTREAM_QUEUE_NAMES[loop] ?? loop.replace(/-controller(?=\/|$)/, '').replace(/[-/]/g, '_');

/**
 * The standard controller body: a rate-limited queue of "namespace/name" keys, `workers` workers calling sync, a
 * failed sync retried with per-item backoff (client-go's default controller rate limiter unless `rateLimiter` is
 * given; up to maxRetries, then dropped as upstream), shutdown on abort.
 */
export function workerLoop(
  ctx: ControllerContext, name: string, sync: (key: string) => Promise<void>, maxRetries = 15,
  rateLimiter?: (clock: Clock) => ItemRateLimiter<string>,
): WorkerLoop {
  const clock = ctx.clock ?? realClock;
  const queue = new RateLimitingQueue<string>({ clock, name: queueName(name), rateLimiter: rateLimiter?.(clock) });
  const log = ctx.logger.child({ controller: name });
  const worker = async (): Promise<void> => {
    for (;;) {
      const { item, shutdown } = await queue.get();
      if (shutdown) return;
      try {
        await sync(item);
        queue.forget(item);
      } catch (err) {
        if (ctx.signal.aborted && isAbortError(err)) { /* stopping */ } else if (queue.numRequeues(item) < maxRetries) {
          log.debug({ err, key: item }, 'sync failed; requeued');
          queue.addRateLimited(item);
        } else {
          log.warn({ err, key: item }, 'dropping key out of the queue');
          queue.forget(item);
        }
      } finally {
        queue.done(item);
      }
    }
  };
  return {
    queue,
    enqueue: (obj) => queue.add(keyOf(obj)),
    enqueueAfter: (obj, ms) => queue.addAfter(typeof obj === 'string' ? obj : keyOf(obj), Math.max(0, ms)),
    async run() {
      ctx.informers.start(ctx.signal);
      if (!(await ctx.informers.waitForCacheSync(ctx.signal))) { queue.shutDown(); return; }
      if (ctx.signal.aborted) { queue.shutDown(); return; }
      ctx.signal.addEventListener('abort', () => queue.shutDown(), { once: true });
      log.info({ workers: ctx.workers }, 'controller started');
      await Promise.all(Array.from({ length: Math.max(1, ctx.workers) }, worker));
    },
  };
}

export const formatTimeOf = (clock: Clock | undefined): string => formatTime((clock ?? realClock).now());
