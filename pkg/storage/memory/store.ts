// The in-memory twin of the LevelDB store, for tests: the same semantics, nothing persisted.
import type { Store } from '../interface.js';
import type { CompactionOptions, Journal } from '../core/journal.js';
import { RevisionedStore } from '../core/revisioned-store.js';

const nothingToPersist: Journal = {
  append: async () => undefined,
  compact: async () => undefined,
  close: async () => undefined,
};

/** Compaction is manual unless asked for: tests decide when history goes. */
export function createMemoryStore(opts: { compaction?: CompactionOptions } = {}): Store {
  return new RevisionedStore(nothingToPersist, { objects: new Map(), events: [], revision: 0, compacted: 0 }, opts.compaction);
}
