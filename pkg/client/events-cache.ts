// Event correlation as client-go's tools/record/events_cache.go: similar events (same source, object, type and
// reason, differing messages) past `maxEvents` within `maxIntervalMs` collapse into one
// "(combined from similar events): ..." event; an event identical to one already written becomes a count++ patch
// of it; and a token bucket per source+object drops floods (burst 25, one per 5 minutes after).
import type { Clock } from './clock.js';
import { TokenBucketRateLimiter } from './flowcontrol.js';
import type { CoreEvent } from './types.js';

export interface CorrelatorOptions {
  maxEvents?: number;
  maxIntervalMs?: number;
  spamBurst?: number;
  spamQps?: number;
  cacheSize?: number;
}

export interface CorrelateResult {
  event: CoreEvent;
  /** A strategic merge patch for an existing event (count, lastTimestamp, message); undefined: create. */
  patch?: Record<string, unknown>;
  /** The key the write's outcome is recorded under (updateState). */
  key: string;
  skip: boolean;
}

/** A Map that forgets its least recently used entries past `max`. */
class Lru<V> {
  private readonly m = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(k: string): V | undefined {
    const v = this.m.get(k);
    if (v !== undefined) { this.m.delete(k); this.m.set(k, v); }
    return v;
  }
  set(k: string, v: V): void {
    this.m.delete(k);
    this.m.set(k, v);
    if (this.m.size > this.max) this.m.delete(this.m.keys().next().value!);
  }
}

const objectKey = (e: CoreEvent): string[] => {
  const o = e.involvedObject;
  return [e.source?.component ?? '', e.source?.host ?? '', o.kind ?? '', o.namespace ?? '', o.name ?? '', o.uid ?? '', o.apiVersion ?? ''];
};
export const aggregateKey = (e: CoreEvent): string =>
  [...objectKey(e), e.type ?? '', e.reason ?? '', e.reportingComponent ?? '', e.reportingInstance ?? ''].join('');
export const eventKey = (e: CoreEvent): string =>
  [...objectKey(e).slice(0, 5), e.involvedObject.fieldPath ?? '', ...objectKey(e).slice(5), e.type ?? '', e.reason ?? '', e.message ?? ''].join('');
export const spamKey = (e: CoreEvent): string => [...objectKey(e), e.type ?? ''].join('');

export const COMBINED_PREFIX = '(combined from similar events): ';

interface AggregateRecord { messages: Set<string>; lastTimestamp: number }
interface LogRecord { count: number; firstTimestamp: string; name: string; resourceVersion?: string }

export class EventCorrelator {
  private readonly aggregates: Lru<AggregateRecord>;
  private readonly log: Lru<LogRecord>;
  private readonly spam: Lru<TokenBucketRateLimiter>;
  private readonly maxEvents: number;
  private readonly maxIntervalMs: number;

  constructor(private readonly clock: Clock, private readonly o: CorrelatorOptions = {}) {
    const size = o.cacheSize ?? 4096;
    this.aggregates = new Lru(size);
    this.log = new Lru(size);
    this.spam = new Lru(size);
    this.maxEvents = o.maxEvents ?? 10;
    this.maxIntervalMs = o.maxIntervalMs ?? 600_000;
  }

  correlate(input: CoreEvent): CorrelateResult {
    const now = this.clock.now();
    // 1. aggregate: too many distinct messages for one object+reason -> one combined event
    const aKey = aggregateKey(input);
    let rec = this.aggregates.get(aKey);
    if (!rec || now - rec.lastTimestamp > this.maxIntervalMs) rec = { messages: new Set(), lastTimestamp: now };
    rec.messages.add(input.message ?? '');
    rec.lastTimestamp = now;
    let event = input;
    let key = eventKey(input);
    if (rec.messages.size >= this.maxEvents) {
      const first = rec.messages.values().next().value!;
      rec.messages.delete(first); // keep the set bounded, as upstream's PopAny
      event = { ...input, message: `${COMBINED_PREFIX}${input.message ?? ''}` };
      key = aKey;
    }
    this.aggregates.set(aKey, rec);
    // 2. dedup: seen before -> count++ as a patch of the event already written
    const last = this.log.get(key);
    let patch: Record<string, unknown> | undefined;
    if (last) {
      event = {
        ...event, count: last.count + 1, firstTimestamp: last.firstTimestamp,
        metadata: { ...event.metadata, name: last.name, resourceVersion: last.resourceVersion },
      };
      patch = { count: event.count, lastTimestamp: event.lastTimestamp, message: event.message };
    }
    this.log.set(key, { count: event.count ?? 1, firstTimestamp: event.firstTimestamp ?? '', name: event.metadata?.name ?? '', resourceVersion: last?.resourceVersion });
    // 3. spam filter per source+object
    const sKey = spamKey(event);
    let bucket = this.spam.get(sKey);
    if (!bucket) bucket = new TokenBucketRateLimiter(this.o.spamQps ?? 1 / 300, this.o.spamBurst ?? 25, this.clock);
    this.spam.set(sKey, bucket);
    const skip = !bucket.tryAccept();
    return { event, patch, key, skip };
  }

  /** Records what the server wrote (its name and resourceVersion) so a later count++ patches it. */
  updateState(key: string, written: CoreEvent): void {
    this.log.set(key, {
      count: written.count ?? 1, firstTimestamp: written.firstTimestamp ?? '',
      name: written.metadata?.name ?? '', resourceVersion: written.metadata?.resourceVersion,
    });
  }
}
