// OpenID Connect ID tokens (--oidc-*): the issuer's keys come from the JWKS named by its discovery document
// (<issuer>/.well-known/openid-configuration), fetched over HTTPS with undici, cached, and fetched again when a
// token names a key id the cache does not hold (the issuer rotated its keys). Upstream: plugin/pkg/authenticator/token/oidc.
import { readFileSync } from 'node:fs';
import { createLocalJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { undici } from '../apimachinery/undici.js';
import { unauthorized } from '../apimachinery/errors.js';
import { schemeCredential } from './authorization-header.js';
import type { Authenticator, UserInfo } from './interface.js';

export interface OidcOptions {
  issuerUrl: string;
  clientId: string;
  /** Default "sub". */
  usernameClaim?: string;
  /** "-" disables prefixing; unset: "<issuer>#" for claims other than email, as upstream. */
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  caFile?: string;
  /** key=value claims every token must carry. */
  requiredClaims?: Record<string, string>;
  /** Default RS256, as upstream. */
  signingAlgs?: string[];
  /** A key id the cache does not know triggers a fetch at most this often (default 10 s). */
  refetchIntervalMs?: number;
  now?: () => number;
}

type KeyResolver = ReturnType<typeof createLocalJWKSet>;

export const oidcAuthenticator = (o: OidcOptions): Authenticator & { close(): Promise<void> } => {
  const issuer = o.issuerUrl;
  if (!issuer.startsWith('https://')) throw new Error(`--oidc-issuer-url ${issuer}: must use the https scheme`);
  if (!o.clientId) throw new Error('--oidc-client-id is required with --oidc-issuer-url');
  const usernameClaim = o.usernameClaim || 'sub';
  const usernamePrefix = o.usernamePrefix === '-' ? '' : o.usernamePrefix ?? (usernameClaim === 'email' ? '' : `${issuer}#`);
  const algorithms = o.signingAlgs?.length ? o.signingAlgs : ['RS256'];
  const now = o.now ?? Date.now;
  const refetchInterval = o.refetchIntervalMs ?? 10_000;
  const ca = o.caFile ? readFileSync(o.caFile, 'utf8') : undefined;
  const agent = undici().then(({ Agent }) => new Agent({ connect: ca ? { ca } : {} }));

  let keys: KeyResolver | undefined;
  let fetchedAt = 0;
  let inflight: Promise<KeyResolver> | undefined;

  const getJson = async (url: string): Promise<unknown> => {
    const { request } = await undici();
    const res = await request(url, { dispatcher: await agent, headers: { accept: 'application/json' } });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode}`);
    return JSON.parse(text) as unknown;
  };

  const fetchKeys = (): Promise<KeyResolver> => {
    inflight ??= (async () => {
      try {
        const discovery = await getJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`) as { issuer?: string; jwks_uri?: string };
        if (discovery.issuer !== issuer) throw new Error(`oidc: issuer did not match the issuer returned by provider, expected "${issuer}" got "${discovery.issuer}"`);
        if (!discovery.jwks_uri) throw new Error('oidc: the discovery document has no jwks_uri');
        keys = createLocalJWKSet(await getJson(discovery.jwks_uri) as JSONWebKeySet);
        fetchedAt = now();
        return keys;
      } finally {
        inflight = undefined;
      }
    })();
    return inflight;
  };

  const verify = async (token: string): Promise<JWTPayload> => {
    const opts = { issuer, audience: o.clientId, algorithms, currentDate: new Date(now()) };
    const resolver = keys ?? await fetchKeys();
    try {
      return (await jwtVerify(token, resolver, opts)).payload;
    } catch (e) {
      if (!(e instanceof joseErrors.JWKSNoMatchingKey) || now() - fetchedAt < refetchInterval) throw e;
    }
    return (await jwtVerify(token, await fetchKeys(), opts)).payload;
  };

  return {
    name: 'oidc',
    close: async () => (await agent).close(),
    async authenticate(req) {
      const token = schemeCredential(req, 'bearer');
      if (token === undefined || token.split('.').length !== 3) return null;
      let iss: unknown;
      try {
        iss = decodeJwt(token).iss;
      } catch {
        return null;
      }
      if (iss !== issuer) return null;
      let payload: JWTPayload;
      try {
        payload = await verify(token);
      } catch (e) {
        throw unauthorized(`oidc: verify token: ${(e as Error).message}`);
      }
      return { user: userOf(payload), consumedHeaders: ['authorization'], expiresAt: typeof payload.exp === 'number' ? payload.exp * 1000 : undefined };
    },
  };

  function userOf(payload: JWTPayload): UserInfo {
    const name = payload[usernameClaim];
    if (typeof name !== 'string' || !name) throw unauthorized(`oidc: parse username claims "${usernameClaim}": claim not present`);
    if (usernameClaim === 'email' && payload.email_verified !== undefined && payload.email_verified !== true) {
      throw unauthorized(`oidc: email not verified`);
    }
    for (const [k, v] of Object.entries(o.requiredClaims ?? {})) {
      if (payload[k] !== v) throw unauthorized(`oidc: required claim ${k} not present or not equal to "${v}"`);
    }
    const groups: string[] = [];
    if (o.groupsClaim && payload[o.groupsClaim] !== undefined) {
      const g = payload[o.groupsClaim];
      const list = typeof g === 'string' ? [g] : Array.isArray(g) && g.every((x) => typeof x === 'string') ? g as string[] : undefined;
      if (!list) throw unauthorized(`oidc: parse groups claim "${o.groupsClaim}": not a string or an array of strings`);
      groups.push(...list.map((x) => `${o.groupsPrefix ?? ''}${x}`));
    }
    return { name: `${usernamePrefix}${name}`, groups };
  }
};
