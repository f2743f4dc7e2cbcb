// The authorizer chain of --authorization-mode: the first allow or deny wins; no opinion from
// everyone is a denial.
import type { Attributes, AuthorizationResult, Authorizer } from './interface.js';

export function union(authorizers: Authorizer[]): Authorizer {
  return {
    name: authorizers.map((a) => a.name).join(','),
    async authorize(a: Attributes): Promise<AuthorizationResult> {
      const reasons: string[] = [];
      for (const z of authorizers) {
        const r = await z.authorize(a);
        if (r.decision !== 'noopinion') return r;
        if (r.reason) reasons.push(r.reason);
      }
      return { decision: 'noopinion', reason: reasons.join(', ') };
    },
  };
}
