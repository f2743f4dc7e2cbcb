// Webhook authorization (--authorization-mode ...,Webhook): each request's attributes are POSTed as a
// SubjectAccessReview (authorization.k8s.io/v1, or v1beta1 with --authorization-webhook-version) to the server of
// --authorization-webhook-config-file. status.allowed allows, status.denied denies, anything else is no opinion;
// answers are cached by their spec (allowed 5 minutes, the rest 30 seconds, as upstream's flag defaults); a webhook
// that fails or cannot be reached has no opinion and is logged (upstream: plugin/pkg/authorizer/webhook).
import type { WebhookClient } from '../authentication/webhook-client.js';
import { TtlCache } from '../authentication/ttl-cache.js';
import type { Attributes, AuthorizationResult, Authorizer } from './interface.js';

export interface WebhookAuthorizerOptions {
  client: WebhookClient;
  /** authorization.k8s.io version of the reviews: v1 (default) or v1beta1. */
  version?: 'v1' | 'v1beta1';
  /** Default 5 minutes. */
  authorizedTtlMs?: number;
  /** Default 30 seconds. */
  unauthorizedTtlMs?: number;
  onError?: (err: unknown) => void;
  now?: () => number;
}

interface SarStatus { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string }

/** The review's spec, as upstream builds it from the attributes. */
export function reviewSpec(a: Attributes, version: 'v1' | 'v1beta1' = 'v1'): Record<string, unknown> {
  const spec: Record<string, unknown> = { user: a.user.name };
  if (a.user.uid) spec.uid = a.user.uid;
  if (a.user.groups.length) spec[version === 'v1' ? 'groups' : 'group'] = a.user.groups;
  if (a.user.extra && Object.keys(a.user.extra).length) spec.extra = a.user.extra;
  if (a.isResourceRequest) {
    const r: Record<string, string> = { verb: a.verb, version: a.apiVersion, resource: a.resource };
    if (a.namespace) r.namespace = a.namespace;
    if (a.apiGroup) r.group = a.apiGroup;
    if (a.subresource) r.subresource = a.subresource;
    if (a.name) r.name = a.name;
    spec.resourceAttributes = r;
  } else {
    spec.nonResourceAttributes = { path: a.path, verb: a.verb };
  }
  return spec;
}

export function webhookAuthorizer(o: WebhookAuthorizerOptions): Authorizer {
  const version = o.version ?? 'v1';
  const authorizedTtl = o.authorizedTtlMs ?? 5 * 60_000;
  const unauthorizedTtl = o.unauthorizedTtlMs ?? 30_000;
  const cache = new TtlCache<AuthorizationResult>(o.now);
  return {
    name: 'Webhook',
    async authorize(a) {
      const spec = reviewSpec(a, version);
      const key = JSON.stringify(spec);
      const cached = cache.get(key);
      if (cached) return cached;
      let status: SarStatus;
      try {
        const answer = await o.client.post({ apiVersion: `authorization.k8s.io/${version}`, kind: 'SubjectAccessReview', spec }) as { status?: SarStatus };
        status = answer.status ?? {};
      } catch (err) {
        o.onError?.(err);
        return { decision: 'noopinion', reason: '' };
      }
      const result: AuthorizationResult = {
        decision: status.allowed ? 'allow' : status.denied ? 'deny' : 'noopinion',
        reason: status.reason ?? '',
      };
      cache.set(key, result, status.allowed ? authorizedTtl : unauthorizedTtl);
      return result;
    },
  };
}
