// Service-account JWTs: the issuer behind the TokenRequest API and the authenticator that accepts them.
// Upstream: pkg/serviceaccount/jwt.go and claims.go. A token is valid while its signature, issuer, audience
// and expiry check out AND the service account (and the pod, secret or node it is bound to) still exists
// with the uid the token names: deleting the account or the pod revokes every token of it.
import type { KubeObject } from '../../../api/types.js';
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { unauthorized } from '../../apimachinery/errors.js';
import { schemeCredential } from '../authorization-header.js';
import type { Authenticator, AuthnRequest, AuthnResult, UserInfo } from '../interface.js';
import { buildClaims, serviceAccountGroups, serviceAccountUsername, type ClaimsRequest, type KubernetesClaim, type ServiceAccountClaims } from './claims.js';
import type { PublicKeyEntry, SigningKeyEntry } from './keys.js';
import {
  LEGACY_CLAIM, LEGACY_TOKEN_INVALID_SINCE_LABEL, LEGACY_TOKEN_ISSUER, LEGACY_TOKEN_LAST_USED_LABEL,
} from '../../apimachinery/legacy-service-account-token.js';

/** Finds the objects a token is bound to; undefined when they do not exist (any more). */
export type ObjectLookup = (resource: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes', namespace: string | undefined, name: string) => Promise<KubeObject | undefined>;

/** Upstream's leeway for exp/nbf/iat (go-jose's DefaultLeeway). */
const LEEWAY_SECONDS = 60;

export interface TokenIssuer {
  readonly issuer: string;
  issue(r: Omit<ClaimsRequest, 'issuer'>): Promise<{ token: string; claims: ServiceAccountClaims }>;
}

export const tokenIssuer = (issuer: string, key: SigningKeyEntry): TokenIssuer => ({
  issuer,
  async issue(r) {
    const claims = buildClaims({ ...r, issuer });
    const token = await new SignJWT(claims as unknown as JWTPayload).setProtectedHeader({ alg: key.alg, kid: key.kid }).sign(key.privateKey);
    return { token, claims };
  },
});

export interface ServiceAccountAuthenticatorOptions {
  /** Accepted issuers (--service-account-issuer, every value); the first is the one tokens are issued by. */
  issuers: string[];
  keys: PublicKeyEntry[];
  /** --api-audiences; default the issuers. A token must be meant for one of them. */
  audiences: string[];
  lookup: ObjectLookup;
  /**
   * Labels a legacy token's Secret with the day it was last used (upstream's kubernetes.io/legacy-token-last-used,
   * once a day); absent, nothing is recorded.
   */
  markUsed?: (secret: KubeObject, day: string) => Promise<void>;
  now?: () => number;
}

export interface ReviewResult extends AuthnResult {
  /** The audiences of the token that the reviewer asked for (or the API audiences). */
  audiences: string[];
}

const looksLikeJwt = (token: string): boolean => token.split('.').length === 3;

/** The validation behind both the request authenticator and the TokenReview API (with its own audiences). */
export const serviceAccountTokenValidator = (o: ServiceAccountAuthenticatorOptions) => {
  const now = o.now ?? Date.now;
  const issuers = new Set(o.issuers);

  /** null: not a token of ours (another authenticator may know it). Throws 401 when ours but invalid. */
  return async (token: string, wantAudiences: string[] = o.audiences): Promise<ReviewResult | null> => {
    if (!looksLikeJwt(token)) return null;
    let unverified: JWTPayload;
    let kid: string | undefined;
    try {
      unverified = decodeJwt(token);
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return null;
    }
    if (typeof unverified.iss !== 'string') return null;
    // upstream always accepts the legacy tokens of token Secrets as well, signed by the same keys
    const legacy = unverified.iss === LEGACY_TOKEN_ISSUER;
    if (!legacy && !issuers.has(unverified.iss)) return null;
    const candidates = kid ? o.keys.filter((k) => k.kid === kid) : o.keys;
    const keys = candidates.length ? candidates : o.keys;
    let payload: JWTPayload | undefined;
    let lastError: unknown;
    for (const k of keys) {
      try {
        ({ payload } = await jwtVerify(token, k.key, {
          algorithms: [k.alg], issuer: legacy ? LEGACY_TOKEN_ISSUER : [...issuers], clockTolerance: LEEWAY_SECONDS, currentDate: new Date(now()),
        }));
        break;
      } catch (e) {
        lastError = e;
        if (!(e instanceof joseErrors.JWSSignatureVerificationFailed)) break;
      }
    }
    if (!payload) {
      if (lastError instanceof joseErrors.JWTExpired) throw unauthorized('service account token has expired');
      throw unauthorized(`invalid service account token: ${(lastError as Error | undefined)?.message ?? 'no key'}`);
    }
    const claimed = typeof payload.aud === 'string' ? [payload.aud] : payload.aud ?? [];
    // a token without audiences (a legacy one) is meant for the API's
    const aud = claimed.length ? claimed : o.audiences;
    const audiences = wantAudiences.filter((a) => aud.includes(a));
    if (audiences.length === 0) throw unauthorized(`token audiences ${goQuoted(aud)} is invalid for the target audiences ${goQuoted(wantAudiences)}`);
    const verified = payload; // a const: the closure below keeps its narrowed type
    const validate = (): Promise<UserInfo> => (legacy ? validateLegacyClaims(token, verified, o, now()) : validatePrivateClaims(verified, o.lookup, now()));
    const user = await validate();
    return {
      user, audiences, consumedHeaders: ['authorization'],
      expiresAt: typeof verified.exp === 'number' ? (verified.exp + LEEWAY_SECONDS) * 1000 : undefined,
      revalidate: async () => { await validate(); },
    };
  };
};

/** A string slice as Go's %q prints it: `["a" "b"]`. */
const goQuoted = (list: string[]): string => `[${list.map((a) => JSON.stringify(a)).join(' ')}]`;

const must = (cond: unknown, why: string): void => {
  if (!cond) throw unauthorized(`service account token is invalid: ${why}`);
};

async function validatePrivateClaims(payload: JWTPayload, lookup: ObjectLookup, nowMs: number): Promise<UserInfo> {
  const k8s = payload['kubernetes.io'] as KubernetesClaim | undefined;
  must(k8s && typeof k8s.namespace === 'string' && k8s.serviceaccount?.name, 'missing the kubernetes.io claim');
  const ns = k8s!.namespace;
  must(payload.sub === serviceAccountUsername(ns, k8s!.serviceaccount.name), 'sub does not match the kubernetes.io claim');
  const deleted = (obj: KubeObject): boolean => {
    // an object being deleted keeps its tokens valid for the leeway (upstream's invalidIfDeletedBefore)
    const at = obj.metadata?.deletionTimestamp ? Date.parse(obj.metadata.deletionTimestamp) : undefined;
    return at !== undefined && at < nowMs - LEEWAY_SECONDS * 1000;
  };
  const fail = (why: string): never => { throw unauthorized(why); };
  const saRef = k8s!.serviceaccount;
  // upstream returns the getter's error as it is: the API's NotFound
  const sa = (await lookup('serviceaccounts', ns, saRef.name)) ?? fail(`serviceaccounts "${saRef.name}" not found`);
  if (sa.metadata?.uid !== saRef.uid) fail(`service account UID (${sa.metadata?.uid ?? ''}) does not match claim (${saRef.uid})`);
  if (deleted(sa)) fail(`service account ${ns}/${saRef.name} has been deleted`);
  /** A bound object: gone or deleted invalidates the token; another of the same name is named in the error. */
  const bound = async (resource: 'secrets' | 'pods' | 'nodes', kind: string, ref: { name: string; uid: string }): Promise<void> => {
    const obj = await lookup(resource, resource === 'nodes' ? undefined : ns, ref.name);
    if (!obj) fail('service account token has been invalidated');
    if (obj!.metadata?.uid !== ref.uid) fail(`${kind} UID (${obj!.metadata?.uid ?? ''}) does not match service account ${kind} ref claim (${ref.uid})`);
    if (deleted(obj!)) fail('service account token has been invalidated');
  };
  const extra: Record<string, string[]> = {};
  // upstream's order: secret, pod, then the node when the token is not also bound to a pod (the pod pins it)
  if (k8s!.secret) await bound('secrets', 'secret', k8s!.secret);
  if (k8s!.pod) {
    await bound('pods', 'pod', k8s!.pod);
    extra['authentication.kubernetes.io/pod-name'] = [k8s!.pod.name];
    extra['authentication.kubernetes.io/pod-uid'] = [k8s!.pod.uid];
  }
  if (k8s!.node) {
    if (!k8s!.pod) await bound('nodes', 'node', k8s!.node);
    extra['authentication.kubernetes.io/node-name'] = [k8s!.node.name];
    extra['authentication.kubernetes.io/node-uid'] = [k8s!.node.uid];
  }
  if (typeof payload.jti === 'string' && payload.jti) extra['authentication.kubernetes.io/credential-id'] = [`JTI=${payload.jti}`];
  const user: UserInfo = { name: serviceAccountUsername(ns, k8s!.serviceaccount.name), uid: sa.metadata?.uid, groups: serviceAccountGroups(ns) };
  if (Object.keys(extra).length) user.extra = extra;
  return user;
}

/**
 * A legacy token (upstream's legacyValidator with --service-account-lookup): its claims name a token Secret that still
 * holds exactly this token and an account that is still the one it was issued for.
 */
async function validateLegacyClaims(token: string, payload: JWTPayload, o: ServiceAccountAuthenticatorOptions, nowMs: number): Promise<UserInfo> {
  const claim = (k: string): string => (typeof payload[k] === 'string' ? payload[k] as string : '');
  const [ns, secretName, name, uid] = [claim(LEGACY_CLAIM.namespace), claim(LEGACY_CLAIM.secretName), claim(LEGACY_CLAIM.serviceAccountName), claim(LEGACY_CLAIM.serviceAccountUid)];
  const fail = (why: string): never => { throw unauthorized(why); };
  if (!payload.sub) fail('sub claim is missing');
  if (!ns) fail('namespace claim is missing');
  if (!secretName) fail('secretName claim is missing');
  if (!name) fail('serviceAccountName claim is missing');
  if (!uid) fail('serviceAccountUID claim is missing');
  if (payload.sub !== serviceAccountUsername(ns, name)) fail('sub claim is invalid');
  const secret = await o.lookup('secrets', ns, secretName);
  if (!secret || secret.metadata?.deletionTimestamp) fail('Token has been invalidated');
  if (Buffer.from(String((secret!.data as Record<string, string> | undefined)?.token ?? ''), 'base64').toString() !== token) fail('Token does not match server\'s copy');
  const sa = await o.lookup('serviceaccounts', ns, name);
  if (!sa) fail(`serviceaccounts "${name}" not found`);
  if (sa!.metadata?.deletionTimestamp) fail(`ServiceAccount ${ns}/${name} has been deleted`);
  if (sa!.metadata?.uid !== uid) fail(`ServiceAccount UID (${sa!.metadata?.uid ?? ''}) does not match claim (${uid})`);
  const lastUsed = secret!.metadata?.labels?.[LEGACY_TOKEN_LAST_USED_LABEL];
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const tomorrow = new Date(nowMs + 86_400_000).toISOString().slice(0, 10);
  if (o.markUsed && lastUsed !== today && lastUsed !== tomorrow) await o.markUsed(secret!, today);
  if (secret!.metadata?.labels?.[LEGACY_TOKEN_INVALID_SINCE_LABEL]) {
    fail(`the token in secret ${ns}/${secretName} for service account ${ns}/${name} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${LEGACY_TOKEN_INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`);
  }
  return { name: serviceAccountUsername(ns, name), uid, groups: serviceAccountGroups(ns) };
}

export const serviceAccountAuthenticator = (o: ServiceAccountAuthenticatorOptions): Authenticator & { review: ReturnType<typeof serviceAccountTokenValidator> } => {
  const validate = serviceAccountTokenValidator(o);
  return {
    name: 'serviceaccount',
    review: validate,
    async authenticate(req: AuthnRequest) {
      const token = schemeCredential(req, 'bearer');
      if (token === undefined) return null;
      const r = await validate(token);
      if (!r) return null;
      return { user: r.user, consumedHeaders: r.consumedHeaders, expiresAt: r.expiresAt, revalidate: r.revalidate };
    },
  };
};
