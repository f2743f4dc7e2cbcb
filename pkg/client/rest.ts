// The REST transport: one undici Agent with the config's TLS, authentication headers, the client-side rate
// limiter, client-go's retries (retry-policy.ts: a 429/5xx with Retry-After, a GET's or watch's closed connection;
// never a refused one), metrics hooks, and failed responses turned into StatusErrors. Everything takes an AbortSignal.
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { Agent, request, type Dispatcher } from 'undici';
import { parseYaml, stringifyYaml } from '../apimachinery/yaml.js';
import { realClock, type Clock } from './clock.js';
import { DEFAULT_BURST, DEFAULT_MAX_CONNECTIONS, DEFAULT_QPS, defaultUserAgent, type RestConfig } from './config.js';
import { ClientClosedError, isAbortError, statusErrorFrom } from './errors.js';
import { newRateLimiter, type RateLimiter } from './flowcontrol.js';
import { CONNECTION_RETRY_MS, retryableError, retryAfterWaitMs } from './retry-policy.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined | null | string[];

export interface RequestOptions {
  method: HttpMethod;
  /** The path after the host, e.g. /api/v1/namespaces/default/pods. */
  path: string;
  query?: Record<string, QueryValue>;
  /** An object is sent as JSON (or YAML when contentType says so); a string or Buffer as it is. */
  body?: unknown;
  contentType?: string;
  /** Default application/json. */
  accept?: string;
  signal?: AbortSignal;
  /** Overrides the config's timeoutMs; 0 for none. It bounds the whole request, retries included (client-go's). */
  timeoutMs?: number;
  /** Overrides the config's maxRetries (0: a Retry-After or a dropped connection is final). */
  maxRetries?: number;
  headers?: Record<string, string>;
}

export interface StreamResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer>;
  /** Ends the stream early. */
  close(): void;
}

const TOKEN_FILE_TTL_MS = 60_000;

export const isYaml = (contentType: string | undefined): boolean => /\b(yaml|yml)\b/i.test(contentType ?? '');

const buildQuery = (query: Record<string, QueryValue> | undefined): string => {
  if (!query) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const x of v) p.append(k, x);
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
};

/**
 * The response, or the signal's reason at once when it aborts first: undici heeds an abort only once the request has
 * a connection, so a stop while connecting (to a port that takes connections and never speaks TLS, an apiserver
 * still starting) waited out the 10 s connect timeout. A response that comes after the abort is thrown away.
 */
function answeredOrAborted(pending: Promise<Dispatcher.ResponseData>, signal: AbortSignal | undefined): Promise<Dispatcher.ResponseData> {
  if (!signal) return pending;
  return new Promise((resolve, reject) => {
    const aborted = (): void => {
      reject(signal.reason);
      pending.then((res) => res.body.destroy(), () => undefined);
    };
    if (signal.aborted) return aborted();
    signal.addEventListener('abort', aborted, { once: true });
    pending.then(
      (res) => { signal.removeEventListener('abort', aborted); resolve(res); },
      (e: unknown) => { signal.removeEventListener('abort', aborted); reject(e); },
    );
  });
}

export class RestClient {
  readonly config: RestConfig;
  readonly clock: Clock;
  readonly rateLimiter: RateLimiter;
  private readonly dispatcher: Agent;
  /** Watches and other streams hold their connection for long: they get their own, outside the capped pool. */
  private readonly streams: Agent;
  private readonly base: URL;
  private token?: { value: string; readAt: number };

  constructor(config: RestConfig, dispatcher?: Agent) {
    this.config = config;
    this.clock = config.clock ?? realClock;
    this.base = new URL(config.host);
    this.rateLimiter = config.rateLimiter ?? newRateLimiter(config.qps ?? DEFAULT_QPS, config.burst ?? DEFAULT_BURST, this.clock);
    // One secure context for every connection: building it per connection (parsing the key and certificates)
    // was most of a client's CPU when it opened many.
    const connect = {
      secureContext: createSecureContext({ ca: config.caData, cert: config.certData, key: config.keyData }),
      rejectUnauthorized: !config.insecureSkipTLSVerify,
      ...(config.tlsServerName ? { servername: config.tlsServerName } : {}),
    };
    this.dispatcher = dispatcher ?? new Agent({ connect, keepAliveTimeout: 30_000, connections: config.maxConnections ?? DEFAULT_MAX_CONNECTIONS });
    this.streams = dispatcher ?? new Agent({ connect, keepAliveTimeout: 30_000 });
  }

  /** The full URL of a path and query. */
  url(path: string, query?: Record<string, QueryValue>): string {
    const prefix = this.base.pathname.replace(/\/+$/, '');
    return `${this.base.origin}${prefix}${path}${buildQuery(query)}`;
  }

  private async headers(o: RequestOptions, body: string | Buffer | undefined): Promise<Record<string, string>> {
    const h: Record<string, string> = { 'user-agent': this.config.userAgent ?? defaultUserAgent(), accept: o.accept ?? 'application/json', ...o.headers };
    if (body !== undefined) h['content-type'] = o.contentType ?? 'application/json';
    const token = await this.bearerToken();
    if (token) h.authorization = `Bearer ${token}`;
    else if (this.config.username !== undefined) h.authorization = `Basic ${Buffer.from(`${this.config.username}:${this.config.password ?? ''}`).toString('base64')}`;
    return h;
  }

  private async bearerToken(): Promise<string | undefined> {
    if (this.config.bearerToken) return this.config.bearerToken;
    const file = this.config.bearerTokenFile;
    if (!file) return undefined;
    const now = this.clock.now();
    if (!this.token || now - this.token.readAt > TOKEN_FILE_TTL_MS) {
      try {
        this.token = { value: (await readFile(file, 'utf8')).trim(), readAt: now };
      } catch (e) {
        if (!this.token) throw e; // keep the last good token if a rotation races us
      }
    }
    return this.token.value;
  }

  private encodeBody(o: RequestOptions): string | Buffer | undefined {
    if (o.body === undefined) return undefined;
    if (typeof o.body === 'string' || Buffer.isBuffer(o.body)) return o.body;
    return isYaml(o.contentType) ? stringifyYaml(o.body) : JSON.stringify(o.body);
  }

  /**
   * Sends a request, retrying as the verb allows, and returns the response whose status is below 400 (its body
   * unread) — or throws the StatusError of the last failed attempt.
   */
  private async send(o: RequestOptions, streaming: boolean): Promise<Dispatcher.ResponseData> {
    const body = this.encodeBody(o);
    const headers = await this.headers(o, body);
    const url = this.url(o.path, o.query);
    const maxRetries = o.maxRetries ?? this.config.maxRetries ?? 10;
    const metrics = this.config.metrics;
    const host = this.base.host;
    const timeoutMs = o.timeoutMs ?? (streaming ? 0 : this.config.timeoutMs ?? 0);
    // as client-go's request(): the first throttle comes before the timeout starts, which then covers the retries
    let signal: AbortSignal | undefined;
    for (let attempt = 0; ; attempt++) {
      // checked again before each retry: the client may have been closed while this request waited
      if (this.closing) throw new ClientClosedError();
      const waitStart = this.clock.now();
      await this.rateLimiter.wait(signal ?? o.signal);
      metrics?.rateLimiterLatency?.({ verb: o.method, host, latencyMs: this.clock.now() - waitStart });
      // a signal of this request's own (following the caller's): the listeners undici and answeredOrAborted add go on
      // it, not on a caller's signal many requests share (an informer's lists and watches)
      signal ??= timeoutMs > 0 ? (o.signal ? AbortSignal.any([o.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs))
        : o.signal && AbortSignal.any([o.signal]);
      const started = this.clock.now();
      let res: Dispatcher.ResponseData;
      try {
        res = await answeredOrAborted(request(url, {
          method: o.method, headers, body, signal, dispatcher: streaming ? this.streams : this.dispatcher,
          ...(streaming ? { bodyTimeout: 0 } : {}),
        }), signal);
      } catch (e) {
        metrics?.requestResult?.({ verb: o.method, host, path: o.path, code: 0, latencyMs: this.clock.now() - started });
        if (isAbortError(e) || signal?.aborted || attempt >= maxRetries || !retryableError(e, o.method, streaming)) throw e;
        metrics?.requestRetry?.({ verb: o.method, host, path: o.path, reason: 'connection' });
        await this.clock.sleep(CONNECTION_RETRY_MS, signal);
        continue;
      }
      metrics?.requestResult?.({ verb: o.method, host, path: o.path, code: res.statusCode, latencyMs: this.clock.now() - started });
      if (res.statusCode < 400) return res;
      const wait = attempt < maxRetries && !signal?.aborted ? retryAfterWaitMs(res.statusCode, res.headers) : undefined;
      if (wait !== undefined) {
        await res.body.dump().catch(() => undefined);
        metrics?.requestRetry?.({ verb: o.method, host, path: o.path, reason: String(res.statusCode) });
        await this.clock.sleep(wait, signal);
        continue;
      }
      throw statusErrorFrom(res.statusCode, parseBody(await res.body.text(), res.headers['content-type']));
    }
  }

  /** A request whose response body is decoded (JSON or YAML by its content type; text otherwise). */
  async request<T = unknown>(o: RequestOptions): Promise<T> {
    const res = await this.send(o, false);
    return parseBody(await res.body.text(), res.headers['content-type']) as T;
  }

  /** A request whose response body is returned as text, undecoded (logs). */
  async requestText(o: RequestOptions): Promise<string> {
    const res = await this.send(o, false);
    return res.body.text();
  }

  /** A request whose response body is handed over as a stream (watches, logs). Retries only until headers arrive. */
  async stream(o: RequestOptions): Promise<StreamResponse> {
    const inner = new AbortController();
    const signal = o.signal ? AbortSignal.any([o.signal, inner.signal]) : inner.signal;
    const res = await this.send({ ...o, signal }, true);
    return {
      statusCode: res.statusCode,
      headers: res.headers,
      body: res.body as AsyncIterable<Buffer>,
      close: () => { inner.abort(); res.body.destroy(); },
    };
  }

  private closing?: Promise<void>;

  /** Closes the connection pool; closing again waits for the same close. */
  close(): Promise<void> {
    this.closing ??= Promise.all([this.dispatcher.close(), this.streams === this.dispatcher ? undefined : this.streams.close()]).then(() => {});
    return this.closing;
  }
}

export const parseBody = (text: string, contentType: string | string[] | undefined): unknown => {
  const ct = Array.isArray(contentType) ? contentType[0] : contentType;
  if (text === '') return undefined;
  try {
    return isYaml(ct) ? parseYaml(text) : JSON.parse(text);
  } catch {
    return text;
  }
};
