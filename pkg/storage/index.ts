// pkg/storage: the Store interface, its errors, the backends and the watch cache.
export * from './interface.js';
export * from './errors.js';
export type { CompactionOptions } from './core/journal.js';
export { createMemoryStore } from './memory/store.js';
export { openLevelStore } from './leveldb/store.js';
export * from './cacher/cacher.js';
export type { Predicate } from './cacher/watch-filter.js';
