// Load generation: closed-loop workers over an undici Pool, bounded by a count and a time, and small statistics.
import { Pool, type Dispatcher } from 'undici';
import { namespace } from './objects.js';
import type { Tls } from './processes.js';

/** Connections authenticated by the client certificate of `tls`, or by none (the caller sends a token). */
export const pool = (origin: string, tls: Tls | Pick<Tls, 'ca'>, connections: number): Pool =>
  new Pool(origin, { connections, pipelining: 1, connect: { ...tls, rejectUnauthorized: true }, bodyTimeout: 0, headersTimeout: 60_000 });

/** One request; the whole body is read; any status but `expect` is an error. */
export async function call(d: Dispatcher, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: string, expect: number[] = [200, 201], headers: Record<string, string> = {}): Promise<Buffer> {
  const res = await d.request({ path, method, body, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } });
  const buf = Buffer.from(await res.body.arrayBuffer());
  if (!expect.includes(res.statusCode)) throw new Error(`${method} ${path}: ${res.statusCode} ${buf.toString('utf8').slice(0, 300)}`);
  return buf;
}

/**
 * Namespaces with the "default" ServiceAccount that the controller-manager's serviceaccount controller would add: the
 * benches run the apiserver alone, and its ServiceAccount admission refuses pods without that account.
 */
export async function createNamespaces(d: Dispatcher, names: string[]): Promise<void> {
  for (const ns of names) {
    await call(d, 'POST', '/api/v1/namespaces', namespace(ns));
    await call(d, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }));
  }
}

export interface RunResult {
  ops: number;
  errors: number;
  ms: number;
  /** Completed operations per second. */
  rate: number;
  firstError?: string;
}

/** `concurrency` workers each run `op` back to back until `maxOps` have started or `maxMs` has passed. */
export async function closedLoop(o: { concurrency: number; maxOps: number; maxMs: number; from?: number }, op: (i: number) => Promise<unknown>): Promise<RunResult> {
  const from = o.from ?? 0;
  let next = from;
  let done = 0;
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + o.maxMs;
  const worker = async (): Promise<void> => {
    while (next < from + o.maxOps && performance.now() < deadline) {
      const i = next++;
      try {
        await op(i);
        done++;
      } catch (e) {
        errors++;
        firstError ??= e instanceof Error ? e.message : String(e);
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  const ms = performance.now() - start;
  return { ops: done, errors, ms, rate: (done / ms) * 1000, firstError };
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export const median = (xs: number[]): number => percentile([...xs].sort((a, b) => a - b), 50);
