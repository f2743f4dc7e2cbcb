// A scripted ListerWatcher for unit tests of the reflector and informers: lists return what `state` holds;
// each watch() is a stream the test feeds with send(), ends with end(), or breaks with fail().
import type { KubeObject } from '../../../api/types.js';
import type { ListerWatcher } from '../reflector.js';
import type { KubeList, ListOptions, WatchOptions } from '../resource.js';
import type { Watch, WatchEvent } from '../watch.js';

export class FakeStream<T extends KubeObject> implements Watch<T> {
  private buffer: WatchEvent<T>[] = [];
  private wake?: () => void;
  private done = false;
  private error?: unknown;
  stopped = false;

  constructor(readonly options: WatchOptions) {}

  send(ev: WatchEvent<T>): void { this.buffer.push(ev); this.wake?.(); }
  end(): void { this.done = true; this.wake?.(); }
  fail(err: unknown): void { this.error = err; this.wake?.(); }
  stop(): void { this.stopped = true; this.done = true; this.wake?.(); }

  async *[Symbol.asyncIterator](): AsyncGenerator<WatchEvent<T>> {
    for (;;) {
      if (this.buffer.length) { yield this.buffer.shift()!; continue; }
      if (this.error) throw this.error;
      if (this.done) return;
      await new Promise<void>((r) => { this.wake = r; });
      this.wake = undefined;
    }
  }
}

export class FakeListerWatcher<T extends KubeObject = KubeObject> implements ListerWatcher<T> {
  lists: ListOptions[] = [];
  watches: FakeStream<T>[] = [];
  items: T[] = [];
  resourceVersion = '1';
  /** Errors the next list()/watch() calls throw, in order. */
  listErrors: unknown[] = [];
  watchErrors: unknown[] = [];
  pageSize = 0;

  async list(o: ListOptions): Promise<KubeList<T>> {
    this.lists.push(o);
    if (this.listErrors.length) throw this.listErrors.shift();
    if (this.pageSize > 0 && o.limit) {
      const start = o.continue ? Number(o.continue) : 0;
      const end = start + Math.min(o.limit, this.pageSize);
      return { metadata: { resourceVersion: this.resourceVersion, ...(end < this.items.length ? { continue: String(end) } : {}) }, items: this.items.slice(start, end) };
    }
    return { metadata: { resourceVersion: this.resourceVersion }, items: [...this.items] };
  }

  async watch(o: WatchOptions): Promise<Watch<T>> {
    if (this.watchErrors.length) throw this.watchErrors.shift();
    const s = new FakeStream<T>(o);
    this.watches.push(s);
    return s;
  }

  /** The newest watch. */
  get current(): FakeStream<T> { return this.watches[this.watches.length - 1]!; }
}

export const obj = (name: string, rv: string, extra: Record<string, unknown> = {}, namespace = 'default'): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, resourceVersion: rv, uid: `uid-${name}` }, ...extra });

/** Polls until `pred` holds, running microtasks in between; fails after `tries`. */
export const until = async (pred: () => boolean, what = 'condition', tries = 200): Promise<void> => {
  for (let i = 0; i < tries; i++) {
    if (pred()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`timed out waiting for ${what}`);
};
