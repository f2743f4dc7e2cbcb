// Tries each authenticator in order, as upstream's union + authenticated-group adder + anonymous fallback do.
import { isStatusError, unauthorized } from '../apimachinery/errors.js';
import { schemeCredential } from './authorization-header.js';
import type { Authenticator, AuthnRequest, AuthnResult } from './interface.js';
import { anonymousUser, unauthenticatedGroup } from './anonymous.js';

export const authenticatedGroup = 'system:authenticated';

/** The request-level authenticator: always a user, or a 401 StatusError. */
export interface RequestAuthenticator {
  authenticate(req: AuthnRequest): Promise<AuthnResult>;
}

const withAuthenticatedGroup = (r: AuthnResult): AuthnResult => {
  const { name, groups } = r.user;
  if (name === anonymousUser || groups.includes(authenticatedGroup) || groups.includes(unauthenticatedGroup)) return r;
  return { ...r, user: { ...r.user, groups: [...groups, authenticatedGroup] } };
};

/** The first authenticator's answer, trying each in order; the reasons of those that refused on the way. */
export async function firstAccepting(authenticators: Authenticator[], req: AuthnRequest): Promise<{ result?: AuthnResult; rejections: Error[] }> {
  const rejections: Error[] = [];
  for (const a of authenticators) {
    try {
      const result = await a.authenticate(req);
      if (result) return { result, rejections };
    } catch (e) {
      if (!isStatusError(e) || e.code !== 401) throw e;
      rejections.push(new Error(`${a.name}: ${e.message}`));
    }
  }
  return { rejections };
}

/** A 401 with upstream's bare "Unauthorized" for the client, and the reasons on `cause` for the server's log. */
const rejected = (rejections: Error[]): Error => {
  const err = unauthorized();
  if (rejections.length > 0) err.cause = new AggregateError(rejections, rejections.map((r) => r.message).join('; '));
  return err;
};

/**
 * A credential that someone rejected, or a bearer token that no one knew (upstream's bearertoken authenticator says
 * "invalid bearer token"), is a 401 even when anonymous access is on. An Authorization header of another scheme, or
 * a Bearer one without a token, is no credential at all to upstream: such a request is anonymous.
 */
export const unionAuthenticator = (authenticators: Authenticator[], anonymous?: Authenticator): RequestAuthenticator => ({
  async authenticate(req) {
    const { result, rejections } = await firstAccepting(authenticators, req);
    if (result) return withAuthenticatedGroup(result);
    if (rejections.length === 0 && schemeCredential(req, 'bearer') === undefined && anonymous) {
      const r = await anonymous.authenticate(req);
      if (r) return r;
    }
    throw rejected(rejections);
  },
});
