// A watch over real HTTPS for tests: the response body is streamed with undici and parsed one JSON line
// at a time, the way client-go's watch decoder reads it. Waiting is by polling with a deadline.
import { request, type Dispatcher } from 'undici';

export interface WatchEvent {
  type: string;
  object: any;
}

export interface WatchStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  events: WatchEvent[];
  /** Resolves when the server ends the stream (or it breaks). */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Resolves once `pred` holds for the events so far; rejects after `timeoutMs`. */
  until(pred: (events: WatchEvent[]) => boolean, timeoutMs?: number, what?: string): Promise<WatchEvent[]>;
  /** Resolves once at least `n` events (optionally of a type set) have arrived. */
  count(n: number, types?: string[], timeoutMs?: number): Promise<WatchEvent[]>;
  close(): void;
}

export async function openWatch(url: string, dispatcher: Dispatcher, headers: Record<string, string> = {}): Promise<WatchStream> {
  const controller = new AbortController();
  const res = await request(url, { method: 'GET', dispatcher, headers, signal: controller.signal });
  const events: WatchEvent[] = [];
  let ended = false;
  let buffered = '';
  const done = (async () => {
    try {
      for await (const chunk of res.body) {
        const parts = (buffered + (chunk as Buffer).toString('utf8')).split('\n');
        buffered = parts.pop()!;
        for (const line of parts) if (line.trim()) events.push(JSON.parse(line) as WatchEvent);
      }
      if (buffered.trim()) events.push(JSON.parse(buffered) as WatchEvent);
    } catch {
      // aborted by close(), or the connection broke: the stream is over either way
    } finally {
      ended = true;
    }
  })();
  const until = async (pred: (evs: WatchEvent[]) => boolean, timeoutMs = 10_000, what = 'condition'): Promise<WatchEvent[]> => {
    const deadline = Date.now() + timeoutMs;
    while (!pred(events)) {
      if (Date.now() > deadline) {
        throw new Error(`watch: timed out waiting for ${what}; got ${events.length} events: ${summarize(events).slice(-20).join(', ')}`);
      }
      if (ended && !pred(events)) {
        throw new Error(`watch: stream ended before ${what}; got ${events.length} events: ${summarize(events).slice(-20).join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return events;
  };
  return {
    status: res.statusCode,
    headers: res.headers,
    events,
    ended: done,
    isEnded: () => ended,
    until,
    count: (n, types, timeoutMs) =>
      until((evs) => evs.filter((e) => !types || types.includes(e.type)).length >= n, timeoutMs, `${n} ${types?.join('/') ?? ''} events`),
    close: () => controller.abort(),
  };
}

/** "TYPE name@rv" per event, for readable assertions. */
export function summarize(events: WatchEvent[]): string[] {
  return events.map((e) => `${e.type} ${e.object?.metadata?.name ?? ''}@${e.object?.metadata?.resourceVersion ?? ''}`);
}
