// The apiserver's authenticator from its flags, in upstream's order: client certificates, then tokens, then passwords.
import { readFileSync } from 'node:fs';
import type { KubeObject } from '../../api/types.js';
import { anonymousAuthenticator } from './anonymous.js';
import { basicFileAuthenticator } from './basic-file.js';
import type { Authenticator } from './interface.js';
import { cachedTokenAuthenticator } from './token-cache.js';
import { tokenFileAuthenticator } from './token-file.js';
import { authenticatedGroup, unionAuthenticator, type RequestAuthenticator } from './union.js';
import { x509Authenticator } from './x509.js';
import { oidcAuthenticator, type OidcOptions } from './oidc.js';
import { requestHeaderAuthenticator } from './request-header.js';
import { loadPublicKeys, loadSigningKey, type PublicKeyEntry } from './serviceaccount/keys.js';
import { serviceAccountAuthenticator, tokenIssuer, type ObjectLookup, type ReviewResult, type TokenIssuer } from './serviceaccount/tokens.js';
import { webhookTokenAuthenticator, type WebhookOptions } from './webhook.js';
import { bootstrapTokenAuthenticator, type BootstrapTokenOptions } from './bootstrap-token.js';

export interface AuthenticationOptions {
  clientCaFile?: string;
  tokenAuthFile?: string;
  basicAuthFile?: string;
  anonymous: boolean;
}

/** Reads every file now, so that a bad one stops the server at start rather than failing requests later. */
export const buildAuthenticator = (o: AuthenticationOptions): RequestAuthenticator => {
  const list: Authenticator[] = [];
  if (o.clientCaFile) list.push(clientCertificateAuthenticator(o.clientCaFile));
  if (o.tokenAuthFile) list.push(tokenFileAuthenticator(o.tokenAuthFile));
  if (o.basicAuthFile) list.push(basicFileAuthenticator(o.basicAuthFile));
  return unionAuthenticator(list, o.anonymous ? anonymousAuthenticator : undefined);
};

const clientCertificateAuthenticator = (path: string): Authenticator => {
  try {
    return x509Authenticator(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`client CA file ${path}: ${(e as Error).message}`);
  }
};

export interface ServiceAccountOptions {
  /** --service-account-issuer, every value; the first issues tokens. */
  issuers: string[];
  /** --service-account-key-file: keys that verify tokens. */
  keyFiles: string[];
  /** --service-account-signing-key-file: without it the TokenRequest API is off. */
  signingKeyFile?: string;
  /** --api-audiences; default the issuers. */
  apiAudiences?: string[];
  lookup: ObjectLookup;
  /** Records on a legacy token's Secret the day it was used. */
  markUsed?: (secret: KubeObject, day: string) => Promise<void>;
}

export interface RequestHeaderFlags {
  clientCaFile: string;
  allowedNames: string[];
  usernameHeaders: string[];
  uidHeaders?: string[];
  groupHeaders: string[];
  extraHeadersPrefix: string[];
}

export interface FullAuthenticationOptions extends AuthenticationOptions {
  requestHeader?: RequestHeaderFlags;
  serviceAccount?: ServiceAccountOptions;
  /** --enable-bootstrap-token-auth: tokens of kube-system's bootstrap-token-<id> Secrets. */
  bootstrapToken?: BootstrapTokenOptions;
  oidc?: OidcOptions;
  webhook?: WebhookOptions;
}

/** Everything the apiserver needs from authentication: the request authenticator, and the token machinery behind the APIs. */
export interface Authentication {
  authenticator: RequestAuthenticator;
  /** The audiences the API accepts (--api-audiences, default the service-account issuers). */
  apiAudiences: string[];
  /** The service-account token issuer, when a signing key is configured (the TokenRequest API). */
  tokenIssuer?: TokenIssuer;
  /** Keys that verify service-account tokens (/openid/v1/jwks). */
  serviceAccountKeys: PublicKeyEntry[];
  /** The TokenReview API: the token authenticators over one bearer token; null when none accepts it. */
  reviewToken(token: string, audiences?: string[]): Promise<{ result: ReviewResult | null; error?: string }>;
  close(): Promise<void>;
}

const readPem = (path: string, what: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${what} ${path}: ${(e as Error).message}`);
  }
};

/**
 * The apiserver's authentication in upstream's order: the front proxy's headers, client certificates, then the
 * token authenticators (static tokens, service-account tokens, bootstrap tokens, OIDC, the webhook last), then
 * passwords; anonymous when nothing was presented.
 */
export const buildAuthentication = async (o: FullAuthenticationOptions): Promise<Authentication> => {
  const list: Authenticator[] = [];
  const tokens: Authenticator[] = [];
  const closers: (() => Promise<void>)[] = [];
  if (o.requestHeader) {
    const r = o.requestHeader;
    list.push(requestHeaderAuthenticator({
      caBundlePem: readPem(r.clientCaFile, 'requestheader client CA file'), allowedNames: r.allowedNames, usernameHeaders: r.usernameHeaders,
      uidHeaders: r.uidHeaders, groupHeaders: r.groupHeaders, extraHeaderPrefixes: r.extraHeadersPrefix,
    }));
  }
  if (o.clientCaFile) list.push(clientCertificateAuthenticator(o.clientCaFile));
  if (o.tokenAuthFile) tokens.push(tokenFileAuthenticator(o.tokenAuthFile));
  let issuer: TokenIssuer | undefined;
  let saKeys: PublicKeyEntry[] = [];
  let sa: ReturnType<typeof serviceAccountAuthenticator> | undefined;
  const apiAudiences = o.serviceAccount ? (o.serviceAccount.apiAudiences?.length ? o.serviceAccount.apiAudiences : o.serviceAccount.issuers) : [];
  if (o.serviceAccount && o.serviceAccount.issuers.length) {
    const s = o.serviceAccount;
    const signing = s.signingKeyFile ? loadSigningKey(s.signingKeyFile) : undefined;
    saKeys = loadPublicKeys(s.keyFiles);
    if (signing && !saKeys.some((k) => k.kid === signing.kid)) saKeys.push({ kid: signing.kid, alg: signing.alg, key: signing.key });
    if (signing) issuer = tokenIssuer(s.issuers[0]!, signing);
    if (saKeys.length) {
      sa = serviceAccountAuthenticator({ issuers: s.issuers, keys: saKeys, audiences: apiAudiences, lookup: s.lookup, markUsed: s.markUsed });
      tokens.push(sa);
    }
  }
  if (o.bootstrapToken) tokens.push(bootstrapTokenAuthenticator(o.bootstrapToken));
  if (o.oidc) {
    const oidc = oidcAuthenticator(o.oidc);
    closers.push(oidc.close);
    tokens.push(oidc);
  }
  if (o.webhook) {
    const wh = await webhookTokenAuthenticator({ audiences: apiAudiences.length ? apiAudiences : undefined, ...o.webhook });
    closers.push(wh.close);
    tokens.push(wh);
  }
  // One cache in front of every token authenticator, as kube-apiserver's (10 s for an acceptance, refusals not kept).
  if (tokens.length) list.push(cachedTokenAuthenticator(tokens, { audiences: apiAudiences }));
  if (o.basicAuthFile) list.push(basicFileAuthenticator(o.basicAuthFile));
  const tokenUnion = unionAuthenticator(tokens);

  return {
    authenticator: unionAuthenticator(list, o.anonymous ? anonymousAuthenticator : undefined),
    apiAudiences,
    tokenIssuer: issuer,
    serviceAccountKeys: saKeys,
    async reviewToken(token, audiences) {
      const wanted = audiences?.length ? audiences : apiAudiences;
      if (sa) {
        try {
          const r = await sa.review(token, wanted);
          // As upstream's TokenReview, which runs the request authenticator (its authenticated-group adder included).
          if (r) return { result: { ...r, user: { ...r.user, groups: [...r.user.groups, authenticatedGroup] } } };
        } catch (e) {
          return { result: null, error: (e as Error).message };
        }
      }
      // The other token authenticators know no audiences: they answer for the API's (upstream: audience-agnostic).
      const accepted = audiences?.length ? audiences.filter((a) => apiAudiences.includes(a)) : apiAudiences;
      if (audiences?.length && accepted.length === 0) return { result: null, error: 'token audiences are invalid for the target audiences' };
      try {
        const r = await tokenUnion.authenticate({ headers: { authorization: `Bearer ${token}` } });
        return { result: { ...r, audiences: accepted } };
      } catch (e) {
        // upstream's bearer-token authenticator: a token no authenticator knows is "invalid bearer token"
        return { result: null, error: ((e as Error).cause as Error | undefined)?.message ?? 'invalid bearer token' };
      }
    },
    async close() {
      await Promise.all(closers.map((c) => c()));
    },
  };
};

export type { RequestAuthenticator } from './union.js';
export { authenticatedGroup, unionAuthenticator } from './union.js';
export { anonymousAuthenticator, anonymousUser, unauthenticatedGroup } from './anonymous.js';
export { x509Authenticator } from './x509.js';
export { tokenFileAuthenticator } from './token-file.js';
export { basicFileAuthenticator } from './basic-file.js';
export type { Authenticator, AuthnRequest, AuthnResult, UserInfo } from './interface.js';
export type { OidcOptions } from './oidc.js';
export type { WebhookOptions } from './webhook.js';
export type { ObjectLookup, TokenIssuer, ReviewResult } from './serviceaccount/tokens.js';
export { openIdConfiguration, jwksOf, type PublicKeyEntry } from './serviceaccount/keys.js';
export { serviceAccountUsername, serviceAccountGroups, splitServiceAccountUsername } from './serviceaccount/claims.js';
