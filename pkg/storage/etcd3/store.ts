// The etcd3 Store backend (--storage-backend=etcd3 --etcd-servers=...): etcd holds the objects and decides
// revisions; reads go to etcd, writes are compare-and-swap transactions as upstream's etcd3 store does them.
// One watch over etcd's whole keyspace (Follower) feeds the kept event log and every watcher in revision order;
// a write is acknowledged once that watch has shown it, so a watcher or watch cache has every acknowledged write.
import { handleWhen, noop, retry } from 'cockatiel';
import { Etcd3, type IEvent, type IKeyValue, type IOptions, type IRequestOp, type ITxnResponse, isRecoverableError } from 'etcd3';
import type { Logger } from 'pino';
import type { KubeObject } from '../../../api/types.js';
import { EventLog } from '../core/event-log.js';
import { type CompactionOptions, DEFAULT_COMPACTION } from '../core/journal.js';
import { type ReplaySource, WatchHub } from '../core/watch-hub.js';
import { isStorageError, StorageError } from '../errors.js';
import type { KeyValue, ListResult, Store, StoreEvent, Watcher, WatchOptions } from '../interface.js';
import { stampKeyValue } from '../keyvalue.js';
import { decodeValue, encodeValue, type KeySpace, keySpace } from './codec.js';
import { Follower } from './follower.js';

export interface EtcdStoreOptions {
  /** --etcd-servers: http(s)://host:port, tried in turn. */
  servers: string[];
  /** --etcd-prefix: where objects live in etcd (default /registry). */
  prefix?: string;
  /** --etcd-cafile, --etcd-certfile, --etcd-keyfile contents, for https endpoints. */
  tls?: { ca: Buffer; cert?: Buffer; key?: Buffer };
  compaction?: CompactionOptions;
  logger: Logger;
}

/** Keys per range request: a list of many objects is read in pages at one revision (gRPC caps a message at 4 MiB). */
const LIST_PAGE = 500;
/** A unary etcd call that takes longer fails: the apiserver answers 503 rather than hang. */
const CALL_TIMEOUT_MS = 30_000;
const HEALTH_TIMEOUT_MS = 2_000;
/**
 * Reads that fail on a connection are tried again (on another endpoint when there are several); writes are not: a
 * transaction etcd applied before the connection broke would be applied twice (a create answering AlreadyExists).
 */
const readRetry = retry(handleWhen(isRecoverableError), { maxAttempts: 2 });

interface SeenWaiter {
  revision: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

export async function openEtcdStore(opts: EtcdStoreOptions): Promise<Store> {
  const options: IOptions = {
    hosts: opts.servers,
    dialTimeout: 5_000,
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + CALL_TIMEOUT_MS }),
    faultHandling: { global: noop },
  };
  if (opts.tls) options.credentials = { rootCertificate: opts.tls.ca, privateKey: opts.tls.key, certChain: opts.tls.cert };
  const client = new Etcd3(options);
  try {
    const store = new EtcdStore(client, keySpace(opts.prefix ?? '/registry'), opts.compaction ?? DEFAULT_COMPACTION, opts.logger);
    await store.open();
    return store;
  } catch (err) {
    client.close();
    throw new Error(`cannot use etcd at ${opts.servers.join(',')}: ${(err as Error).message}`);
  }
}

class EtcdStore implements Store {
  /** Events of our keys after `compacted`, in order: what a watch from an older revision replays. */
  private readonly log = new EventLog();
  private readonly hub = new WatchHub();
  private readonly replaySource: ReplaySource;
  /** Every event up to this revision has been handled (logged and dispatched). */
  private seen = 0;
  /** The newest revision any etcd response has shown. */
  private newest = 0;
  private compacted = 0;
  private follower: Follower | undefined;
  private waiters: SeenWaiter[] = [];
  private compactor: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly client: Etcd3,
    private readonly keys: KeySpace,
    private readonly compaction: CompactionOptions,
    private readonly logger: Logger,
  ) {
    this.replaySource = { log: this.log, compacted: () => this.compacted, revision: () => this.seen };
  }

  /**
   * Follows etcd from its current revision. Events from before are not replayed (a watch from an older revision is
   * told Compacted): the watch caches start from a fresh list, and upstream's cacher answers such a watch 410 too.
   */
  async open(): Promise<void> {
    await this.read('', () => this.client.kv.range({ key: this.keys.toEtcd('/registry/'), count_only: true }));
    const current = this.newest;
    this.compacted = this.seen = current;
    this.follower = new Follower(this.client, this.seen, {
      onEvents: (events, revision) => this.apply(events, revision),
      onGap: (compactRevision) => this.gap(compactRevision),
    }, this.logger);
    this.follower.start();
    this.compactor = setInterval(() => this.autoCompact(), this.compaction.intervalMs);
    this.compactor.unref();
  }

  async get(key: string): Promise<KeyValue | undefined> {
    const res = await this.read(key, () => this.client.kv.range({ key: this.keys.toEtcd(key) }));
    return res.kvs.length > 0 ? this.decode(key, res.kvs[0]) : undefined;
  }

  async list(prefix: string): Promise<ListResult> {
    const { key, range_end } = this.keys.range(prefix);
    for (;;) {
      try {
        return await this.listAt(prefix, key, range_end);
      } catch (err) {
        // Compacted between two pages: read it all again at a newer revision.
        if (!/compacted/.test((err as Error).message)) throw err;
      }
    }
  }

  async create(key: string, object: KubeObject): Promise<KeyValue> {
    const ek = this.keys.toEtcd(key);
    const res = await this.txn(key, { compare: [{ key: ek, target: 'Create', result: 'Equal', create_revision: 0 }], success: [{ request_put: { key: ek, value: encodeValue(object) } }] });
    if (!res.succeeded) throw new StorageError('KeyExists', key, `key ${key} already exists`, Number(res.header.revision));
    return this.written(key, res);
  }

  async guaranteedUpdate(
    key: string,
    tryUpdate: (current: KeyValue | undefined) => KubeObject | Promise<KubeObject>,
    opts: { ignoreNotFound?: boolean; expectedRevision?: number } = {},
  ): Promise<KeyValue> {
    const ek = this.keys.toEtcd(key);
    let current = await this.get(key);
    for (;;) {
      if (!current && !opts.ignoreNotFound) throw this.notFound(key);
      if (current && opts.expectedRevision !== undefined && current.modRevision !== opts.expectedRevision) {
        throw this.conflict(key, opts.expectedRevision, current.modRevision);
      }
      const next = await tryUpdate(current);
      if (current && next === current.object) {
        await this.untilSeen(current.modRevision);
        return current;
      }
      const res = await this.txn(key, {
        compare: [current
          ? { key: ek, target: 'Mod', result: 'Equal', mod_revision: current.modRevision }
          : { key: ek, target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key: ek, value: encodeValue(next) } }],
        failure: [{ request_range: { key: ek } }],
      });
      if (res.succeeded) return this.written(key, res);
      // Another write landed first: try again on the state that refused this one.
      current = this.currentOf(key, res);
    }
  }

  async delete(key: string, opts: { expectedRevision?: number; precondition?: (current: KeyValue) => void } = {}): Promise<KeyValue> {
    const ek = this.keys.toEtcd(key);
    let current = await this.get(key);
    for (;;) {
      if (!current) throw this.notFound(key);
      if (opts.expectedRevision !== undefined && current.modRevision !== opts.expectedRevision) {
        throw this.conflict(key, opts.expectedRevision, current.modRevision);
      }
      opts.precondition?.(current);
      const res = await this.txn(key, {
        compare: [{ key: ek, target: 'Mod', result: 'Equal', mod_revision: current.modRevision }],
        success: [{ request_delete_range: { key: ek } }],
        failure: [{ request_range: { key: ek } }],
      });
      if (res.succeeded) return this.written(key, res);
      current = this.currentOf(key, res);
    }
  }

  watch(prefix: string, opts: WatchOptions, watcher: Watcher): void {
    if (this.closed) throw new StorageError('Unavailable', prefix, 'store is closed');
    if (opts.fromRevision > 0 && opts.fromRevision < this.compacted) {
      throw new StorageError('Compacted', prefix, `revision ${opts.fromRevision} has been compacted (oldest kept: ${this.compacted})`, this.compacted);
    }
    this.hub.subscribe(prefix, opts.fromRevision > 0 ? opts.fromRevision : this.seen, opts.signal, watcher, this.replaySource);
  }

  revision(): number {
    return Math.max(this.seen, this.newest);
  }

  compactedRevision(): number {
    return this.compacted;
  }

  async compact(revision: number): Promise<void> {
    const target = Math.min(revision, this.seen);
    if (target <= this.compacted) return;
    this.compacted = target;
    this.log.compact(target);
    // etcd keeps the revisions from its compaction point on; ours are the ones after `target`.
    const etcdRevision = target < this.revision() ? target + 1 : target;
    try {
      await this.call('', () => this.client.kv.compact({ revision: etcdRevision }));
    } catch (err) {
      if (!/compacted/.test((err as Error).message)) throw err;
    }
  }

  /** Upstream's etcd check: a read answered within 2 s. */
  async healthy(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.client.kv.range({ key: Buffer.from('health') }, { deadline: Date.now() + HEALTH_TIMEOUT_MS });
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.compactor);
    this.follower?.stop();
    const err = new StorageError('Unavailable', '', 'store is closed');
    for (const w of this.waiters) w.reject(err);
    this.waiters = [];
    this.hub.closeAll();
    this.client.close();
  }

  private async listAt(prefix: string, key: Buffer, rangeEnd: Buffer): Promise<ListResult> {
    const items: KeyValue[] = [];
    let revision = 0;
    let from = key;
    for (;;) {
      const res = await this.read(prefix, () => this.client.kv.range({ key: from, range_end: rangeEnd, limit: LIST_PAGE, revision }));
      if (revision === 0) revision = Number(res.header.revision);
      for (const x of res.kvs) {
        const k = this.keys.fromEtcd(x.key);
        if (k !== undefined) items.push(this.decode(k, x));
      }
      if (!res.more || res.kvs.length === 0) return { items, revision };
      from = Buffer.concat([res.kvs[res.kvs.length - 1].key, Buffer.from([0])]);
    }
  }

  /** Events of one watch response become the log's and the watchers', then writes up to `revision` resolve. */
  private apply(events: IEvent[], revision: number): void {
    for (const e of events) {
      const ev = this.eventOf(e);
      if (!ev) continue;
      this.log.push(ev);
      this.hub.dispatch(ev);
    }
    this.seen = revision;
    this.newest = Math.max(this.newest, revision);
    this.hub.progress(revision);
    if (this.seen - this.compacted > 2 * this.compaction.keepRevisions) this.autoCompact();
    if (this.waiters.length > 0) {
      const waiting: SeenWaiter[] = [];
      for (const w of this.waiters) {
        if (w.revision <= revision) w.resolve();
        else waiting.push(w);
      }
      this.waiters = waiting;
    }
  }

  private eventOf(e: IEvent): StoreEvent | undefined {
    const key = this.keys.fromEtcd(e.kv.key);
    if (key === undefined) return undefined;
    const revision = Number(e.kv.mod_revision);
    const prev = e.prev_kv ? this.decode(key, e.prev_kv) : undefined;
    if (e.type === 'Put') {
      const kv = this.decode(key, e.kv);
      const type = Number(e.kv.version) === 1 ? 'ADDED' : 'MODIFIED';
      return prev && type === 'MODIFIED' ? { type, key, revision, kv, prev } : { type, key, revision, kv };
    }
    // A delete's object is the last state, stamped with the delete's revision; without it nothing can be told.
    if (!prev) {
      this.logger.warn({ key, revision }, 'etcd delete event without the previous value; watchers miss it');
      return undefined;
    }
    return { type: 'DELETED', key, revision, kv: stampKeyValue(key, prev.object, revision, prev.createRevision), prev };
  }

  /** etcd compacted what the follower had not read yet: watchers have missed events and must start over. */
  private gap(compactRevision: number): void {
    const kept = compactRevision - 1;
    if (kept > this.compacted) {
      this.compacted = kept;
      this.log.compact(kept);
    }
    this.seen = Math.max(this.seen, kept);
    this.hub.closeAll(new StorageError('Compacted', '', `etcd compacted revisions before ${compactRevision} before they were read`, kept));
  }

  /** The result of a successful write: the event the follower built for it (so watchers and callers share it). */
  private async written(key: string, res: ITxnResponse): Promise<KeyValue> {
    const revision = Number(res.header.revision);
    await this.untilSeen(revision);
    for (const ev of this.log.since(revision - 1)) {
      if (ev.revision !== revision) break;
      if (ev.key === key) return ev.kv;
    }
    // Already compacted out of the log (a very busy store): read what the write left.
    const now = await this.get(key);
    if (now && now.modRevision === revision) return now;
    throw new StorageError('Conflict', key, `the write of ${key} at revision ${revision} was overwritten before it could be read back`, this.revision());
  }

  private currentOf(key: string, res: ITxnResponse): KeyValue | undefined {
    const x = res.responses[0]?.response_range?.kvs[0];
    return x ? this.decode(key, x) : undefined;
  }

  private decode(key: string, x: IKeyValue): KeyValue {
    return decodeValue(key, x.value, Number(x.mod_revision), Number(x.create_revision));
  }

  private untilSeen(revision: number): Promise<void> {
    if (revision <= this.seen) return Promise.resolve();
    if (this.closed) return Promise.reject(new StorageError('Unavailable', '', 'store is closed'));
    return new Promise((resolve, reject) => this.waiters.push({ revision, resolve, reject }));
  }

  private txn(key: string, req: { compare: NonNullable<Parameters<Etcd3['kv']['txn']>[0]['compare']>; success: IRequestOp[]; failure?: IRequestOp[] }): Promise<ITxnResponse> {
    return this.call(key, () => this.client.kv.txn(req));
  }

  private read<T extends { header: { revision: string } }>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.call(key, () => readRetry.execute(fn));
  }

  /** An etcd call; a failure to reach etcd is the store being unavailable (503), not a server error. */
  private async call<T extends { header: { revision: string } }>(key: string, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StorageError('Unavailable', key, 'store is closed');
    let res: T;
    try {
      res = await fn();
    } catch (err) {
      if (isStorageError(err) || /compacted/.test((err as Error).message)) throw err;
      throw new StorageError('Unavailable', key, `etcd is unavailable: ${(err as Error).message}`);
    }
    const revision = Number(res.header.revision);
    if (revision > this.newest) this.newest = revision;
    return res;
  }

  private notFound(key: string): StorageError {
    return new StorageError('KeyNotFound', key, `key ${key} not found`, this.revision());
  }

  private conflict(key: string, expected: number, actual: number): StorageError {
    return new StorageError('Conflict', key, `revision mismatch for ${key}: expected ${expected}, current ${actual}`, this.revision());
  }

  private autoCompact(): void {
    const target = this.seen - this.compaction.keepRevisions;
    if (target > this.compacted) this.compact(target).catch((err: Error) => this.logger.warn({ err: err.message }, 'etcd compaction failed; retried at the next interval'));
  }
}
