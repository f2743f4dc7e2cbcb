// --anonymous-auth: a request that presents no credential becomes system:anonymous.
import type { Authenticator, AuthnResult } from './interface.js';

export const anonymousUser = 'system:anonymous';
export const unauthenticatedGroup = 'system:unauthenticated';

export const anonymousAuthenticator: Authenticator = {
  name: 'anonymous',
  authenticate: (): Promise<AuthnResult> => Promise.resolve({ user: { name: anonymousUser, groups: [unauthenticatedGroup] } }),
};
