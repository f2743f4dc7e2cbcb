// Builds the chain named by --authorization-mode. As upstream, members of system:masters are allowed
// before any mode is asked.
import { abacAuthorizerFromFile } from './abac.js';
import { alwaysAllow, alwaysDeny } from './always.js';
import type { RbacCaches } from './cache.js';
import type { Attributes, AuthorizationResult, Authorizer, PolicyRule, RuleResolver } from './interface.js';
import { NODES_GROUP, nodeAuthorizer, type NodeCaches } from './node.js';
import { rbacAuthorizer } from './rbac/authorizer.js';
import { RbacResolver } from './rbac/resolver.js';
import { union } from './union.js';
import { webhookAuthorizer, type WebhookAuthorizerOptions } from './webhook.js';

export const PRIVILEGED_GROUP = 'system:masters';

export interface AuthorizerDeps {
  /** RBAC's objects (RBAC mode). */
  rbac?: RbacResolver;
  /** Pods and claims (Node mode). */
  node?: NodeCaches;
  /** --authorization-policy-file (ABAC mode). */
  policyFile?: string;
  /** The SubjectAccessReview webhook's client and caching (Webhook mode). */
  webhook?: WebhookAuthorizerOptions;
}

const need = <T>(v: T | undefined, what: string): T => {
  if (v === undefined) throw new Error(`--authorization-mode: ${what}`);
  return v;
};

const MODES: Record<string, (d: AuthorizerDeps) => Authorizer> = {
  AlwaysAllow: () => alwaysAllow,
  AlwaysDeny: () => alwaysDeny,
  RBAC: (d) => rbacAuthorizer(need(d.rbac, 'RBAC needs the RBAC caches')),
  Node: (d) => nodeAuthorizer(need(d.node, 'Node needs the pod cache')),
  ABAC: (d) => abacAuthorizerFromFile(need(d.policyFile, 'ABAC needs --authorization-policy-file')),
  Webhook: (d) => webhookAuthorizer(need(d.webhook, 'Webhook needs --authorization-webhook-config-file')),
};

const privileged = (a: Attributes): AuthorizationResult | undefined =>
  a.user.groups.includes(PRIVILEGED_GROUP) ? { decision: 'allow', reason: '' } : undefined;

export function buildAuthorizer(modes: string[], deps: AuthorizerDeps = {}): Authorizer {
  if (modes.length === 0) throw new Error('--authorization-mode: at least one mode is required');
  const chain = union(modes.map((m) => {
    const make = MODES[m];
    if (!make) {
      throw new Error(`--authorization-mode ${m}: not supported yet (supported: ${Object.keys(MODES).join(', ')})`);
    }
    return make(deps);
  }));
  return { name: chain.name, authorize: (a) => privileged(a) ?? chain.authorize(a) };
}

export { RbacResolver } from './rbac/resolver.js';
export type { ObjectCache, RbacCaches } from './cache.js';
export type { WebhookAuthorizerOptions } from './webhook.js';
export type { Attributes, Authorizer, AuthorizationResult, Decision, PolicyRule, RuleResolver } from './interface.js';

/**
 * What SelfSubjectRulesReview lists: the rules of every mode that can enumerate them (RBAC; AlwaysAllow is
 * everything), marked incomplete where a mode cannot (Node for node users, ABAC).
 */
export function buildRuleResolver(modes: string[], deps: AuthorizerDeps = {}): RuleResolver {
  return {
    rulesFor(user, namespace) {
      const rules: PolicyRule[] = [];
      const errors: string[] = [];
      let incomplete = false;
      for (const m of modes) {
        if (m === 'RBAC' && deps.rbac) {
          const r = deps.rbac.rulesFor(user, namespace);
          rules.push(...r.rules);
          errors.push(...r.errors);
          incomplete ||= r.incomplete;
        } else if (m === 'AlwaysAllow') {
          rules.push({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] });
        } else if (m === 'Node' && user.groups.includes(NODES_GROUP) && user.name.startsWith('system:node:')) {
          incomplete = true;
          errors.push('node authorizer does not support user rule resolution');
        } else if (m === 'ABAC' || m === 'Webhook') {
          incomplete = true;
        }
      }
      return { rules, incomplete, errors };
    },
  };
}
