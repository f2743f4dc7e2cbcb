// The request chain, in order, in one place (upstream: DefaultBuildHandlerChain). Everything here
// runs in fastify's onRequest, before the body is read: a request that fails authentication,
// authorization or the in-flight limit never has its body parsed.
//
//   panic recovery  -> the error handler (errors.ts) turns anything thrown into a Status
//   audit ID, cache -> the Audit-Id and Cache-Control response headers
//   request info    -> request.info
//   shutdown        -> graceful-shutdown.ts: once the server is stopping, new requests refused (503, or 429 with Retry-After)
//   deadline        -> request-deadline.ts: 504 Timeout for a request not answered within its timeout
//   authentication  -> request.user, credential headers removed; a 401 is audited as upstream's failed authentication
//   audit           -> audit.ts: the policy's level and RequestReceived here; later stages as the response goes out
//   impersonation   -> impersonation.ts: Impersonate-* headers, each checked with the impersonate verb
//   priority and fairness (flowcontrol/apf.ts), or max-in-flight -> queued, or 429 TooManyRequests with Retry-After
//   authorization   -> 403 Forbidden with upstream's message
//   (admission runs inside the registry, on the decoded object)
import type { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, isStatusError, tooManyRequests } from '../apimachinery/errors.js';
import { andThen } from '../apimachinery/maybe-async.js';
import { newUid } from '../apimachinery/meta.js';
import type { RequestAuthenticator } from '../authentication/index.js';
import type { UserInfo } from '../authentication/interface.js';
import type { Attributes, AuthorizationResult, Authorizer } from '../authorization/index.js';
import { fieldSelectorValue } from '../authorization/node.js';
import type { Audit } from './audit.js';
import type { Admission, FlowControl } from './flowcontrol/apf.js';
import { sendStatusError } from './errors.js';
import { impersonate, isImpersonationHeader } from './impersonation.js';
import { isLongRunning } from './long-running.js';
import { requestDeadline } from './request-deadline.js';
import { requestInfo } from './request-info.js';

export interface ChainOptions {
  authenticator: RequestAuthenticator;
  authorizer: Authorizer;
  audit: Audit;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  /** Reports the in-flight counts (readOnly, mutating) as they change. */
  onInflight?: (readonly: number, mutating: number) => void;
  /** API Priority and Fairness in place of the max-in-flight limits. */
  flowControl?: FlowControl;
  /** --request-timeout: the longest a request that is not long-running is waited for. */
  requestTimeoutMs: number;
  /** Right after request info: graceful shutdown's refusals and its count of requests in flight. */
  shutdown?: (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;
}

/** Pod subresources a GET (a WebSocket) may open only with `create` too (upstream's AuthorizePodWebsocketUpgradeCreatePermission). */
const CONNECT_SUBRESOURCES = new Set(['attach', 'exec', 'portforward']);
const READONLY = new Set(['get', 'list', 'watch']);

/** A step of the chain: it waits (returns a promise) only when it must. */
type Stage = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

export function installChain(app: FastifyInstance, o: ChainOptions): void {
  app.addHook('onRequest', (request, reply, done) => {
    // upstream's WithAuditInit and WithCacheControl: every response carries its audit ID (the client's, if it sent
    // one) and is not to be cached unless a handler says otherwise
    const auditId = request.headers['audit-id'];
    reply.header('audit-id', typeof auditId === 'string' && auditId ? auditId : newUid());
    reply.header('cache-control', 'no-cache, private');
    try {
      request.info = requestInfo(request.method, request.url, request.query as Record<string, unknown>);
    } catch (e) {
      return done(e as Error);
    }
    done();
  });
  if (o.shutdown) app.addHook('onRequest', o.shutdown);
  app.addHook('onRequest', requestDeadline(o.requestTimeoutMs, sendStatusError));

  // Before authorization, as upstream's chain: a request is limited whether or not it will be allowed.
  const stages: Stage[] = [authentication(o), ...(o.audit.enabled ? [o.audit.begin] : []), impersonation(o),
    o.flowControl ? priorityAndFairness(o.flowControl, o.onInflight) : maxInFlight(o), authorization(o)];
  // One callback hook for the steps after request info: an async hook costs a promise round trip on every
  // request, and most steps (a known client certificate, no impersonation, a free seat) have nothing to wait for.
  const run = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void, from: number): void => {
    for (let i = from; i < stages.length; i++) {
      let waiting;
      try {
        waiting = stages[i]!(request, reply);
      } catch (e) {
        return done(e as Error);
      }
      if (waiting) {
        waiting.then(() => run(request, reply, done, i + 1), done);
        return;
      }
    }
    done();
  };
  app.addHook('onRequest', (request, reply, done) => run(request, reply, done, 0));

  if (o.audit.enabled) {
    app.addHook('onSend', async (request, reply, payload) => {
      o.audit.onSend(request, reply, payload);
      return payload;
    });
    app.addHook('onError', async (request, _reply, err) => {
      o.audit.onError(request, err);
    });
  }
}

function authentication(o: ChainOptions): Stage {
  // A connection's client certificate cannot change: when it is the only credential, its verified
  // identity is kept for the connection until the certificate expires (verification costs more
  // than the rest of a small request).
  const byConnection = new WeakMap<TLSSocket, { user: UserInfo; until: number }>();
  const verify = async (request: FastifyRequest, reply: FastifyReply, socket: TLSSocket | undefined, certOnly: boolean): Promise<void> => {
    const peer = socket?.getPeerX509Certificate?.() as X509Certificate | undefined;
    let authenticated;
    try {
      authenticated = await o.authenticator.authenticate({ headers: request.headers, peerCertificate: peer });
    } catch (e) {
      if (isStatusError(e) && e.code === 401) o.audit.failedAuthentication(request, reply);
      throw e;
    }
    const { user, consumedHeaders } = authenticated;
    request.user = user;
    for (const h of consumedHeaders ?? []) delete request.headers[h.toLowerCase()];
    if (certOnly && socket && peer) byConnection.set(socket, { user, until: Date.parse(peer.validTo) });
  };
  return (request, reply) => {
    const socket = tlsSocketOf(request);
    const certOnly = socket !== undefined && request.headers.authorization === undefined && !anyHeader(request, isRemoteHeader);
    const cached = certOnly ? byConnection.get(socket) : undefined;
    if (cached && Date.now() < cached.until) {
      request.user = cached.user;
      return;
    }
    return verify(request, reply, socket, certOnly);
  };
}

function impersonation(o: ChainOptions): Stage {
  const as = async (request: FastifyRequest): Promise<void> => {
    const user = await impersonate(request.user!, request.raw.rawHeaders, o.authorizer);
    if (!user) return;
    request.user = user;
    for (const h of Object.keys(request.headers)) if (isImpersonationHeader(h)) delete request.headers[h];
  };
  return (request) => (anyHeader(request, isImpersonationHeader) ? as(request) : undefined);
}

function authorization(o: ChainOptions): Stage {
  // At once when the authorizers answer at once, as they mostly do from their caches.
  const decide = (request: FastifyRequest, attrs: Attributes, r: AuthorizationResult): Promise<void> | void => {
    const i = request.info;
    o.audit.annotate(request, 'authorization.k8s.io/decision', r.decision === 'allow' ? 'allow' : 'forbid');
    o.audit.annotate(request, 'authorization.k8s.io/reason', r.reason);
    if (r.decision !== 'allow') throw forbiddenFor(request, r.reason);
    if (i.verb === 'get' && i.resource === 'pods' && i.apiGroup === '' && CONNECT_SUBRESOURCES.has(i.subresource)) {
      const allowedToCreate = (c: AuthorizationResult): void => {
        if (c.decision !== 'allow') throw forbiddenFor(request, c.reason, 'create');
      };
      return andThen(o.authorizer.authorize({ ...attrs, verb: 'create' }), allowedToCreate);
    }
  };
  return (request) => {
    const i = request.info;
    const user = request.user!;
    const q = request.query as Record<string, unknown>;
    const fieldSelector = typeof q.fieldSelector === 'string' ? q.fieldSelector : undefined;
    const labelSelector = typeof q.labelSelector === 'string' ? q.labelSelector : undefined;
    // As upstream's RequestInfo: a list or watch pinned to one name by metadata.name is about that name.
    const name = i.name || (i.verb === 'list' || i.verb === 'watch' ? fieldSelectorValue(fieldSelector, 'metadata.name') ?? '' : '');
    const attrs = {
      user, verb: i.verb, isResourceRequest: i.isResourceRequest, path: i.path, namespace: i.namespace,
      apiGroup: i.apiGroup, apiVersion: i.apiVersion, resource: i.resource, subresource: i.subresource, name, fieldSelector, labelSelector,
    };
    return andThen(o.authorizer.authorize(attrs), (r) => decide(request, attrs, r));
  };
}

/** Long-running requests other than watches skip the limits (a watch holds its seat until it has started). */
const skipsLimits = (i: FastifyRequest['info']): boolean => i.verb !== 'watch' && isLongRunning(i);

/**
 * The seat is freed when the response is done ('close' follows 'finish' and an aborted response alike); a watch's
 * once it has started (upstream: after its initial events).
 */
function holdUntilDone(request: FastifyRequest, reply: FastifyReply, release: () => void): void {
  if (request.info.verb === 'watch') { release(); return; }
  reply.raw.once('close', release);
}

/** --enable-priority-and-fairness=false: upstream's max-in-flight filter, readonly and mutating counted apart. */
function maxInFlight(o: ChainOptions): Stage {
  let readonlyInflight = 0;
  let mutatingInflight = 0;
  return (request, reply) => {
    const verb = request.info.verb;
    if (isLongRunning(request.info) || !request.info.isResourceRequest) return;
    const readonly = READONLY.has(verb);
    const limit = readonly ? o.maxRequestsInflight : o.maxMutatingRequestsInflight;
    // 0 means no limit, as upstream's flags have it; system:masters are always answered
    if (limit > 0 && (readonly ? readonlyInflight : mutatingInflight) >= limit && !request.user?.groups.includes('system:masters')) {
      reply.header('retry-after', '1');
      throw tooManyRequests('Too many requests, please try again later.', 1);
    }
    if (readonly) readonlyInflight++;
    else mutatingInflight++;
    o.onInflight?.(readonlyInflight, mutatingInflight);
    let released = false;
    holdUntilDone(request, reply, () => {
      if (released) return;
      released = true;
      if (readonly) readonlyInflight--;
      else mutatingInflight--;
      o.onInflight?.(readonlyInflight, mutatingInflight);
    });
  };
}

/** Classified, queued or refused by API Priority and Fairness; the response names the schema and level. */
function priorityAndFairness(fc: FlowControl, onInflight: ChainOptions['onInflight']): Stage {
  // apiserver_current_inflight_requests still counts what executes, readonly and mutating apart, as upstream's APF filter does
  const executing = { readonly: 0, mutating: 0 };
  const admitted = (request: FastifyRequest, reply: FastifyReply, a: Admission | undefined): void => {
    if (!a) return;
    reply.header('x-kubernetes-pf-flowschema-uid', a.classification.flowSchemaUid);
    reply.header('x-kubernetes-pf-prioritylevel-uid', a.levelUid);
    if ('rejected' in a) {
      reply.header('retry-after', '1');
      throw tooManyRequests('Too many requests, please try again later.', 1);
    }
    const kind = READONLY.has(request.info.verb) ? 'readonly' : 'mutating';
    executing[kind]++;
    onInflight?.(executing.readonly, executing.mutating);
    let released = false;
    holdUntilDone(request, reply, () => {
      if (released) return;
      released = true;
      executing[kind]--;
      onInflight?.(executing.readonly, executing.mutating);
      a.ticket.release();
    });
  };
  return (request, reply) => {
    const i = request.info;
    if (skipsLimits(i)) return;
    const attrs = {
      user: request.user!, verb: i.verb, isResourceRequest: i.isResourceRequest, apiGroup: i.apiGroup, resource: i.resource,
      subresource: i.subresource, namespace: i.namespace, path: i.path,
    };
    // a client that goes away while its request waits leaves the queue
    return andThen(fc.admit(attrs, (leave) => { reply.raw.once('close', leave); return () => reply.raw.off('close', leave); }), (a) => admitted(request, reply, a));
  };
}

const isRemoteHeader = (name: string): boolean => name.startsWith('x-remote-');

/** Whether a header's (lower-case) name passes `test`: asked on every request, so without an array of the names. */
function anyHeader(request: FastifyRequest, test: (name: string) => boolean): boolean {
  for (const name in request.headers) if (test(name)) return true;
  return false;
}

function tlsSocketOf(request: FastifyRequest): TLSSocket | undefined {
  // HTTP/2 streams share their session's socket; HTTP/1.1 requests have their own.
  const raw = request.raw as unknown as { stream?: { session?: { socket?: TLSSocket } }; socket?: TLSSocket };
  return raw.stream?.session?.socket ?? raw.socket;
}

/** Upstream's wording: `pods "x" is forbidden: User "u" cannot get resource "pods" in API group "" in the namespace "ns"`. */
function forbiddenFor(request: FastifyRequest, reason: string, verb = request.info.verb): Error {
  const i = { ...request.info, verb };
  const user = request.user?.name ?? '';
  const suffix = reason ? `: ${reason}` : '';
  if (!i.isResourceRequest) {
    return forbidden(`forbidden: User "${user}" cannot ${i.verb} path "${i.path}"${suffix}`);
  }
  const resource = i.subresource ? `${i.resource}/${i.subresource}` : i.resource;
  const gr = i.apiGroup ? `${i.resource}.${i.apiGroup}` : i.resource;
  const what = i.name ? `${gr} "${i.name}"` : gr;
  const scope = i.namespace ? ` in the namespace "${i.namespace}"` : ' at the cluster scope';
  return forbidden(`${what} is forbidden: User "${user}" cannot ${i.verb} resource "${resource}" in API group "${i.apiGroup}"${scope}${suffix}`,
    { name: i.name || undefined, group: i.apiGroup || undefined, kind: i.resource });
}
