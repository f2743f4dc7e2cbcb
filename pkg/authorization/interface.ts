// Authorization: each authorizer answers allow, deny or no opinion; a union asks them in order
// and the first allow or deny decides (upstream: apiserver/pkg/authorization/union).
import type { UserInfo } from '../authentication/interface.js';

export interface Attributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
  /** The request's fieldSelector (list/watch), for authorizers that limit by it (Node). */
  fieldSelector?: string;
  /** The request's labelSelector (list/watch). */
  labelSelector?: string;
}

export type Decision = 'allow' | 'deny' | 'noopinion';

export interface AuthorizationResult {
  decision: Decision;
  /** Why, for the 403 message and audit; names the authorizer. */
  reason: string;
}

export interface Authorizer {
  readonly name: string;
  authorize(a: Attributes): Promise<AuthorizationResult> | AuthorizationResult;
}

/** One rule as RBAC spells it: the form SelfSubjectRulesReview answers with. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** What an authorizer can list of a user's rules in a namespace (SelfSubjectRulesReview). */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; incomplete: boolean; errors: string[] };
}
