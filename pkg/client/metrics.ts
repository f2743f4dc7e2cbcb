// Metrics hooks, as client-go's tools/metrics: the client calls these; the user wires them to prom-client or logs.
export interface ClientMetrics {
  /** One finished request (each attempt counts): latency in ms, `code` 0 when no response came back. */
  requestResult?(r: { verb: string; host: string; path: string; code: number; latencyMs: number }): void;
  /** One retry about to happen, with why (a status code or "connection"). */
  requestRetry?(r: { verb: string; host: string; path: string; reason: string }): void;
  /** How long a request waited in the client-side rate limiter, in ms. */
  rateLimiterLatency?(r: { verb: string; host: string; latencyMs: number }): void;
}
