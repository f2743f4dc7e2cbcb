// AlwaysAllow and AlwaysDeny, the two authorizers that look at nothing.
import type { Authorizer } from './interface.js';

export const alwaysAllow: Authorizer = { name: 'AlwaysAllow', authorize: () => ({ decision: 'allow', reason: '' }) };
export const alwaysDeny: Authorizer = { name: 'AlwaysDeny', authorize: () => ({ decision: 'deny', reason: 'Everything is forbidden.' }) };
