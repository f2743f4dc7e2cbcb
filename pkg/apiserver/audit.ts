// Audit (--audit-policy-file, and the backends of audit-sinks.ts: --audit-log-path, --audit-webhook-config-file):
// audit.k8s.io/v1 Events. The
// policy, asked once per request about the authenticated user, sets the level: None records nothing; Metadata the
// request's who/what/outcome; Request adds the request body; RequestResponse the response body too. Stages:
// RequestReceived (before authorization), ResponseStarted (long-running requests, when the headers go out),
// ResponseComplete, or Panic instead when a handler failed unexpectedly. Without a policy file every request is
// recorded at Metadata when it completes. A request that fails authentication gets one event, ResponseStarted with
// the 401 and no user (upstream's WithFailedAuthenticationAudit). Upstream: apiserver/pkg/endpoints/filters/audit.go,
// authn_audit.go and pkg/audit.
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isStatusError } from '../apimachinery/errors.js';
import { formatMicroTime, preciseNow } from '../apimachinery/time.js';
import type { UserInfo } from '../authentication/interface.js';
import { decodeBody } from './negotiation.js';
import { DEFAULT_POLICY, evaluatePolicy, type AuditDecision, type Policy, type Stage } from './audit-policy.js';
import type { AuditSink } from './audit-sinks.js';
import { isLongRunning } from './long-running.js';

export interface Audit {
  /** False without a backend: the chain then installs no audit hooks at all. */
  readonly enabled: boolean;
  /** Evaluates the policy and records RequestReceived; arranges the later stages. */
  begin(request: FastifyRequest, reply: FastifyReply): void;
  /** Records a request that failed authentication (it goes no further). */
  failedAuthentication(request: FastifyRequest, reply: FastifyReply): void;
  /** An annotation for the request's later events (authorization.k8s.io/decision, ...). */
  annotate(request: FastifyRequest, key: string, value: string): void;
  /** Sees the response body before it goes out (the Status of a failure; the object at RequestResponse). */
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): void;
  /** Sees what a handler threw: anything but a Status error is a panic. */
  onError(request: FastifyRequest, err: Error): void;
  close(): Promise<void>;
}

interface InFlight {
  decision: AuditDecision;
  event: Record<string, unknown>;
  annotations: Record<string, string>;
  user?: UserInfo;
  responseStatus?: Record<string, unknown>;
  responseObject?: unknown;
  panic?: Error;
  /** The status code of the ResponseStarted event, once it was recorded (101 for an upgrade the handler took over). */
  startedCode?: number;
}

const LEVEL_RANK = { None: 0, Metadata: 1, Request: 2, RequestResponse: 3 } as const;
const atLeast = (d: AuditDecision, level: keyof typeof LEVEL_RANK): boolean => LEVEL_RANK[d.level] >= LEVEL_RANK[level];

const auditUser = (u: UserInfo): Record<string, unknown> => ({
  username: u.name, ...(u.uid ? { uid: u.uid } : {}), groups: u.groups, ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}),
});

/** Upstream's responseStatus message for a failed authentication: which credentials the request carried. */
function attemptedMethods(request: FastifyRequest): string {
  const methods: string[] = [];
  const [scheme, credential] = (request.headers.authorization ?? '').trim().split(' ');
  if (scheme?.toLowerCase() === 'basic' && credential) methods.push('basic');
  if (scheme?.toLowerCase() === 'bearer' && credential) methods.push('bearer');
  const q = request.query as Record<string, unknown> | undefined;
  if (typeof q?.access_token === 'string' && q.access_token.trim()) methods.push('access_token');
  const raw = request.raw as unknown as { socket?: { getPeerCertificate?: () => { raw?: Buffer } } };
  if (raw.socket?.getPeerCertificate?.()?.raw) methods.push('x509');
  return methods.length ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

/** A JSON, YAML or protobuf body as its object, as the handlers decode it. */
function decoded(body: unknown, contentType: string | undefined): unknown {
  if (!Buffer.isBuffer(body) || body.length === 0) return undefined;
  try {
    return decodeBody(body, contentType, undefined, true);
  } catch {
    // Malformed: the request fails with its own Status; the event goes without the body.
    return undefined;
  }
}

function withoutManagedFields(obj: unknown): unknown {
  if (!obj || typeof obj !== 'object') return obj;
  const o = obj as { metadata?: Record<string, unknown>; items?: unknown[] };
  let out: Record<string, unknown> = o;
  if (o.metadata?.managedFields) out = { ...out, metadata: { ...o.metadata, managedFields: undefined } };
  if (Array.isArray(o.items)) out = { ...out, items: o.items.map(withoutManagedFields) };
  return out;
}

export function createAudit(sinks: AuditSink[], policy: Policy = DEFAULT_POLICY): Audit {
  const off = { enabled: false, begin: () => {}, failedAuthentication: () => {}, annotate: () => {}, onSend: () => {}, onError: () => {}, close: async () => {} };
  if (!sinks.length) return off;
  const requests = new WeakMap<FastifyRequest, InFlight>();

  const emit = (f: InFlight, stage: Stage, current: UserInfo | undefined): void => {
    if (f.decision.omitStages.has(stage)) return;
    const ev: Record<string, unknown> = { ...f.event, stage };
    if (current && f.user && current !== f.user) ev.impersonatedUser = auditUser(current);
    if (stage !== 'RequestReceived') {
      ev.responseStatus = f.responseStatus;
      if (f.responseObject !== undefined) ev.responseObject = f.responseObject;
    }
    ev.requestReceivedTimestamp = f.event.requestReceivedTimestamp;
    ev.stageTimestamp = formatMicroTime(preciseNow());
    if (Object.keys(f.annotations).length) ev.annotations = { ...f.annotations };
    for (const sink of sinks) sink.write(ev);
  };

  /** The policy's decision for the request, and its event when the level is not None; sets the Audit-ID header. */
  const open = (request: FastifyRequest, reply: FastifyReply, user: UserInfo | undefined): InFlight | undefined => {
    const i = request.info;
    const decision = evaluatePolicy(policy, {
      user: user ?? { name: '', groups: [] }, verb: i.verb, isResourceRequest: i.isResourceRequest, path: i.path, namespace: i.namespace,
      apiGroup: i.apiGroup, resource: i.resource, subresource: i.subresource, name: i.name,
    });
    const auditID = String(reply.getHeader('audit-id') ?? randomUUID());
    if (decision.level === 'None') return undefined;
    return {
      decision, user, annotations: {},
      event: {
        kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: decision.level, auditID, stage: '',
        requestURI: request.url, verb: i.verb, user: user ? auditUser(user) : {}, sourceIPs: [request.ip], userAgent: request.headers['user-agent'],
        objectRef: i.isResourceRequest ? {
          resource: i.resource || undefined, namespace: i.namespace || undefined, name: i.name || undefined,
          apiGroup: i.apiGroup || undefined, apiVersion: i.apiVersion || undefined, subresource: i.subresource || undefined,
        } : undefined,
        requestReceivedTimestamp: formatMicroTime(preciseNow()),
      },
    };
  };

  /** The ResponseStarted stage, once: when the status line goes out, or when an upgrade is taken over. */
  const started = (f: InFlight, code: number, current: UserInfo | undefined): void => {
    if (f.startedCode !== undefined) return;
    f.startedCode = code;
    f.responseStatus = { ...f.responseStatus, metadata: {}, code };
    emit(f, 'ResponseStarted', current);
  };

  return {
    enabled: true,
    failedAuthentication(request, reply) {
      const f = open(request, reply, undefined);
      if (!f) return;
      f.responseStatus = { message: attemptedMethods(request) };
      started(f, 401, undefined);
    },
    begin(request, reply) {
      const i = request.info;
      const f = open(request, reply, request.user!);
      if (!f) return;
      requests.set(request, f);
      emit(f, 'RequestReceived', undefined);

      const res = reply.raw;
      // a long-running request's ResponseStarted stage comes long before its completion
      const longRunning = isLongRunning(i);
      if (longRunning) {
        // Every way of sending headers (writeHead, the first write, end) goes through writeHead.
        const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
        (res as unknown as { writeHead: (...args: unknown[]) => typeof res }).writeHead = (...args: unknown[]) => {
          started(f, typeof args[0] === 'number' ? args[0] : res.statusCode, request.user);
          return writeHead(...args);
        };
        // An upgrade (exec, attach, port-forward) the handler takes over: upstream records 101 as the connection is
        // hijacked, whatever the backend then answers on it.
        if (request.headers.upgrade) {
          const hijack = reply.hijack.bind(reply);
          reply.hijack = () => {
            started(f, 101, request.user);
            return hijack();
          };
        }
      }
      let done = false;
      const complete = (): void => {
        if (done) return;
        done = true;
        if (longRunning && f.startedCode === undefined && !f.panic) {
          // As upstream: a long-running request that ended before any status went out gets a faked one.
          f.responseStatus = { status: 'Success', message: 'Connection closed early' };
          started(f, 200, request.user);
        }
        // What admission and the registry annotated during the request (authorization's keys came first)
        for (const [k, v] of Object.entries(request.auditAnnotations ?? {})) f.annotations[k] ??= v;
        // Only now is the body decoded: the handler has read it.
        const body = decoded(request.body, request.headers['content-type']);
        const meta = (body as { metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string } } | undefined)?.metadata;
        const ref = f.event.objectRef as Record<string, unknown> | undefined;
        if (ref && meta) {
          ref.namespace ??= meta.namespace || undefined;
          ref.name ??= meta.name || undefined;
          ref.uid ??= meta.uid || undefined;
          ref.resourceVersion ??= meta.resourceVersion || undefined;
        }
        if (body !== undefined && atLeast(f.decision, 'Request')) {
          f.event.requestObject = f.decision.omitManagedFields ? withoutManagedFields(body) : body;
        }
        if (f.panic) {
          f.responseStatus = { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${f.panic.message}`, reason: 'InternalError', code: 500 };
        } else {
          // A hijacked response keeps the code it was started with (its ServerResponse never wrote one).
          f.responseStatus = { metadata: {}, ...f.responseStatus, code: f.startedCode === 101 ? 101 : res.statusCode };
        }
        emit(f, f.panic ? 'Panic' : 'ResponseComplete', request.user);
      };
      res.once('finish', complete);
      res.once('close', complete);
    },
    annotate(request, key, value) {
      const f = requests.get(request);
      if (f) f.annotations[key] = value;
    },
    onSend(request, reply, payload) {
      const f = requests.get(request);
      if (!f || !Buffer.isBuffer(payload)) return;
      const wantsObject = atLeast(f.decision, 'RequestResponse');
      // At Metadata only a Status matters: failures, and small bodies that may be one (a delete's Success).
      if (!wantsObject && !(reply.statusCode >= 300 || (payload.length < 4096 && payload.includes('Status')))) return;
      const obj = decoded(payload, String(reply.getHeader('content-type') ?? '')) as Record<string, unknown> | undefined;
      if (obj?.kind === 'Status') {
        const { status, message, reason, details, code } = obj;
        f.responseStatus = { metadata: {}, status, message, reason, details, code };
      }
      if (wantsObject && obj !== undefined) f.responseObject = f.decision.omitManagedFields ? withoutManagedFields(obj) : obj;
    },
    onError(request, err) {
      const f = requests.get(request);
      if (f && !isStatusError(err) && !(err as { code?: string }).code?.startsWith('FST_')) f.panic = err;
    },
    close: async () => { await Promise.all(sinks.map((sink) => sink.close())); },
  };
}
