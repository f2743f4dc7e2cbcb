// RestConfig: where the apiserver is and how to talk to it (client-go's rest.Config).
import { KUBERNETES_RELEASE } from '../apimachinery/release.js';
import type { Clock } from './clock.js';
import type { RateLimiter } from './flowcontrol.js';
import type { ClientMetrics } from './metrics.js';

export interface RestConfig {
  /** https://host:port (a path prefix is kept). */
  host: string;
  /** PEM of the certificate authority to trust; the system roots when unset. */
  caData?: string;
  /** The file caData was read from, when a kubeconfig named one (client-go's CAFile). */
  caFile?: string;
  /** PEM client certificate and key (mutual TLS). */
  certData?: string;
  keyData?: string;
  bearerToken?: string;
  /** A file holding the token, re-read at most once a minute (projected service-account tokens rotate). */
  bearerTokenFile?: string;
  username?: string;
  password?: string;
  insecureSkipTLSVerify?: boolean;
  /** SNI / the name the server certificate must carry, when it differs from the host. */
  tlsServerName?: string;
  /** Client-side rate limit: requests per second (default 5; <= 0 or Infinity: unlimited) and burst (default 10). */
  qps?: number;
  burst?: number;
  /** Replaces the qps/burst limiter (share one between clients). */
  rateLimiter?: RateLimiter;
  /** Default "mini-kube-client/0.1.0 (<platform>/<arch>)". */
  userAgent?: string;
  /**
   * Connections per apiserver for requests (default 64); more requests than that wait for one, as they would for
   * the streams of client-go's single HTTP/2 connection. Watches and other streams are not counted.
   */
  maxConnections?: number;
  /** Per-request timeout in ms for everything but watches, retries included (default none). */
  timeoutMs?: number;
  /** Retries of one request on a Retry-After or a dropped connection (default 10 as client-go's maxRetries; retry-policy.ts). */
  maxRetries?: number;
  metrics?: ClientMetrics;
  clock?: Clock;
}

export const DEFAULT_QPS = 5;
export const DEFAULT_BURST = 10;
export const DEFAULT_MAX_CONNECTIONS = 64;
export const defaultUserAgent = (): string => `mini-kube-client/0.1.0 (${process.platform}/${process.arch})`;

export { KUBERNETES_RELEASE } from '../apimachinery/release.js';

/**
 * A component's user agent as upstream's binaries send it ("kubelet/v1.32.3 (linux/amd64) kubernetes/…"): the
 * server names a writer's managedFields entry after the part before the first "/", so a pod's status is the
 * kubelet's, as in any cluster.
 */
export const componentUserAgent = (component: string, detail?: string): string =>
  `${component}/${KUBERNETES_RELEASE} (${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}) kubernetes/mini-kube${detail ? `/${detail}` : ''}`;
