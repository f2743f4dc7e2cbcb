// Builds the chain named by --authorization-mode.
import { alwaysAllow, alwaysDeny } from './always.js';
import type { Authorizer } from './interface.js';
import { union } from './union.js';

const MODES: Record<string, () => Authorizer> = {
  AlwaysAllow: () => alwaysAllow,
  AlwaysDeny: () => alwaysDeny,
};

export function buildAuthorizer(modes: string[]): Authorizer {
  if (modes.length === 0) throw new Error('--authorization-mode: at least one mode is required');
  return union(modes.map((m) => {
    const make = MODES[m];
    if (!make) {
      throw new Error(`--authorization-mode ${m}: not supported yet (supported: ${Object.keys(MODES).join(', ')}); ABAC, RBAC, Node and Webhook arrive with the security chain`);
    }
    return make();
  }));
}

export type { Attributes, Authorizer, AuthorizationResult, Decision } from './interface.js';
