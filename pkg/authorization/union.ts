// The authorizer chain of --authorization-mode: the first allow or deny wins; no opinion from
// everyone is a denial.
import type { Attributes, AuthorizationResult, Authorizer } from './interface.js';

export function union(authorizers: Authorizer[]): Authorizer {
  return {
    name: authorizers.map((a) => a.name).join(','),
    // At once while the authorizers answer at once (RBAC and Node from their caches): every request asks.
    authorize(a: Attributes): Promise<AuthorizationResult> | AuthorizationResult {
      const reasons: string[] = [];
      const decided = (r: AuthorizationResult): boolean => {
        if (r.decision !== 'noopinion') return true;
        if (r.reason) reasons.push(r.reason);
        return false;
      };
      const from = (i: number): Promise<AuthorizationResult> | AuthorizationResult => {
        for (; i < authorizers.length; i++) {
          const r = authorizers[i]!.authorize(a);
          if (r instanceof Promise) {
            const next = i + 1;
            return r.then((d) => (decided(d) ? d : from(next)));
          }
          if (decided(r)) return r;
        }
        return { decision: 'noopinion', reason: reasons.join(', ') };
      };
      return from(0);
    },
  };
}
