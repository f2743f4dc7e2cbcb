// The token APIs: TokenRequest (POST serviceaccounts/NAME/token, what `kubectl create token` calls), TokenReview
// (POST authentication.k8s.io/v1 tokenreviews) and the service-account issuer's OpenID discovery documents
// (/.well-known/openid-configuration, /openid/v1/jwks). Upstream: pkg/registry/core/serviceaccount/storage/token.go,
// pkg/registry/authentication/tokenreview, pkg/routes/openidmetadata.go.
import { restfulGet } from '../restful-paths.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findResource } from '../../../api/index.js';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, conflict, invalid, isStatusError, namespaceMismatch, notFound, serviceUnavailable, type StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { jwksOf, openIdConfiguration, type Authentication } from '../../authentication/index.js';
import type { Registry } from '../../registry/generic/registry.js';
import type { RequestContext } from '../../registry/context.js';
import { writeZeroValues, type Decoder } from '../../registry/generic/decode.js';
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
  // upstream serves both as go-restful WebServices, which trim a trailing slash (the Python client adds one)
  const discovery = async (_req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const issuer = deps.authentication.tokenIssuer?.issuer;
    if (!issuer) throw notFound({ group: '', resource: '' }, '');
    const jwksUri = deps.jwksUri || `${deps.externalUrl()}/openid/v1/jwks`;
    return reply.code(200).type('application/json').header('cache-control', 'public, max-age=3600')
      .send(Buffer.from(JSON.stringify(openIdConfiguration(issuer, jwksUri, deps.authentication.serviceAccountKeys))));
  };
  const keys = async (_req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (!deps.authentication.tokenIssuer) throw notFound({ group: '', resource: '' }, '');
    return reply.code(200).type('application/jwk-set+json').header('cache-control', 'public, max-age=3600')
      .send(Buffer.from(JSON.stringify(await jwksOf(deps.authentication.serviceAccountKeys))));
  };
  // routes of upstream's REST router: GETs, any other method its 405
  for (const [path, handler] of [['/.well-known/openid-configuration', discovery], ['/openid/v1/jwks', keys]] as const) {
    restfulGet(app, path, handler);
    restfulGet(app, `${path}/`, handler);
  }
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

/** The object a token is bound to, as upstream's TokenREST looks it up: only a Pod, a Node or a Secret of core/v1. */
const TOKEN_REQUEST = 'io.k8s.api.authentication.v1.TokenRequest';

type BoundRef = { kind?: string; apiVersion?: string; name?: string; uid?: string };

const PLURAL_OF: Record<string, 'pods' | 'nodes' | 'secrets'> = { Pod: 'pods', Node: 'nodes', Secret: 'secrets' };

/**
 * POST serviceaccounts/NAME/token, in upstream's order: the create handler's namespace check and mutating admission,
 * then TokenREST.Create (the name, the ServiceAccount, static validation, validating admission, the bound object).
 */
async function tokenRequest(deps: TokenRoutesDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { namespace, name } = req.params as { namespace: string; name: string };
  const ctx = { ...requestContext(req, req.info), namespace };
  const saReg = deps.registry('serviceaccounts')!;
  const authn = deps.authentication;
  if (!authn.tokenIssuer) throw serviceUnavailable('the TokenRequest API is not enabled: no --service-account-signing-key-file');
  const obj = typedBody(deps.decoder, req, 'authentication.k8s.io', 'TokenRequest');
  if (obj.metadata?.namespace && obj.metadata.namespace !== namespace) throw namespaceMismatch();
  obj.metadata = { ...obj.metadata, namespace };
  obj.spec = { ...((obj.spec ?? {}) as Record<string, unknown>) };
  (obj.spec as { expirationSeconds?: number }).expirationSeconds ??= DEFAULT_EXPIRATION;
  await saReg.admission('mutate', 'CREATE', ctx, obj, undefined, name, 'token');

  if (obj.metadata.name && obj.metadata.name !== name) {
    throw invalid('authentication.k8s.io', 'TokenRequest', name, [invalidValue('metadata.name', obj.metadata.name, 'must match the service account name if specified')]);
  }
  const sa = await getOrUndefined(saReg, ctx, name);
  if (!sa) throw notFound({ group: '', resource: 'serviceaccounts' }, name);
  const spec = obj.spec as Record<string, any>;
  if (!Array.isArray(spec.audiences) || spec.audiences.length === 0) spec.audiences = authn.apiAudiences;
  obj.metadata = { ...obj.metadata, name, creationTimestamp: rfc3339(ctx.now) };
  delete obj.status;
  const causes: StatusCause[] = [];
  if (!Number.isInteger(spec.expirationSeconds) || spec.expirationSeconds < MIN_EXPIRATION) {
    causes.push(invalidValue('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 10 minutes'));
  } else if (spec.expirationSeconds > 2 ** 32) {
    causes.push(invalidValue('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  }
  if (causes.length) throw invalid('authentication.k8s.io', 'TokenRequest', '', causes);
  await saReg.admission('validate', 'CREATE', ctx, obj, undefined, name, 'token');

  const bound: { pod?: KubeObject; secret?: KubeObject; node?: KubeObject } = {};
  const ref = spec.boundObjectRef as BoundRef | undefined;
  if (ref) {
    const [group, version] = (ref.apiVersion ?? '').includes('/') ? ref.apiVersion!.split('/') : ['', ref.apiVersion ?? ''];
    const plural = group === '' ? PLURAL_OF[ref.kind ?? ''] : undefined;
    if (!plural) throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${ref.kind ?? ''}`);
    if (!ref.name) throw badRequest('Name parameter required.');
    const object = await getOrUndefined(deps.registry(plural), { ...ctx, namespace: plural === 'nodes' ? undefined : namespace }, ref.name);
    if (!object) throw notFound({ group: '', resource: plural }, ref.name);
    if (plural === 'pods') {
      bound.pod = object;
      if (((object.spec?.serviceAccountName as string | undefined) ?? '') !== name) {
        throw badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`);
      }
      const nodeName = object.spec?.nodeName as string | undefined;
      // a node that is gone still names the pod's node in the claims, without its uid
      if (nodeName) bound.node = await getOrUndefined(deps.registry('nodes'), { ...ctx, namespace: undefined }, nodeName) ?? { metadata: { name: nodeName } };
    } else if (plural === 'secrets') {
      bound.secret = object;
    } else {
      bound.node = object;
    }
    if (ref.uid && ref.uid !== object.metadata?.uid) {
      throw conflict({ group: '', resource: ref.kind! }, ref.name, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
  }
  if (deps.maxExpirationSeconds && spec.expirationSeconds > deps.maxExpirationSeconds) {
    ctx.warnings.push(`requested expiration of ${spec.expirationSeconds} seconds shortened to ${deps.maxExpirationSeconds} seconds`);
    spec.expirationSeconds = deps.maxExpirationSeconds;
  }
  const expirationSeconds = spec.expirationSeconds as number;
  // Upstream: the kubelet's projected tokens (3607 s, bound to a pod, for the apiserver's audiences) are issued for a
  // year with a warn-after time, so clients that do not reload them keep working while the apiserver counts them stale.
  const kubeAudiences = (spec.audiences as string[]).every((a) => authn.apiAudiences.includes(a));
  const extend = !!bound.pod && (deps.extendExpiration ?? true) && expirationSeconds === WARN_ONLY_EXPIRATION && kubeAudiences;
  const { token } = await authn.tokenIssuer.issue({
    audiences: spec.audiences as string[], expirationSeconds: extend ? EXTENDED_EXPIRATION : expirationSeconds, now: ctx.now, serviceAccount: sa,
    ...bound, warnAfterSeconds: extend ? expirationSeconds : undefined,
  });
  const rt = { ...saReg.rt, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };
  // as upstream's encoder writes its struct: TypeMeta first, ObjectMeta's name and namespace before its
  // creationTimestamp, and Go's zero values (an unbound token's spec has `boundObjectRef: null`)
  const { name: _name, namespace: _namespace, creationTimestamp, ...meta } = obj.metadata;
  const out: KubeObject = {
    kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { name, namespace, creationTimestamp, ...meta }, spec,
    status: { token, expirationTimestamp: rfc3339(new Date(ctx.now.getTime() + expirationSeconds * 1000)) },
  };
  writeZeroValues(deps.decoder, out, TOKEN_REQUEST);
  return sendObject({ rt, request: req, reply, warnings: ctx.warnings, now: ctx.now }, { object: out }, 201);
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
