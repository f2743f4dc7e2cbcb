// What a backend persists for the revisioned store: batches of write events, and compactions.
import type { KeyValue, StoreEvent } from '../interface.js';

export interface Journal {
  /** Persist the batch atomically (objects, event records, current revision); resolve once durable. */
  append(batch: readonly StoreEvent[]): Promise<void>;
  /**
   * Remember `to` as the compacted revision (`from` was the last one): what only history at or before it needs
   * may go from disk.
   */
  compact(from: number, to: number): Promise<void>;
  close(): Promise<void>;
}

/** The state a backend recovered at open. */
export interface RecoveredState {
  objects: Map<string, KeyValue>;
  /** Kept events, oldest first, all with revision > compacted. */
  events: StoreEvent[];
  revision: number;
  compacted: number;
}

export interface CompactionOptions {
  /** Keep event records of the last N revisions. */
  keepRevisions: number;
  intervalMs: number;
}

export const DEFAULT_COMPACTION: CompactionOptions = { keepRevisions: 10_000, intervalMs: 60_000 };
