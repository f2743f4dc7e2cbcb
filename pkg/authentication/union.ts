// Tries each authenticator in order, as upstream's union + authenticated-group adder + anonymous fallback do.
import { isStatusError, unauthorized } from '../apimachinery/errors.js';
import { authorizationHeader } from './authorization-header.js';
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

/**
 * A credential that someone rejected, or an Authorization header that no one understood, is a 401 even when
 * anonymous access is on: a caller who tried to be someone must not silently become nobody.
 * The reasons stay on `cause` for the server's log; the client sees upstream's bare "Unauthorized".
 */
export const unionAuthenticator = (authenticators: Authenticator[], anonymous?: Authenticator): RequestAuthenticator => ({
  async authenticate(req) {
    const rejections: Error[] = [];
    for (const a of authenticators) {
      try {
        const r = await a.authenticate(req);
        if (r) return withAuthenticatedGroup(r);
      } catch (e) {
        if (!isStatusError(e) || e.code !== 401) throw e;
        rejections.push(new Error(`${a.name}: ${e.message}`));
      }
    }
    if (rejections.length === 0 && authorizationHeader(req) === undefined && anonymous) {
      const r = await anonymous.authenticate(req);
      if (r) return r;
    }
    const err = unauthorized();
    if (rejections.length > 0) err.cause = new AggregateError(rejections, rejections.map((r) => r.message).join('; '));
    throw err;
  },
});
