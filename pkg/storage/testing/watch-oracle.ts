// What a watcher should have seen, computed from the complete history of changes (a replay from the store):
// upstream's cacheWatcher semantics written out plainly, independent of the cacher's own filter, so that a
// stress test can hold every watcher to exactly its events, in revision order, no gap, no duplicate.
import type { KubeObject } from '../../../api/types.js';

export interface Change {
  type: string;
  key: string;
  revision: number;
  /** The object after the change; for DELETED its last state. */
  object: KubeObject;
}

export interface Seen {
  type: string;
  key: string;
  revision: number;
}

export type ObjectPredicate = (obj: KubeObject) => boolean;

/** The events of `history` after revision `after` under `prefix`, as a watcher with `predicate` sees them. */
export function expectedEvents(history: readonly Change[], after: number, prefix: string, predicate?: ObjectPredicate): Seen[] {
  const matches = predicate ?? (() => true);
  const state = new Map<string, KubeObject>();
  const out: Seen[] = [];
  for (const c of history) {
    if (!c.key.startsWith(prefix)) continue;
    const prev = state.get(c.key);
    if (c.type === 'DELETED') state.delete(c.key);
    else state.set(c.key, c.object);
    if (c.revision <= after) continue;
    const was = prev !== undefined && matches(prev);
    const is = c.type !== 'DELETED' && matches(c.object);
    let type: string | undefined;
    if (c.type === 'DELETED') type = was ? 'DELETED' : undefined;
    else if (is) type = was ? 'MODIFIED' : 'ADDED';
    else if (was) type = 'DELETED';
    if (type) out.push({ type, key: c.key, revision: c.revision });
  }
  return out;
}

/** The matching objects under `prefix` at `revision`: key → revision of their last write. */
export function stateAt(history: readonly Change[], revision: number, prefix: string, predicate?: ObjectPredicate): Map<string, number> {
  const state = new Map<string, Change>();
  for (const c of history) {
    if (c.revision > revision) break;
    if (!c.key.startsWith(prefix)) continue;
    if (c.type === 'DELETED') state.delete(c.key);
    else state.set(c.key, c);
  }
  const out = new Map<string, number>();
  for (const [key, c] of state) if (!predicate || predicate(c.object)) out.set(key, c.revision);
  return out;
}

/**
 * The difference between what a watcher saw and what it should have, or undefined when they agree. A watcher
 * that ended early (unsubscribed, cut off) must have seen a prefix of its events; one still open, all of them.
 */
export function streamMismatch(seen: readonly Seen[], expected: readonly Seen[], complete: boolean): string | undefined {
  const fmt = (e: Seen | undefined): string => (e ? `${e.type} ${e.key}@${e.revision}` : 'nothing');
  for (let i = 1; i < seen.length; i++) {
    if (seen[i].revision <= seen[i - 1].revision) return `out of order or doubled at ${i}: ${fmt(seen[i - 1])} then ${fmt(seen[i])}`;
  }
  const n = Math.min(seen.length, expected.length);
  for (let i = 0; i < n; i++) {
    const a = seen[i];
    const b = expected[i];
    if (a.type !== b.type || a.key !== b.key || a.revision !== b.revision) return `event ${i}: saw ${fmt(a)}, expected ${fmt(b)}`;
  }
  if (seen.length > expected.length) return `${seen.length - expected.length} extra events from ${fmt(seen[expected.length])}`;
  if (complete && seen.length < expected.length) return `missed ${expected.length - seen.length} events from ${fmt(expected[seen.length])}`;
  return undefined;
}
