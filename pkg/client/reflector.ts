// The reflector keeps a store in step with the apiserver, as client-go's cache.Reflector: list (paged), replace the
// store, then watch from the list's resourceVersion with bookmarks. A watch that ends (the server's timeout) or
// breaks resumes from the last resourceVersion seen, so nothing is missed; 410 Expired means that version is gone:
// re-list. With `useWatchList` the list is a watch with sendInitialEvents=true whose initial events end at a
// bookmark annotated k8s.io/initial-events-end (falling back to list+watch if the server refuses it).
import type { Logger } from 'pino';
import type { KubeObject } from '../../api/types.js';
import { Backoff } from './backoff.js';
import { realClock, type Clock } from './clock.js';
import { isAbortError, isResourceExpired, StatusError } from './errors.js';
import type { KubeList, ListOptions, WatchOptions } from './resource.js';
import { metaNamespaceKeyFunc } from './store.js';
import { INITIAL_EVENTS_END_ANNOTATION, watchError, type Watch } from './watch.js';

export interface ListerWatcher<T extends KubeObject = KubeObject> {
  list(o: ListOptions): Promise<KubeList<T>>;
  watch(o: WatchOptions): Promise<Watch<T>>;
}

/** What the reflector feeds: a whole state, then changes. */
export interface ReflectorStore<T extends KubeObject = KubeObject> {
  replace(items: T[], resourceVersion: string): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
}

export interface ReflectorOptions {
  /** For logs: usually the resource ("pods"). */
  name?: string;
  clock?: Clock;
  /** Items per list page (default 500; 0: no paging). */
  pageSize?: number;
  /** List through a watch with sendInitialEvents (WatchList). */
  useWatchList?: boolean;
  /** The server-side timeout of each watch is this to twice this, at random (default 300 s, as upstream). */
  minWatchTimeoutSeconds?: number;
  /** Backoff between failed attempts (default 800 ms doubling to 30 s, reset after 2 min of quiet). */
  backoff?: { initialMs: number; maxMs: number };
  logger?: Logger;
  /** Called with every error the reflector recovers from (watch breaks, failed lists). */
  onError?: (err: unknown) => void;
  random?: () => number;
}

class Relist extends Error {}

export class Reflector<T extends KubeObject = KubeObject> {
  private lastRV = '';
  private watchListUnsupported = false;
  private readonly clock: Clock;
  private readonly backoff: Backoff;
  private readonly random: () => number;

  constructor(private readonly lw: ListerWatcher<T>, private readonly store: ReflectorStore<T>, private readonly o: ReflectorOptions = {}) {
    this.clock = o.clock ?? realClock;
    this.random = o.random ?? Math.random;
    const b = o.backoff ?? { initialMs: 800, maxMs: 30_000 };
    this.backoff = new Backoff({ ...b, factor: 2, jitter: 1, resetAfterMs: 120_000, random: this.random }, this.clock);
  }

  /** The resourceVersion of the last list, event or bookmark applied. */
  lastSyncResourceVersion(): string { return this.lastRV; }

  /** Lists and watches until the signal aborts; never rejects for server or network errors (it retries). */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        if (this.o.useWatchList && !this.watchListUnsupported) await this.watchList(signal);
        else await this.listAndWatch(signal);
      } catch (e) {
        if (signal.aborted) break;
        if (!(e instanceof Relist)) this.report(e, 'list and watch failed');
      }
      if (signal.aborted) break;
      try {
        await this.clock.sleep(this.backoff.step(), signal);
      } catch { break; }
    }
  }

  private report(err: unknown, msg: string): void {
    this.o.onError?.(err);
    this.o.logger?.warn({ err, resource: this.o.name }, msg);
  }

  private async list(signal: AbortSignal): Promise<{ items: T[]; resourceVersion: string }> {
    const limit = this.o.pageSize ?? 500;
    const items: T[] = [];
    let cont: string | undefined;
    let rv = '';
    do {
      const page = await this.lw.list({ limit: limit || undefined, continue: cont, signal });
      if (!cont) rv = page.metadata.resourceVersion ?? '';
      items.push(...page.items);
      cont = page.metadata.continue;
    } while (cont);
    return { items, resourceVersion: rv };
  }

  private async listAndWatch(signal: AbortSignal): Promise<void> {
    const { items, resourceVersion } = await this.list(signal);
    this.store.replace(items, resourceVersion);
    this.lastRV = resourceVersion;
    await this.watchLoop(signal);
  }

  private async watchList(signal: AbortSignal): Promise<void> {
    let w: Watch<T>;
    try {
      w = await this.lw.watch({
        sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', resourceVersion: this.lastRV || undefined,
        allowWatchBookmarks: true, timeoutSeconds: this.watchTimeout(), signal,
      });
    } catch (e) {
      if (e instanceof StatusError && !isResourceExpired(e) && e.code >= 400 && e.code < 500 && e.code !== 429) {
        this.watchListUnsupported = true; // an older or stricter server: plain list+watch from now on
        this.report(e, 'watch-list refused; falling back to list and watch');
        throw new Relist();
      }
      if (isResourceExpired(e)) { this.lastRV = ''; throw new Relist(); }
      throw e;
    }
    const initial = new Map<string, T>();
    let synced = false;
    try {
      for await (const ev of w) {
        if (synced) { this.apply(ev); continue; }
        if (ev.type === 'ERROR') {
          const err = watchError(ev.object);
          if (isResourceExpired(err)) { this.lastRV = ''; throw new Relist(); }
          throw err;
        }
        if (ev.type === 'BOOKMARK') {
          if (ev.object.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true') {
            const rv = ev.object.metadata?.resourceVersion ?? '';
            this.store.replace([...initial.values()], rv);
            this.lastRV = rv;
            synced = true;
            this.backoff.reset();
          }
          continue;
        }
        const key = metaNamespaceKeyFunc(ev.object);
        if (ev.type === 'DELETED') initial.delete(key);
        else initial.set(key, ev.object);
      }
    } finally {
      w.stop();
    }
    if (!synced) throw new Error('watch-list ended before its initial events did');
    await this.watchLoop(signal);
  }

  /** Watches from lastRV, again and again, until the signal aborts or a re-list is needed. */
  private async watchLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let w: Watch<T>;
      try {
        w = await this.lw.watch({ resourceVersion: this.lastRV, allowWatchBookmarks: true, timeoutSeconds: this.watchTimeout(), signal });
      } catch (e) {
        if (signal.aborted) return;
        if (isResourceExpired(e)) throw new Relist();
        if (e instanceof StatusError) throw e; // a refusal: back off and re-list
        this.report(e, 'watch failed to start; retrying from the last resourceVersion');
        await this.clock.sleep(this.backoff.step(), signal).catch(() => undefined);
        continue;
      }
      const started = this.clock.now();
      let events = 0;
      try {
        for await (const ev of w) { events++; this.apply(ev); }
        if (events === 0 && this.clock.now() - started < 1000) {
          // the server ends watches at once (overloaded, or refusing quietly): do not spin
          this.report(new Error('very short watch: the server closed it at once without events'), 'very short watch');
          await this.clock.sleep(this.backoff.step(), signal).catch(() => undefined);
        } else {
          this.backoff.reset();
        }
      } catch (e) {
        if (signal.aborted || isAbortError(e)) return;
        if (e instanceof Relist) throw e;
        if (e instanceof StatusError) {
          if (isResourceExpired(e)) throw new Relist();
          throw e;
        }
        // the connection broke mid-stream: resume from the last resourceVersion after a pause
        this.report(e, 'watch broke; resuming from the last resourceVersion');
        await this.clock.sleep(this.backoff.step(), signal).catch(() => undefined);
      } finally {
        w.stop();
      }
    }
  }

  private apply(ev: { type: string; object: any }): void {
    switch (ev.type) {
      case 'ERROR': {
        const err = watchError(ev.object);
        if (isResourceExpired(err)) { this.lastRV = ''; throw new Relist(); }
        throw err;
      }
      case 'ADDED': this.store.add(ev.object as T); break;
      case 'MODIFIED': this.store.update(ev.object as T); break;
      case 'DELETED': this.store.delete(ev.object as T); break;
      case 'BOOKMARK': break;
      default: return;
    }
    const rv = (ev.object as KubeObject).metadata?.resourceVersion;
    if (rv) this.lastRV = rv;
  }

  private watchTimeout(): number {
    const min = this.o.minWatchTimeoutSeconds ?? 300;
    return Math.max(1, Math.floor(min * (1 + this.random())));
  }
}
