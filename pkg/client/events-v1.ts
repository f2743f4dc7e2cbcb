// The events.k8s.io/v1 recorder, as client-go's tools/events (the scheduler's): an event names its action and the
// controller and instance reporting it, and carries eventTime instead of the core fields (no source, count or first
// and last timestamps). A repeat (same type, action, reason, reporter, regarding and related objects; the note is not
// compared) joins a series: the first repeat patches series.count 2 at once, later ones only count in the cache,
// written when the series ends (no repeat for 6 minutes) and every 30 minutes while it goes on. Each event is written
// on its own, as client-go's goroutine per event: one slow write does not hold back the events recorded after it.
import type { Logger } from 'pino';
import { hostname } from 'node:os';
import type { KubeObject } from '../../api/types.js';
import { preciseNowOf, realClock, type Clock, type TimerHandle } from './clock.js';
import { isAlreadyExists, isClientClosed, isNotFound, StatusError } from './errors.js';
import { referenceTo, type EventType } from './events.js';
import { formatMicroTime, type ObjectReference } from './types.js';

export interface EventSeries { count: number; lastObservedTime: string }

/** What a recorder says of an event; the broadcaster adds its name, namespace and eventTime. */
interface EventFields {
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  regarding: ObjectReference;
  related?: ObjectReference;
  note: string;
  type: string;
}

/** An events.k8s.io/v1 Event. */
export interface EventsV1Event extends KubeObject, EventFields {
  eventTime: string;
  series?: EventSeries;
}

/** Where events go: client.resource(Resources.eventsV1) fits. */
export interface EventsV1Sink {
  create(ev: EventsV1Event): Promise<EventsV1Event>;
  patch(name: string, type: 'strategic', patch: unknown): Promise<EventsV1Event>;
  namespace(ns: string): EventsV1Sink;
}

export interface EventBroadcasterOptions {
  sink: EventsV1Sink;
  clock?: Clock;
  logger?: Logger;
  /** The host in each recorder's reportingInstance (default: this machine's name, as os.Hostname). */
  hostname?: string;
  /** Attempts per write on connection errors (default 12, as upstream), `retryDelayMs` apart (default 10 s). */
  maxTries?: number;
  retryDelayMs?: number;
}

/** client-go's finishTime and refreshTime. */
const FINISH_MS = 6 * 60_000;
const REFRESH_MS = 30 * 60_000;

const refKey = (r?: ObjectReference): string[] =>
  [r?.kind, r?.namespace, r?.name, r?.uid, r?.apiVersion, r?.resourceVersion, r?.fieldPath].map((x) => x ?? '');

const isomorphicKey = (e: EventsV1Event): string =>
  JSON.stringify([e.type, e.action, e.reason, e.reportingController, e.reportingInstance, refKey(e.regarding), refKey(e.related)]);

const asReference = (o: KubeObject | ObjectReference): ObjectReference =>
  'metadata' in o || 'spec' in o ? referenceTo(o as KubeObject) : (o as ObjectReference);

/**
 * One sink and one cache of the series under way, shared by the recorders made from it (one per reporting
 * controller). start() runs the series upkeep; stop() ends it.
 */
export class EventBroadcaster {
  private readonly clock: Clock;
  private readonly cache = new Map<string, EventsV1Event>();
  /** The cache's bookkeeping and the series upkeep, one at a time (client-go's mutex). */
  private tail: Promise<void> = Promise.resolve();
  /** Writes under way, each on its own. */
  private readonly writing = new Set<Promise<void>>();
  private timers: TimerHandle[] = [];
  private seq = 0;

  constructor(private readonly o: EventBroadcasterOptions) {
    this.clock = o.clock ?? realClock;
  }

  /** A recorder reporting as `controller`, instance `<controller>-<hostname>`. */
  newRecorder(controller: string): EventsV1Recorder {
    return new EventsV1Recorder(this, controller, `${controller}-${this.o.hostname ?? hostname()}`);
  }

  /** Ends finished series and refreshes running ones periodically, as StartRecordingToSink. */
  start(): void {
    this.stop();
    const every = (ms: number, fn: () => void): void => {
      const i = this.timers.length;
      const tick = (): void => { fn(); this.timers[i] = this.clock.setTimer(tick, ms); };
      this.timers.push(this.clock.setTimer(tick, ms));
    };
    every(FINISH_MS, () => this.enqueue(() => this.finishSeries()));
    every(REFRESH_MS, () => this.enqueue(() => this.refreshSeries()));
  }

  stop(): void {
    for (const t of this.timers) t.cancel();
    this.timers = [];
  }

  /** Resolves when every event recorded so far has been written (or given up on). */
  async flush(): Promise<void> {
    await this.tail;
    while (this.writing.size) await Promise.all(this.writing);
  }

  /** @internal The recorders' way in. */
  record(ev: EventFields): void {
    const now = preciseNowOf(this.clock);
    // client-go names an event by its object and its eventTime in nanoseconds: below the microsecond, the sequence
    // keeps names made at one instant apart
    const nanos = BigInt(Math.round(now * 1000)) * 1000n + BigInt(this.seq++ % 1000);
    const event: EventsV1Event = {
      apiVersion: 'events.k8s.io/v1', kind: 'Event',
      metadata: { name: `${ev.regarding.name ?? ''}.${nanos.toString(16)}`, namespace: ev.regarding.namespace || 'default' },
      eventTime: formatMicroTime(now), ...ev,
    };
    this.enqueue(async () => {
      const key = isomorphicKey(event);
      const seen = this.cache.get(key);
      if (!seen) {
        this.cache.set(key, event);
        this.startAttempt(structuredClone(event));
        return;
      }
      const lastObservedTime = formatMicroTime(preciseNowOf(this.clock));
      if (seen.series) {
        seen.series = { count: seen.series.count + 1, lastObservedTime };
        return;
      }
      seen.series = { count: 2, lastObservedTime };
      this.startAttempt(structuredClone(seen));
    });
  }

  private startAttempt(ev: EventsV1Event): void {
    const w = this.attempt(ev).catch((err: unknown) => { this.o.logger?.error({ err }, 'event recording failed'); })
      .finally(() => this.writing.delete(w));
    this.writing.add(w);
  }

  private enqueue(work: () => Promise<void>): void {
    this.tail = this.tail.then(work).catch((err: unknown) => { this.o.logger?.error({ err }, 'event recording failed'); });
  }

  /** Series not seen for 6 minutes get their last count written and are forgotten; so are singletons that old. */
  private async finishSeries(): Promise<void> {
    const cutoff = this.clock.now() - FINISH_MS;
    for (const [key, ev] of this.cache) {
      if (ev.series) {
        if (Date.parse(ev.series.lastObservedTime) < cutoff && !(await this.write(structuredClone(ev))).retry) this.cache.delete(key);
      } else if (Date.parse(ev.eventTime) < cutoff) {
        this.cache.delete(key);
      }
    }
  }

  /** Running series are written again (the server's copy then stands in the cache), so they do not expire meanwhile. */
  private async refreshSeries(): Promise<void> {
    for (const [key, ev] of this.cache) {
      if (!ev.series) continue;
      const { written, retry } = await this.write(structuredClone(ev));
      if (!retry && written) this.cache.set(key, written);
    }
  }

  private async attempt(ev: EventsV1Event): Promise<void> {
    const tries = this.o.maxTries ?? 12;
    for (let n = 1; ; n++) {
      if (!(await this.write(ev)).retry) return;
      if (n >= tries) {
        this.o.logger?.error({ reason: ev.reason }, 'unable to write event (retry limit exceeded)');
        return;
      }
      await this.clock.sleep(this.o.retryDelayMs ?? 10_000);
    }
  }

  /** A series is a patch of it (created again if gone); anything else a create. `retry`: worth another try. */
  private async write(ev: EventsV1Event): Promise<{ written?: EventsV1Event; retry: boolean }> {
    const sink = this.o.sink.namespace(ev.metadata!.namespace!);
    try {
      if (ev.series) {
        try {
          return { written: await sink.patch(ev.metadata!.name!, 'strategic', { series: ev.series }), retry: false };
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
      const { resourceVersion: _rv, ...meta } = ev.metadata!;
      return { written: await sink.create({ ...ev, metadata: meta }), retry: false };
    } catch (err) {
      // the component is shutting down: what is still queued goes unwritten, as a shut-down broadcaster's does
      if (isClientClosed(err)) {
        this.o.logger?.debug({ reason: ev.reason }, 'event dropped: the client is closed');
        return { retry: false };
      }
      if (!(err instanceof StatusError)) {
        this.o.logger?.warn({ err, reason: ev.reason }, 'unable to write event (may retry after sleeping)');
        return { retry: true };
      }
      // a series' create racing its own first write: the patch will find it next time
      if (isAlreadyExists(err)) return { retry: !!ev.series };
      this.o.logger?.warn({ err, reason: ev.reason }, 'server rejected event (will not retry)');
      return { retry: false };
    }
  }
}

export class EventsV1Recorder {
  constructor(private readonly b: EventBroadcaster, readonly reportingController: string, readonly reportingInstance: string) {}

  /** Records that `action` on `regarding` (with `related`, if any) happened, for `reason`. */
  eventf(regarding: KubeObject | ObjectReference, related: KubeObject | ObjectReference | undefined, type: EventType, reason: string, action: string, note: string): void {
    this.b.record({
      reportingController: this.reportingController, reportingInstance: this.reportingInstance,
      action, reason, regarding: asReference(regarding), ...(related ? { related: asReference(related) } : {}), note, type,
    });
  }
}
