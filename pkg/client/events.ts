// The event recorder: core/v1 Events about objects, correlated (aggregated, deduplicated, spam-filtered) as
// client-go's record package does, written in order by one async writer. Writes never throw at the caller:
// failures are retried (connection problems) or logged.
import type { Logger } from 'pino';
import { format } from 'node:util';
import type { KubeObject } from '../../api/types.js';
import { realClock, type Clock } from './clock.js';
import { isAlreadyExists, isClientClosed, isNamespaceTerminating, isNotFound, StatusError } from './errors.js';
import { EventCorrelator, type CorrelatorOptions } from './events-cache.js';
import { unlimited, type RateLimiter } from './flowcontrol.js';
import { formatTime, type CoreEvent, type ObjectReference } from './types.js';

/** Where events go: a ResourceClient<CoreEvent> without a namespace fits (client.events()). */
export interface EventSink {
  create(ev: CoreEvent): Promise<CoreEvent>;
  patch(name: string, type: 'strategic', patch: unknown, o?: unknown): Promise<CoreEvent>;
  namespace(ns: string): EventSink;
}

export interface EventRecorderOptions extends CorrelatorOptions {
  sink: EventSink;
  /** source.component and reportingComponent, e.g. "deployment-controller". */
  component: string;
  /** source.host and reportingInstance. */
  host?: string;
  clock?: Clock;
  logger?: Logger;
  /** A write budget shared with other recorders of the process (see EventThrottle); by default a queue of its own. */
  throttle?: EventThrottle;
  /** Attempts per event on connection errors (default 12, as upstream), `retryDelayMs` apart (default 10 s). */
  maxTries?: number;
  retryDelayMs?: number;
}

export type EventType = 'Normal' | 'Warning';

/**
 * The event budget of a process, shared by its recorders, as client-go's broadcaster with an event client of its
 * own rate (upstream's kubelet: --event-qps 50, --event-burst 100): writes wait for the limiter, and once
 * `maxQueued` events wait (client-go's queue of 1,000) new ones are dropped rather than held without bound.
 */
export class EventThrottle {
  private queued = 0;
  dropped = 0;

  constructor(private readonly limiter: RateLimiter, private readonly maxQueued = 1000) {}

  /** Takes a place in the queue; false: the event is dropped. */
  admit(): boolean {
    if (this.queued >= this.maxQueued) { this.dropped++; return false; }
    this.queued++;
    return true;
  }

  /**
   * Runs an admitted event and frees its place: `next` correlates it when its turn comes and gives the write, if
   * any, which then waits for the limiter (a deduplicated event takes none of the budget).
   */
  async run(next: () => (() => Promise<void>) | undefined): Promise<void> {
    try {
      const write = next();
      if (!write) return;
      await this.limiter.wait();
      await write();
    } finally {
      this.queued--;
    }
  }
}

export const referenceTo = (obj: KubeObject): ObjectReference => ({
  kind: obj.kind, namespace: obj.metadata?.namespace, name: obj.metadata?.name, uid: obj.metadata?.uid,
  apiVersion: obj.apiVersion, resourceVersion: obj.metadata?.resourceVersion,
});

export class EventRecorder {
  private readonly clock: Clock;
  private readonly correlator: EventCorrelator;
  private readonly throttle: EventThrottle;
  private tail: Promise<void> = Promise.resolve();
  private seq = 0;

  constructor(private readonly o: EventRecorderOptions) {
    this.clock = o.clock ?? realClock;
    this.correlator = new EventCorrelator(this.clock, o);
    this.throttle = o.throttle ?? new EventThrottle(unlimited);
  }

  /** Records an event about `obj` (an object, or a reference to one). */
  event(obj: KubeObject | ObjectReference, type: EventType, reason: string, message: string): void {
    const ref = 'metadata' in obj || 'spec' in obj ? referenceTo(obj as KubeObject) : (obj as ObjectReference);
    const throttle = this.throttle;
    // As client-go's broadcaster: the bounded queue comes first, correlation when the event leaves it, so an event
    // dropped under a burst costs no aggregation or spam-filter work.
    if (!throttle.admit()) {
      this.o.logger?.debug({ reason, object: `${ref.namespace ?? ''}/${ref.name ?? ''}` }, 'event dropped: too many waiting to be written');
      return;
    }
    const now = this.clock.now();
    const ts = formatTime(now);
    const nanos = BigInt(now) * 1_000_000n + BigInt(this.seq++ % 1_000_000);
    const ev: CoreEvent = {
      apiVersion: 'v1', kind: 'Event',
      metadata: { name: `${ref.name ?? 'unknown'}.${nanos.toString(16)}`, namespace: ref.namespace || 'default' },
      involvedObject: ref, reason, message, type,
      source: { component: this.o.component, ...(this.o.host ? { host: this.o.host } : {}) },
      firstTimestamp: ts, lastTimestamp: ts, count: 1, eventTime: null,
      reportingComponent: this.o.component, reportingInstance: this.o.host ?? '',
    };
    this.tail = this.tail.then(() => throttle.run(() => {
      const result = this.correlator.correlate(ev);
      return result.skip ? undefined : () => this.write(result.event, result.patch, result.key);
    }));
  }

  /** event() with a printf-style message (%s, %d, %v as Node's util.format). */
  eventf(obj: KubeObject | ObjectReference, type: EventType, reason: string, fmt: string, ...args: unknown[]): void {
    this.event(obj, type, reason, format(fmt.replace(/%v/g, '%s'), ...args));
  }

  /** Resolves when every event recorded so far has been written (or given up on). */
  flush(): Promise<void> { return this.tail; }

  private async write(ev: CoreEvent, patch: Record<string, unknown> | undefined, key: string): Promise<void> {
    const sink = this.o.sink.namespace(ev.metadata!.namespace!);
    const tries = this.o.maxTries ?? 12;
    for (let attempt = 1; ; attempt++) {
      try {
        let written: CoreEvent | undefined;
        if (patch) {
          try {
            written = await sink.patch(ev.metadata!.name!, 'strategic', patch);
          } catch (e) {
            if (!isNotFound(e)) throw e;
          }
        }
        if (!written) {
          const { resourceVersion: _rv, ...meta } = ev.metadata!;
          written = await sink.create({ ...ev, metadata: meta });
        }
        this.correlator.updateState(key, written);
        return;
      } catch (err) {
        if (err instanceof StatusError) {
          // the server refused it: retrying the same request will not help (a namespace going away is no news)
          if (isAlreadyExists(err) || isNamespaceTerminating(err)) this.o.logger?.debug({ err, reason: ev.reason }, 'server rejected event (will not retry)');
          else this.o.logger?.warn({ err, reason: ev.reason }, 'server rejected event (will not retry)');
          return;
        }
        // the component is shutting down: what is still queued goes unwritten, as a shut-down broadcaster's does
        if (isClientClosed(err)) {
          this.o.logger?.debug({ reason: ev.reason }, 'event dropped: the client is closed');
          return;
        }
        if (attempt >= tries) {
          this.o.logger?.error({ err, reason: ev.reason }, 'unable to write event (retry limit exceeded)');
          return;
        }
        await this.clock.sleep(this.o.retryDelayMs ?? 10_000);
      }
    }
  }
}
