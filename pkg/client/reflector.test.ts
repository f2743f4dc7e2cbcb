import { describe, expect, it } from 'vitest';
import { StatusError } from '../apimachinery/errors.js';
import { FakeClock } from './clock.js';
import { Reflector, type ReflectorOptions, type ReflectorStore } from './reflector.js';
import { FakeListerWatcher, obj, until } from './testing/fake-lw.js';
import type { KubeObject } from './types.js';

class RecordingStore implements ReflectorStore {
  log: string[] = [];
  replace(items: KubeObject[], rv: string): void { this.log.push(`replace ${items.map((i) => i.metadata!.name).join(',')} @${rv}`); }
  add(o: KubeObject): void { this.log.push(`add ${o.metadata!.name}`); }
  update(o: KubeObject): void { this.log.push(`update ${o.metadata!.name}`); }
  delete(o: KubeObject): void { this.log.push(`delete ${o.metadata!.name}`); }
}

/**
 * Runs a reflector over `lw` (set up beforehand with what the server holds) into a recording store, on a fake clock,
 * collecting the errors it recovers from; stop() ends it as callers do: abort, then the open watch ends.
 */
function start(options: ReflectorOptions = {}, lw = new FakeListerWatcher()) {
  const clock = new FakeClock();
  const store = new RecordingStore();
  const errors: unknown[] = [];
  const ac = new AbortController();
  const reflector = new Reflector(lw, store, { clock, onError: (e) => errors.push(e), ...options });
  const run = reflector.run(ac.signal);
  const stop = async (): Promise<void> => {
    ac.abort();
    lw.current.end();
    await run;
  };
  return { lw, store, clock, errors, reflector, stop };
}

const expired = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version' } as const;

describe('Reflector', () => {
  it('lists in pages, then watches from the list resourceVersion with bookmarks', async () => {
    const server = new FakeListerWatcher();
    server.items = [obj('a', '5'), obj('b', '6'), obj('c', '7')];
    server.resourceVersion = '7';
    server.pageSize = 2;
    const { lw, store, stop } = start({ pageSize: 2 }, server);
    await until(() => lw.watches.length === 1, 'watch');
    expect(lw.lists.map((l) => l.continue)).toEqual([undefined, '2']);
    expect(store.log).toEqual(['replace a,b,c @7']);
    expect(lw.current.options).toMatchObject({ resourceVersion: '7', allowWatchBookmarks: true });
    await stop();
  });

  it('resumes from the last resourceVersion (event or bookmark) when the watch ends, without re-listing', async () => {
    const { lw, store, reflector: r, stop } = start();
    await until(() => lw.watches.length === 1);
    lw.current.send({ type: 'ADDED', object: obj('a', '2') });
    lw.current.send({ type: 'MODIFIED', object: obj('a', '3') });
    lw.current.send({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } });
    lw.current.end();
    await until(() => lw.watches.length === 2, 'second watch');
    expect(lw.current.options.resourceVersion).toBe('9');
    lw.current.send({ type: 'DELETED', object: obj('a', '10') });
    await until(() => store.log.length === 4);
    expect(store.log).toEqual(['replace  @1', 'add a', 'update a', 'delete a']);
    expect(lw.lists).toHaveLength(1);
    expect(r.lastSyncResourceVersion()).toBe('10');
    await stop();
  });

  it('re-lists on a 410 ERROR event and when the watch request itself gets 410', async () => {
    const { lw, clock, stop } = start({ backoff: { initialMs: 10, maxMs: 10 } });
    await until(() => lw.watches.length === 1);
    lw.current.send({ type: 'ERROR', object: expired });
    lw.watchErrors.push(new StatusError(410, 'Expired', 'too old'));
    await until(() => clock.pending() > 0, 'backoff after the 410 event');
    await clock.advance(10);
    await until(() => lw.lists.length === 2 && clock.pending() > 0, 'second list, whose watch gets 410');
    await clock.advance(10);
    await until(() => lw.lists.length === 3 && lw.watches.length === 2, 'third list and its watch');
    await stop();
  });

  it('retries a broken watch after a backoff from the same resourceVersion', async () => {
    const { lw, clock, errors, stop } = start({ backoff: { initialMs: 100, maxMs: 100 } });
    await until(() => lw.watches.length === 1);
    lw.current.send({ type: 'ADDED', object: obj('a', '4') });
    lw.current.fail(new Error('socket hang up'));
    await until(() => errors.length === 1);
    expect(lw.watches).toHaveLength(1);
    await clock.advance(200);
    await until(() => lw.watches.length === 2);
    expect(lw.current.options.resourceVersion).toBe('4');
    expect(lw.lists).toHaveLength(1);
    await stop();
  });

  it('watch-list: collects initial events until the end bookmark, then streams on', async () => {
    const { lw, store, stop } = start({ useWatchList: true });
    await until(() => lw.watches.length === 1);
    expect(lw.current.options).toMatchObject({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    lw.current.send({ type: 'ADDED', object: obj('a', '3') });
    lw.current.send({ type: 'ADDED', object: obj('b', '4') });
    lw.current.send({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '8', annotations: { 'k8s.io/initial-events-end': 'true' } } } });
    lw.current.send({ type: 'ADDED', object: obj('c', '9') });
    await until(() => store.log.length === 2);
    expect(store.log).toEqual(['replace a,b @8', 'add c']);
    expect(lw.lists).toHaveLength(0);
    lw.current.end();
    await until(() => lw.watches.length === 2);
    expect(lw.current.options).toMatchObject({ resourceVersion: '9' });
    expect(lw.current.options.sendInitialEvents).toBeUndefined();
    await stop();
  });

  it('watch-list falls back to list+watch when the server refuses it', async () => {
    const server = new FakeListerWatcher();
    server.watchErrors.push(new StatusError(422, 'Invalid', 'sendInitialEvents is forbidden'));
    const { lw, clock, stop } = start({ useWatchList: true, backoff: { initialMs: 5, maxMs: 5 } }, server);
    await until(() => clock.pending() > 0);
    await clock.advance(10);
    await until(() => lw.watches.length === 1);
    expect(lw.lists).toHaveLength(1);
    expect(lw.current.options.sendInitialEvents).toBeUndefined();
    await stop();
  });

  it('backs off instead of spinning when the server ends watches at once without events', async () => {
    const { lw, clock, errors, stop } = start({ backoff: { initialMs: 100, maxMs: 100 } });
    await until(() => lw.watches.length === 1);
    lw.current.end();
    await until(() => errors.length === 1);
    expect(lw.watches).toHaveLength(1);
    await clock.advance(200);
    await until(() => lw.watches.length === 2);
    expect(lw.lists).toHaveLength(1);
    await stop();
  });
});
