// The token APIs: TokenRequest (POST serviceaccounts/NAME/token, what `kubectl create token` calls), TokenReview
// (POST authentication.k8s.io/v1 tokenreviews) and the service-account issuer's OpenID discovery documents
// (/.well-known/openid-configuration, /openid/v1/jwks). Upstream: pkg/registry/core/serviceaccount/storage/token.go,
// pkg/registry/authentication/tokenreview, pkg/routes/openidmetadata.go.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findResource } from '../../../api/index.js';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, fieldCause, invalid, isStatusError, notFound, serviceUnavailable, type StatusCause } from '../../apimachinery/errors.js';
import { jwksOf, openIdConfiguration, type Authentication } from '../../authentication/index.js';
import type { Registry } from '../../registry/generic/registry.js';
import type { RequestContext } from '../../registry/context.js';
import type { Decoder } from '../../registry/generic/decode.js';
import { rfc3339 } from '../../registry/meta.js';
import { requestContext } from '../context.js';
import { typedBody } from './typed-body.js';
import { sendObject } from '../respond.js';

export interface TokenRoutesDeps {
  authentication: Authentication;
  /** The registry of a core/v1 resource. */
  registry(plural: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes'): Registry | undefined;
  decoder: Decoder;
  /** https://host:port this apiserver is reached at (the default jwks_uri). */
  externalUrl(): string;
  /** --service-account-jwks-uri */
  jwksUri?: string;
  /** --service-account-max-token-expiration in seconds (0: none). */
  maxExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true). */
  extendExpiration?: boolean;
}

const MIN_EXPIRATION = 600;
const DEFAULT_EXPIRATION = 3600;
/** The projected-volume token lifetime the ServiceAccount admission plugin asks for; such tokens may be extended. */
export const WARN_ONLY_EXPIRATION = 3607;
const EXTENDED_EXPIRATION = 365 * 24 * 3600;

export function registerTokenRoutes(app: FastifyInstance, deps: TokenRoutesDeps): void {
  app.post('/api/v1/namespaces/:namespace/serviceaccounts/:name/token', (req, reply) => tokenRequest(deps, req, reply));
  app.post('/apis/authentication.k8s.io/v1/tokenreviews', (req, reply) => tokenReview(deps, req, reply));
  app.get('/.well-known/openid-configuration', async (_req, reply) => {
    const issuer = deps.authentication.tokenIssuer?.issuer;
    if (!issuer) throw notFound({ group: '', resource: '' }, '');
    const jwksUri = deps.jwksUri || `${deps.externalUrl()}/openid/v1/jwks`;
    return reply.code(200).type('application/json').header('cache-control', 'public, max-age=3600')
      .send(Buffer.from(JSON.stringify(openIdConfiguration(issuer, jwksUri, deps.authentication.serviceAccountKeys))));
  });
  app.get('/openid/v1/jwks', async (_req, reply) => {
    if (!deps.authentication.tokenIssuer) throw notFound({ group: '', resource: '' }, '');
    return reply.code(200).type('application/jwk-set+json').header('cache-control', 'public, max-age=3600')
      .send(Buffer.from(JSON.stringify(await jwksOf(deps.authentication.serviceAccountKeys))));
  });
}

async function getOrUndefined(reg: Registry | undefined, ctx: RequestContext, name: string): Promise<KubeObject | undefined> {
  if (!reg) return undefined;
  try {
    return (await reg.get(ctx, name)).object;
  } catch (e) {
    if (isStatusError(e) && e.code === 404) return undefined;
    throw e;
  }
}

async function tokenRequest(deps: TokenRoutesDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { namespace, name } = req.params as { namespace: string; name: string };
  const ctx = { ...requestContext(req, req.info), namespace };
  const saReg = deps.registry('serviceaccounts')!;
  const obj = typedBody(deps.decoder, req, 'authentication.k8s.io', 'TokenRequest');
  const spec = { ...((obj.spec ?? {}) as Record<string, any>) };
  const causes: StatusCause[] = [];
  if (obj.metadata?.name && obj.metadata.name !== name) throw badRequest('the name of the provided object does not match the name of the service account');
  if (obj.metadata?.namespace && obj.metadata.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  spec.expirationSeconds ??= DEFAULT_EXPIRATION;
  if (!Number.isInteger(spec.expirationSeconds) || spec.expirationSeconds < MIN_EXPIRATION) {
    causes.push(fieldCause('FieldValueInvalid', 'spec.expirationSeconds', `Invalid value: ${JSON.stringify(spec.expirationSeconds)}: may not specify a duration less than 10 minutes`));
  } else if (spec.expirationSeconds > 2 ** 32) {
    causes.push(fieldCause('FieldValueTooLong', 'spec.expirationSeconds', `Invalid value: ${spec.expirationSeconds}: may not specify a duration larger than 2^32 seconds`));
  }
  const authn = deps.authentication;
  if (!Array.isArray(spec.audiences) || spec.audiences.length === 0) spec.audiences = authn.apiAudiences;
  const ref = spec.boundObjectRef as { kind?: string; apiVersion?: string; name?: string; uid?: string } | undefined;
  if (ref) {
    if (ref.kind !== 'Pod' && ref.kind !== 'Secret' && ref.kind !== 'Node') {
      causes.push(fieldCause('FieldValueNotSupported', 'spec.boundObjectRef.kind', `Unsupported value: ${JSON.stringify(ref.kind ?? '')}: supported values: "Pod", "Secret", "Node"`));
    }
    if (!ref.name) causes.push(fieldCause('FieldValueRequired', 'spec.boundObjectRef.name', 'Required value'));
  }
  if (causes.length) throw invalid('authentication.k8s.io', 'TokenRequest', name, causes);
  if (!authn.tokenIssuer) throw serviceUnavailable('the TokenRequest API is not enabled: no --service-account-signing-key-file');

  const sa = await getOrUndefined(saReg, ctx, name);
  if (!sa) throw notFound({ group: '', resource: 'serviceaccounts' }, name);
  let pod: KubeObject | undefined;
  let secret: KubeObject | undefined;
  let node: KubeObject | undefined;
  if (ref) {
    const plural = ref.kind === 'Pod' ? 'pods' : ref.kind === 'Secret' ? 'secrets' : 'nodes';
    const bound = await getOrUndefined(deps.registry(plural), { ...ctx, namespace: plural === 'nodes' ? undefined : namespace }, ref.name!);
    if (!bound) throw notFound({ group: '', resource: plural }, ref.name!);
    if (ref.uid && ref.uid !== bound.metadata?.uid) {
      throw conflictUid(ref.kind!, ref.name!, ref.uid, bound.metadata?.uid);
    }
    if (plural === 'pods') {
      pod = bound;
      const podSa = (pod.spec?.serviceAccountName as string | undefined) || 'default';
      if (podSa !== name) throw badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`);
      const nodeName = pod.spec?.nodeName as string | undefined;
      if (nodeName) node = await getOrUndefined(deps.registry('nodes'), { ...ctx, namespace: undefined }, nodeName);
    } else if (plural === 'secrets') {
      secret = bound;
    } else {
      node = bound;
    }
  }
  let expirationSeconds = spec.expirationSeconds as number;
  if (deps.maxExpirationSeconds && expirationSeconds > deps.maxExpirationSeconds) expirationSeconds = deps.maxExpirationSeconds;
  let warnAfterSeconds: number | undefined;
  // Upstream: the kubelet's projected tokens (3607 s, bound to a pod) are issued for a year with a warn-after time,
  // so clients that do not reload them keep working while the apiserver counts them as stale.
  if (pod && (deps.extendExpiration ?? true) && expirationSeconds === WARN_ONLY_EXPIRATION) {
    warnAfterSeconds = expirationSeconds;
    expirationSeconds = EXTENDED_EXPIRATION;
  }
  const { token, claims } = await authn.tokenIssuer.issue({
    audiences: spec.audiences as string[], expirationSeconds, now: ctx.now, serviceAccount: sa, pod, secret, node, warnAfterSeconds,
  });
  if (ref) spec.boundObjectRef = { kind: ref.kind, apiVersion: ref.apiVersion ?? 'v1', name: ref.name, uid: (pod ?? secret ?? node)!.metadata?.uid };
  const rt = { ...saReg.rt, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };
  const out: KubeObject = {
    kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1',
    metadata: { name, namespace, creationTimestamp: null },
    spec,
    status: { token, expirationTimestamp: rfc3339(new Date((warnAfterSeconds !== undefined ? claims.iat + warnAfterSeconds : claims.exp) * 1000)) },
  };
  return sendObject({ rt, request: req, reply, warnings: ctx.warnings, now: ctx.now }, { object: out }, 201);
}

function conflictUid(kind: string, name: string, want: string, have: string | undefined): Error {
  return badRequest(`the UID in the bound object reference (${want}) does not match the UID in record (${have ?? ''}). The object might have been deleted and then recreated`
    + ` (${kind} "${name}")`);
}

async function tokenReview(deps: TokenRoutesDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const obj = typedBody(deps.decoder, req, 'authentication.k8s.io', 'TokenReview');
  const spec = (obj.spec ?? {}) as { token?: string; audiences?: string[] };
  if (!spec.token) throw badRequest('token is required for TokenReview in authentication');
  const { result, error } = await deps.authentication.reviewToken(spec.token, spec.audiences);
  const status: Record<string, unknown> = {};
  if (result) {
    const u = result.user;
    const user: Record<string, unknown> = { username: u.name };
    if (u.uid) user.uid = u.uid;
    if (u.groups.length) user.groups = u.groups;
    if (u.extra && Object.keys(u.extra).length) user.extra = u.extra;
    status.authenticated = true;
    status.user = user;
    status.audiences = result.audiences;
  } else {
    status.user = {};
    if (error) status.error = error;
  }
  const rt = findResource('authentication.k8s.io', 'v1', 'tokenreviews')!;
  const object: KubeObject = {
    kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1',
    metadata: { ...(obj.metadata ?? {}), creationTimestamp: null }, spec, status,
  };
  return sendObject({ rt, request: req, reply, warnings: [], now: new Date() }, { object }, 201);
}
