// The RBAC authorizer (upstream: plugin/pkg/auth/authorizer/rbac): allow when a rule bound to the user
// matches, otherwise no opinion (never deny).
import type { Attributes, AuthorizationResult, Authorizer } from '../interface.js';
import type { RbacResolver } from './resolver.js';
import { ruleAllows } from './rules.js';

export function rbacAuthorizer(resolver: RbacResolver): Authorizer {
  const check = (a: Attributes): AuthorizationResult => {
    const { rules, errors } = resolver.resolve(a.user, a.namespace);
    const allowedBy = rules.find((r) => ruleAllows(a, r.rule))?.source;
    if (allowedBy !== undefined) return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy}` };
    const reason = errors.length === 0 ? '' : errors.length === 1 ? `RBAC: ${errors[0]}` : `RBAC: [${errors.join(', ')}]`;
    return { decision: 'noopinion', reason };
  };
  return {
    name: 'RBAC',
    authorize(a) {
      const r = check(a);
      // A binding written a moment ago may still be on its way to the cache: look again once it is there.
      if (r.decision !== 'allow' && resolver.stale()) return resolver.fresh().then(() => check(a));
      return r;
    },
  };
}
