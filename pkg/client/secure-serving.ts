// Secure serving as servers outside the apiserver do it (k8s.io/apiserver's SecureServingOptions with delegated
// authentication and authorization, which kube-scheduler, kube-controller-manager and metrics-server use; the
// filters controller-runtime's metrics server puts in front of /metrics): HTTPS with a given or self-signed
// certificate; who asks is a client certificate of the cluster's client CA (or the front proxy's, vouching for the
// user in its request headers), a bearer token the apiserver reviews, or system:anonymous without credentials; what
// they may do is a SubjectAccessReview, but for the always-allowed paths (/healthz, /readyz, /livez). The CAs, allowed
// names and header names come from kube-system/extension-apiserver-authentication, re-read every minute as upstream's
// dynamic CA controllers do. Serves /healthz, /livez, /readyz (named checks, ?verbose), /metrics and /configz when
// given, and hands every other request to the caller.
import { X509Certificate } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { isStatusError, StatusError } from '../apimachinery/errors.js';
import type { Client } from './client.js';
import { DelegatedAuth, type AccessAttributes, type UserIdentity } from './delegated-auth.js';
import { selfSignedServingPair } from './self-signed-serving.js';

// --- delegated authentication --------------------------------------------------------------------------------------

export interface RequestHeaderConfig {
  clientCa: X509Certificate[];
  allowedNames: string[];
  usernameHeaders: string[];
  uidHeaders: string[];
  groupHeaders: string[];
  extraHeadersPrefix: string[];
}

export interface AuthenticationConfig {
  /** PEM of the cluster's client CA (client-ca-file), when the apiserver publishes one. */
  clientCaPem?: string;
  clientCa: X509Certificate[];
  requestHeader?: RequestHeaderConfig;
  /** PEM of the front-proxy CA, for the TLS server's list of acceptable issuers. */
  requestHeaderCaPem?: string;
}

export const ANONYMOUS: UserIdentity = { user: 'system:anonymous', groups: ['system:unauthenticated'] };

/** Every certificate of a PEM bundle. */
const certificates = (pem: string | undefined): X509Certificate[] =>
  (pem?.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((c) => new X509Certificate(c));

const list = (json: string | undefined): string[] => {
  try {
    const v = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/** The configuration kube-system/extension-apiserver-authentication publishes. */
export async function readAuthenticationConfig(client: Client): Promise<AuthenticationConfig> {
  const cm = await client.configMaps('kube-system').get('extension-apiserver-authentication');
  const data = (cm.data ?? {}) as Record<string, string>;
  const rhCa = data['requestheader-client-ca-file'];
  return {
    clientCaPem: data['client-ca-file'],
    clientCa: certificates(data['client-ca-file']),
    requestHeaderCaPem: rhCa,
    ...(rhCa ? {
      requestHeader: {
        clientCa: certificates(rhCa), allowedNames: list(data['requestheader-allowed-names']),
        usernameHeaders: list(data['requestheader-username-headers']), uidHeaders: list(data['requestheader-uid-headers']),
        groupHeaders: list(data['requestheader-group-headers']), extraHeadersPrefix: list(data['requestheader-extra-headers-prefix']),
      },
    } : {}),
  };
}

const issuedBy = (cert: X509Certificate, cas: X509Certificate[]): boolean => cas.some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey));

const headerValues = (headers: IncomingHttpHeaders, name: string): string[] => {
  const v = headers[name.toLowerCase()];
  return v === undefined ? [] : ([] as string[]).concat(v).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
};

/** The user the front proxy names in its headers (the first non-empty username header), or undefined. */
function fromRequestHeaders(rh: RequestHeaderConfig, headers: IncomingHttpHeaders): UserIdentity | undefined {
  const user = rh.usernameHeaders.map((h) => headerValues(headers, h)[0]).find(Boolean);
  if (!user) return undefined;
  const extra: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const prefix = rh.extraHeadersPrefix.find((p) => name.startsWith(p.toLowerCase()));
    if (!prefix || value === undefined) continue;
    const key = decodeURIComponent(name.slice(prefix.length)).toLowerCase();
    (extra[key] ??= []).push(...([] as string[]).concat(value));
  }
  const uid = rh.uidHeaders.map((h) => headerValues(headers, h)[0]).find(Boolean);
  return {
    user, groups: rh.groupHeaders.flatMap((h) => headerValues(headers, h)),
    ...(uid ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** Every authenticated user is in system:authenticated (upstream's AuthenticatedGroupAdder). */
const withAuthenticated = (who: UserIdentity): UserIdentity =>
  (who.user === ANONYMOUS.user || who.groups.includes('system:authenticated') ? who : { ...who, groups: [...who.groups, 'system:authenticated'] });

/**
 * The requester, or a reason it is refused (401). A request without credentials is anonymous; a certificate or a
 * token that does not check out is refused, as upstream's union authenticator does when one of them errs.
 */
export async function authenticate(config: AuthenticationConfig, auth: DelegatedAuth, socket: TLSSocket, headers: IncomingHttpHeaders): Promise<UserIdentity | string> {
  const raw = socket.getPeerCertificate?.()?.raw;
  if (raw) {
    const cert = new X509Certificate(raw);
    const cn = /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1] ?? '';
    const rh = config.requestHeader;
    if (rh && issuedBy(cert, rh.clientCa) && new Date(cert.validTo) > new Date()) {
      if (rh.allowedNames.length && !rh.allowedNames.includes(cn)) return `client certificate CN "${cn}" is not in the allowed names of the request-header CA`;
      const who = fromRequestHeaders(rh, headers);
      if (who) return withAuthenticated(who);
    }
    if (issuedBy(cert, config.clientCa) && new Date(cert.validTo) > new Date()) {
      const groups = cert.subject.split('\n').filter((l) => l.startsWith('O=')).map((l) => l.slice(2));
      return withAuthenticated({ user: cn, groups });
    }
    return 'x509: certificate signed by unknown authority';
  }
  const token = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
  if (token) {
    const who = await auth.authenticateToken(token);
    return who ?? 'invalid bearer token';
  }
  return ANONYMOUS;
}

// --- health checks -------------------------------------------------------------------------------------------------

/** A named check of /healthz, /livez or /readyz: true when healthy. */
export interface HealthCheck { name: string; check(): boolean | Promise<boolean> }

/** Upstream's PingHealthz: always healthy (what an endpoint without checks lists). */
export const PING: HealthCheck = { name: 'ping', check: () => true };

/**
 * The answer of a health endpoint as k8s.io/apiserver's healthz handler gives it: `ok`, or with ?verbose (or on a
 * failure) one line per check and `<endpoint> check passed|failed`; /<endpoint>/<check> asks one check; ?exclude=<check>
 * skips one. Undefined when `path` is not under the endpoint or names no check (404).
 */
export async function healthResponse(endpoint: string, checks: HealthCheck[], path: string, query: URLSearchParams): Promise<{ code: number; body: string } | undefined> {
  const only = path === `/${endpoint}` ? undefined : path.startsWith(`/${endpoint}/`) ? decodeURIComponent(path.slice(endpoint.length + 2)) : null;
  if (only === null) return undefined;
  const list = checks.length ? checks : [PING];
  const selected = only ? list.filter((c) => c.name === only) : list;
  if (only && !selected.length) return undefined;
  const excluded = new Set(query.getAll('exclude'));
  const results = await Promise.all(selected.map(async (c) => ({ name: c.name, ok: excluded.has(c.name) || (await Promise.resolve(c.check()).catch(() => false)) })));
  const ok = results.every((r) => r.ok);
  if (only) return { code: ok ? 200 : 500, body: ok ? 'ok' : `[-]${only} failed: reason withheld\n` };
  if (ok && !query.has('verbose')) return { code: 200, body: 'ok' };
  const lines = results.map((r) => (r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed: reason withheld`));
  return { code: ok ? 200 : 500, body: `${lines.join('\n')}\n${endpoint} check ${ok ? 'passed' : 'failed'}\n` };
}

// --- the server ----------------------------------------------------------------------------------------------------

export interface SecureServingOptions {
  /** The component's client: reads the authentication ConfigMap, makes the TokenReviews and SubjectAccessReviews. */
  client: Client;
  logger: Logger;
  bindAddress: string;
  /** 0: any free port (start() resolves with it). */
  port: number;
  /** Serving certificate (with its chain) and key, PEM; default a self-signed one for localhost, made at start. */
  tls?: { cert: string; key: string };
  /** Paths served to anyone authenticated or anonymous (upstream's --authorization-always-allow-paths); a trailing * is a prefix. */
  alwaysAllowPaths?: string[];
  /** The checks of /healthz, /livez and /readyz, each served when given (with no checks it lists `ping`). */
  health?: { healthz?: HealthCheck[]; livez?: HealthCheck[]; readyz?: HealthCheck[] };
  /** Served on /metrics in Prometheus text format. */
  metrics?: Registry;
  /** Served on /configz (upstream's configz: `{"<name>": <configuration>}`). */
  configz?: () => unknown;
  /** What a request asks of the authorizer; default: its path, with the verb of its method (GET: get, POST: create, ...). */
  attributes?(method: string, url: URL): AccessAttributes;
  /** The 403 of a refused request; default upstream's `forbidden: User "u" cannot get path "/p"`. */
  forbidden?(who: UserIdentity, attrs: AccessAttributes): StatusError;
  /** Every other request, once authenticated and authorized; without one they are 404. */
  handler?(req: IncomingMessage, res: ServerResponse, who: UserIdentity, url: URL): void | Promise<void>;
  /** Reviews and their caches (default: upstream's delegating TTLs, 10 s). */
  auth?: DelegatedAuth;
}

export const DEFAULT_ALWAYS_ALLOW_PATHS = ['/healthz', '/readyz', '/livez'];
const AUTH_CONFIG_REFRESH_MS = 60_000;
const VERBS: Record<string, string> = { GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** The verb a non-resource request asks for (upstream's RequestInfoFactory for non-resource paths). */
export const verbOf = (method: string): string => VERBS[method.toUpperCase()] ?? method.toLowerCase();

/** Writes a text (text/plain) or an object (JSON) answer. */
export function send(res: ServerResponse, code: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(code, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

/** Writes a StatusError as its Status object. */
export const sendStatus = (res: ServerResponse, e: StatusError): void => send(res, e.code, e.toStatus());

/** Upstream's 403 of a refused non-resource request: `forbidden: User "u" cannot get path "/metrics"`. */
export const forbiddenPath = (who: UserIdentity, attrs: AccessAttributes): StatusError =>
  new StatusError(403, 'Forbidden', 'path' in attrs
    ? `forbidden: User "${who.user}" cannot ${attrs.verb} path "${attrs.path}"`
    : `forbidden: User "${who.user}" cannot ${attrs.verb} resource "${attrs.resource}"`);

export class SecureServer {
  private server?: Server;
  private readonly auth: DelegatedAuth;
  private authConfig: AuthenticationConfig = { clientCa: [] };
  private readonly allowed: { exact: Set<string>; prefixes: string[] };

  constructor(private readonly o: SecureServingOptions) {
    this.auth = o.auth ?? new DelegatedAuth(o.client);
    const paths = o.alwaysAllowPaths ?? DEFAULT_ALWAYS_ALLOW_PATHS;
    this.allowed = { exact: new Set(paths.filter((p) => !p.endsWith('*'))), prefixes: paths.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1)) };
  }

  /**
   * Reads the authentication configuration (waiting while the apiserver is not up yet), listens, and resolves with
   * the port; serves until the signal aborts.
   */
  async start(signal: AbortSignal): Promise<number> {
    const tls = this.o.tls ?? await selfSignedServingPair();
    this.authConfig = await this.readAuthConfig(signal);
    const server = createServer({ ...tls, ...this.clientCas(), requestCert: true, rejectUnauthorized: false }, (req, res) => {
      void this.handle(req, res);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port, this.o.bindAddress, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    this.o.logger.info({ address: this.o.bindAddress, port }, 'Serving securely');
    const refresh = setInterval(() => {
      void readAuthenticationConfig(this.o.client).then((c) => {
        this.authConfig = c;
        server.setSecureContext({ ...tls, ...this.clientCas() });
      }, (err: unknown) => this.o.logger.warn({ err }, 'Failed to re-read extension-apiserver-authentication'));
    }, AUTH_CONFIG_REFRESH_MS);
    refresh.unref();
    signal.addEventListener('abort', () => {
      clearInterval(refresh);
      server.closeAllConnections();
      server.close();
    }, { once: true });
    return port;
  }

  /** The CAs client certificates may chain to: the cluster's client CA and the front proxy's. */
  private clientCas(): { ca?: string[] } {
    const cas = [this.authConfig.clientCaPem, this.authConfig.requestHeaderCaPem].filter((p): p is string => !!p);
    return cas.length ? { ca: cas } : {};
  }

  /** kube-system/extension-apiserver-authentication, waited for while the apiserver is not up yet. */
  private async readAuthConfig(signal: AbortSignal): Promise<AuthenticationConfig> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await readAuthenticationConfig(this.o.client);
      } catch (err) {
        if (signal.aborted) throw err;
        if (attempt % 40 === 0) this.o.logger.warn({ err }, 'Unable to read kube-system/extension-apiserver-authentication (retrying); the role extension-apiserver-authentication-reader there is needed');
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private alwaysAllowed(path: string): boolean {
    return this.allowed.exact.has(path) || this.allowed.prefixes.some((p) => path.startsWith(p));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const who = await authenticate(this.authConfig, this.auth, req.socket as TLSSocket, req.headers);
      if (typeof who === 'string') {
        this.o.logger.debug({ reason: who }, 'Unauthorized');
        sendStatus(res, new StatusError(401, 'Unauthorized', 'Unauthorized'));
        return;
      }
      const method = req.method ?? 'GET';
      if (!this.alwaysAllowed(url.pathname)) {
        const attrs = this.o.attributes?.(method, url) ?? { verb: verbOf(method), path: url.pathname };
        if (!(await this.auth.allowed(who, attrs))) { sendStatus(res, (this.o.forbidden ?? forbiddenPath)(who, attrs)); return; }
      }
      if (await this.serveBuiltIn(method, url, res)) return;
      if (this.o.handler) await this.o.handler(req, res, who, url);
      else send(res, 404, '404 page not found\n');
    } catch (err) {
      if (isStatusError(err)) { sendStatus(res, err); return; }
      this.o.logger.error({ err, url: req.url }, 'Request failed');
      sendStatus(res, new StatusError(500, 'InternalError', `Internal error occurred: ${(err as Error).message}`));
    }
  }

  /** /healthz, /livez, /readyz, /metrics, /configz when configured; false for another path. */
  private async serveBuiltIn(method: string, url: URL, res: ServerResponse): Promise<boolean> {
    const path = url.pathname;
    const health = this.o.health;
    if (health) {
      for (const endpoint of ['healthz', 'livez', 'readyz'] as const) {
        // an endpoint the component does not give is not served (kube-controller-manager has /healthz alone)
        if ((path !== `/${endpoint}` && !path.startsWith(`/${endpoint}/`)) || !health[endpoint]) continue;
        const answer = await healthResponse(endpoint, health[endpoint], path, url.searchParams);
        if (answer) send(res, answer.code, answer.body);
        else send(res, 404, '404 page not found\n');
        return true;
      }
    }
    if (path === '/metrics' && this.o.metrics) {
      if (method !== 'GET' && method !== 'HEAD') { send(res, 405, 'Method Not Allowed\n'); return true; }
      const text = await this.o.metrics.metrics();
      res.writeHead(200, { 'content-type': this.o.metrics.contentType });
      res.end(text);
      return true;
    }
    if (path === '/configz' && this.o.configz) {
      if (method !== 'GET') { send(res, 405, `unsupported method ${method}\n`); return true; }
      send(res, 200, this.o.configz());
      return true;
    }
    return false;
  }
}
