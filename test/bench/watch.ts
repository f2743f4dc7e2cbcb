// Watch fan-out: W watch streams (one HTTP/1.1 connection each) are opened, then E objects are written at a
// fixed rate (open loop); every watcher must receive every event. Latency of one delivery = the time the
// chunk holding it arrived minus the time the write's response arrived (0 if the event came first, which
// happens: the server fans out before it answers the writer), and minus the time the write was sent.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { call, percentile, pool } from './load.js';
import type { Tls } from './processes.js';

export interface FanoutOptions {
  origin: string;
  tls: Tls;
  /** Path of the watch stream (every watcher opens the same one). */
  watchPath: string;
  /** Where events are POSTed. */
  writePath: string;
  /** The body of event i; it must contain `"name":"ev-<i>"` (the first such name in its JSON line). */
  event: (i: number) => string;
  watchers: number;
  events: number;
  /** Writes per second. */
  rate: number;
  /** How long to wait for stragglers after the last write was acknowledged. */
  drainMs: number;
}

export interface FanoutResult {
  watchers: number;
  events: number;
  delivered: number;
  expected: number;
  writeErrors: number;
  firstError?: string;
  /** Time to open all the watch streams (headers received). */
  connectMs: number;
  /** Achieved writes per second. */
  writeRate: number;
  fromAck: { p50: number; p99: number; max: number };
  fromSend: { p50: number; p99: number; max: number };
  /** Share of deliveries that arrived before the write's own response. */
  beforeAck: number;
}

const MARK = '"name":"ev-';

export async function watchFanout(o: FanoutOptions): Promise<FanoutResult> {
  const W = o.watchers;
  const E = o.events;
  const recv = new Float64Array(W * E).fill(NaN);
  const leftovers: string[] = new Array<string>(W).fill('');
  let delivered = 0;

  const onData = (w: number, chunk: Buffer): void => {
    const t = performance.now();
    const s = leftovers[w] + chunk.toString('latin1');
    let start = 0;
    for (;;) {
      const nl = s.indexOf('\n', start);
      if (nl < 0) break;
      const k = s.indexOf(MARK, start);
      if (k >= 0 && k < nl) {
        let i = 0;
        for (let p = k + MARK.length; p < nl; p++) {
          const c = s.charCodeAt(p) - 48;
          if (c < 0 || c > 9) break;
          i = i * 10 + c;
        }
        if (i < E && Number.isNaN(recv[w * E + i]!)) {
          recv[w * E + i] = t;
          delivered++;
        }
      }
      start = nl + 1;
    }
    leftovers[w] = s.slice(start);
  };

  const watchPool = pool(o.origin, o.tls, W);
  const writer = pool(o.origin, o.tls, 64);
  const bodies: Dispatcher.ResponseData['body'][] = [];
  try {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: W }, async (_, w) => {
      const res = await watchPool.request({ path: o.watchPath, method: 'GET' });
      if (res.statusCode !== 200) throw new Error(`watch ${o.watchPath}: ${res.statusCode} ${(await res.body.text()).slice(0, 300)}`);
      bodies.push(res.body);
      res.body.on('data', (chunk: Buffer) => onData(w, chunk));
      res.body.on('error', () => { /* closed at the end */ });
    }));
    const connectMs = performance.now() - t0;
    await sleep(200); // let the last streams settle before the clock starts

    const sent = new Float64Array(E);
    const ack = new Float64Array(E).fill(NaN);
    let writeErrors = 0;
    let firstError: string | undefined;
    const interval = 1000 / o.rate;
    const w0 = performance.now();
    const writes: Promise<void>[] = [];
    for (let i = 0; i < E; i++) {
      const wait = w0 + i * interval - performance.now();
      if (wait >= 1) await sleep(wait);
      sent[i] = performance.now();
      writes.push(call(writer, 'POST', o.writePath, o.event(i)).then(() => {
        ack[i] = performance.now();
      }, (e: unknown) => {
        writeErrors++;
        firstError ??= e instanceof Error ? e.message : String(e);
      }));
    }
    await Promise.all(writes);
    const writeRate = (E / (performance.now() - w0)) * 1000;
    const expected = W * (E - writeErrors);
    const until = performance.now() + o.drainMs;
    while (delivered < expected && performance.now() < until) await sleep(20);

    const fromAck: number[] = [];
    const fromSend: number[] = [];
    let early = 0;
    for (let w = 0; w < W; w++) {
      for (let i = 0; i < E; i++) {
        const t = recv[w * E + i]!;
        if (Number.isNaN(t) || Number.isNaN(ack[i]!)) continue;
        const d = t - ack[i]!;
        if (d < 0) early++;
        fromAck.push(Math.max(0, d));
        fromSend.push(t - sent[i]!);
      }
    }
    const stats = (xs: number[]): { p50: number; p99: number; max: number } => {
      const a = Float64Array.from(xs).sort();
      return { p50: percentile(a, 50), p99: percentile(a, 99), max: a.length ? a[a.length - 1]! : NaN };
    };
    return {
      watchers: W, events: E, delivered, expected, writeErrors, firstError, connectMs, writeRate,
      fromAck: stats(fromAck), fromSend: stats(fromSend), beforeAck: fromAck.length ? early / fromAck.length : NaN,
    };
  } finally {
    for (const b of bodies) b.destroy();
    await Promise.all([watchPool.destroy(), writer.destroy()]);
  }
}
