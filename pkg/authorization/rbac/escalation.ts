// The escalation checks on writes of roles and bindings (upstream: registry/rbac policybased storage and
// rbac/validation ConfirmNoEscalation): nobody grants a permission they lack, unless they may `escalate`
// (roles) or `bind` (bindings) that role. system:masters is exempt.
import type { KubeObject } from '../../../api/types.js';
import { semanticallyEqual } from '../../registry/meta.js';
import { forbidden, notFound, StatusError } from '../../apimachinery/errors.js';
import type { UserInfo } from '../../authentication/interface.js';
import type { Authorizer, PolicyRule } from '../interface.js';
import { covers } from './covers.js';
import type { RbacResolver } from './resolver.js';
import { compactString } from './rules.js';

const GROUP = 'rbac.authorization.k8s.io';
const FULL_AUTHORITY: PolicyRule[] = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }];

/** What the check needs of a write: the shape of an admission request. */
export interface RbacWrite {
  operation: string;
  resource: { group: string; plural: string };
  namespace?: string;
  name: string;
  object?: KubeObject;
  oldObject?: KubeObject;
  user?: UserInfo;
}

export interface EscalationCheck {
  /** A promise only for a write that needs looking at (RBAC objects written by someone outside system:masters). */
  validate(w: RbacWrite): Promise<void> | void;
}

export function escalationCheck(resolver: RbacResolver, authorizer: () => Authorizer): EscalationCheck {
  const may = async (user: UserInfo, verb: string, plural: string, namespace: string, name: string): Promise<boolean> => {
    const r = await authorizer().authorize({
      user, verb, isResourceRequest: true, path: '', namespace, apiGroup: GROUP, apiVersion: '*', resource: plural, subresource: '', name,
    });
    return r.decision === 'allow';
  };
  const refuse = (w: RbacWrite, message: string): Error =>
    forbidden(`${w.resource.plural}.${GROUP} "${w.name}" is forbidden: ${message}`, { name: w.name, group: GROUP, kind: w.resource.plural });

  const confirmNoEscalation = async (w: RbacWrite, user: UserInfo, rules: PolicyRule[], namespace: string): Promise<void> => {
    if (resolver.stale()) await resolver.fresh();
    const owner = resolver.rulesFor(user, namespace, 'registry');
    const { covered, missing } = covers(owner.rules, rules);
    if (covered) return;
    const lines = [...new Set(compact(missing).map(compactString))].sort();
    let msg = `user "${user.name}" (groups=[${user.groups.map((g) => JSON.stringify(g)).join(' ')}]) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
    if (owner.errors.length) msg += `; resolution errors: [${owner.errors.join(' ')}]`;
    throw refuse(w, msg);
  };

  const check = async (w: RbacWrite, user: UserInfo, obj: KubeObject): Promise<void> => {
    const old = w.operation === 'UPDATE' ? w.oldObject : undefined;
    const ns = w.namespace ?? '';
    switch (w.resource.plural) {
      case 'roles':
      case 'clusterroles': {
        if (await may(user, 'escalate', w.resource.plural, ns, w.name)) return;
        // Any other change, metadata alone included, is checked: only the garbage collector's writes are not.
        if (old && onlyGCFields(obj, old)) return;
        await confirmNoEscalation(w, user, (obj.rules ?? []) as PolicyRule[], ns);
        // After the rules (as upstream): an aggregationRule, set or being removed, gathers anything.
        if (w.resource.plural === 'clusterroles' && (aggregates(obj) || (old && aggregates(old)))) {
          if (!covers(resolver.rulesFor(user, '', 'registry').rules, FULL_AUTHORITY).covered) throw refuse(w, 'must have cluster-admin privileges to use the aggregationRule');
        }
        return;
      }
      case 'rolebindings':
      case 'clusterrolebindings': {
        if (old && onlyGCFields(obj, old)) return;
        const ref = (obj.roleRef ?? {}) as { kind?: string; name?: string };
        const refPlural = ref.kind === 'ClusterRole' ? 'clusterroles' : 'roles';
        if (await may(user, 'bind', refPlural, ns, ref.name ?? '')) return;
        if (resolver.stale()) await resolver.fresh();
        const got = resolver.roleReferenceRules(ref, ns, 'registry');
        // Upstream returns the role getter's error as it is: the registry's 404, not a 403 (any other, a plain 500).
        if ('error' in got) throw got.missing ? notFound({ group: GROUP, resource: got.missing }, ref.name ?? '') : new StatusError(500, '', got.error);
        await confirmNoEscalation(w, user, got.rules, ns);
        return;
      }
      default:
    }
  };

  return {
    validate(w) {
      const user = w.user;
      if (w.resource.group !== GROUP || !user || !w.object) return;
      if (w.operation !== 'CREATE' && w.operation !== 'UPDATE') return;
      if (user.groups.includes('system:masters')) return;
      return check(w, user, w.object);
    },
  };
}

/**
 * An update that changes nothing but what the garbage collector writes (ownerReferences, finalizers; selfLink):
 * upstream's IsOnlyMutatingGCFields, the one update the escalation checks let through unexamined.
 */
function onlyGCFields(obj: KubeObject, old: KubeObject): boolean {
  const gc = { ownerReferences: old.metadata?.ownerReferences, finalizers: old.metadata?.finalizers, selfLink: old.metadata?.selfLink };
  return semanticallyEqual({ ...obj, metadata: { ...obj.metadata, ...gc } }, old);
}

/** A ClusterRole that aggregates: an aggregationRule with at least one selector. */
const aggregates = (role: KubeObject): boolean => ((role.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined)?.clusterRoleSelectors?.length ?? 0) > 0;

/** Single rules that differ only in verb become one rule (upstream: CompactRules). */
function compact(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const byKey = new Map<string, PolicyRule>();
  for (const r of rules) {
    if (r.nonResourceURLs?.length || r.resourceNames?.length) {
      out.push(r);
      continue;
    }
    const key = `${r.apiGroups?.[0]}/${r.resources?.[0]}`;
    const prev = byKey.get(key);
    if (prev) {
      for (const v of r.verbs) if (!prev.verbs.includes(v)) prev.verbs.push(v);
    } else {
      const c = { apiGroups: r.apiGroups, resources: r.resources, verbs: [...r.verbs] };
      byKey.set(key, c);
      out.push(c);
    }
  }
  return out;
}
