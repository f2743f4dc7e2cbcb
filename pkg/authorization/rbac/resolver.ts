// Upstream's DefaultRuleResolver over the watch caches: which rules apply to a user in a namespace,
// through which binding. Bindings are indexed by subject (user, group, service account) and the index
// is rebuilt only after a binding changes. What the authorizer asks for every request, the rules of one
// user in one namespace with their sources, is kept until any role or binding changes.
import type { KubeObject } from '../../../api/types.js';
import type { UserInfo } from '../../authentication/interface.js';
import type { RbacCaches } from '../cache.js';
import type { PolicyRule, RuleResolver } from '../interface.js';

export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

interface Entry {
  binding: KubeObject;
  subject: Subject;
}

/** Visits each rule with its source; return false to stop. `err` reports a role that could not be read. */
export type RuleVisitor = (source: string | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean;

/** How a missing role is named: by the authorizer's listers, or by the registry (escalation checks). */
export type RoleNaming = 'lister' | 'registry';

const SA_PREFIX = 'system:serviceaccount:';

/** A user's rules in a namespace, in visiting order, with the binding each comes through; and the roles not found. */
export interface ResolvedRules {
  rules: Array<{ source: string; rule: PolicyRule }>;
  errors: string[];
}

/** Users × namespaces kept at most; the cache starts over when full. */
const MAX_RESOLVED = 10_000;

export class RbacResolver implements RuleResolver {
  private clusterIndex: Map<string, Entry[]> | undefined;
  private namespaceIndex: Map<string, Map<string, Entry[]>> | undefined;
  private readonly resolved = new Map<string, ResolvedRules>();
  private readonly unsubscribe: Array<() => void>;

  constructor(readonly caches: RbacCaches) {
    const forget = (): void => this.resolved.clear();
    this.unsubscribe = [
      caches.clusterRoleBindings.subscribe(() => { this.clusterIndex = undefined; forget(); }),
      caches.roleBindings.subscribe(() => { this.namespaceIndex = undefined; forget(); }),
      caches.clusterRoles.subscribe(forget),
      caches.roles.subscribe(forget),
    ];
  }

  /** The user's rules in the namespace, from the last resolution while no role or binding has changed since. */
  resolve(user: UserInfo, namespace: string): ResolvedRules {
    const key = `${user.name}\0${user.groups.join('\0')}\0\0${namespace}`;
    let r = this.resolved.get(key);
    if (!r) {
      const resolved: ResolvedRules = { rules: [], errors: [] };
      this.visitRulesFor(user, namespace, (source, rule, err) => {
        if (rule) resolved.rules.push({ source: source!, rule });
        if (err) resolved.errors.push(err);
        return true;
      });
      if (this.resolved.size >= MAX_RESOLVED) this.resolved.clear();
      this.resolved.set(key, (r = resolved));
    }
    return r;
  }

  stop(): void {
    this.unsubscribe.forEach((u) => u());
  }

  stale(): boolean {
    const c = this.caches;
    return c.roles.stale() || c.roleBindings.stale() || c.clusterRoles.stale() || c.clusterRoleBindings.stale();
  }

  async fresh(): Promise<void> {
    const c = this.caches;
    await Promise.all([c.roles.fresh(), c.roleBindings.fresh(), c.clusterRoles.fresh(), c.clusterRoleBindings.fresh()]);
  }

  private clusterBindings(): Map<string, Entry[]> {
    if (!this.clusterIndex) {
      const idx = new Map<string, Entry[]>();
      for (const b of this.caches.clusterRoleBindings.list()) indexBinding(idx, b, '');
      this.clusterIndex = idx;
    }
    return this.clusterIndex;
  }

  private namespaceBindings(namespace: string): Map<string, Entry[]> | undefined {
    if (!this.namespaceIndex) {
      const all = new Map<string, Map<string, Entry[]>>();
      for (const b of this.caches.roleBindings.list()) {
        const ns = b.metadata?.namespace ?? '';
        let idx = all.get(ns);
        if (!idx) all.set(ns, (idx = new Map()));
        indexBinding(idx, b, ns);
      }
      this.namespaceIndex = all;
    }
    return this.namespaceIndex.get(namespace);
  }

  /**
   * The rules of a role reference, as a binding in `namespace` ("" for a ClusterRoleBinding) sees them. A missing
   * role is named as upstream's getter words it: the authorizer's listers say `role.rbac…`, the registry that the
   * escalation checks read says `roles.rbac…` (`missing` is then that resource).
   */
  roleReferenceRules(roleRef: { kind?: string; name?: string }, namespace: string, naming: RoleNaming = 'lister'): { rules: PolicyRule[] } | { error: string; missing?: string } {
    const absent = (singular: string): { error: string; missing: string } => {
      const resource = naming === 'registry' ? `${singular}s` : singular;
      return { error: `${resource}.rbac.authorization.k8s.io "${roleRef.name}" not found`, missing: resource };
    };
    if (roleRef.kind === 'ClusterRole') {
      const r = this.caches.clusterRoles.get(undefined, roleRef.name ?? '');
      if (!r) return absent('clusterrole');
      return { rules: (r.rules ?? []) as PolicyRule[] };
    }
    if (roleRef.kind === 'Role') {
      const r = namespace ? this.caches.roles.get(namespace, roleRef.name ?? '') : undefined;
      if (!r) return absent('role');
      return { rules: (r.rules ?? []) as PolicyRule[] };
    }
    return { error: `unsupported role reference kind: "${roleRef.kind}"` };
  }

  /** ClusterRoleBindings first, then the RoleBindings of `namespace` (upstream's VisitRulesFor). */
  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor, naming: RoleNaming = 'lister'): void {
    const keys = subjectKeys(user);
    const walk = (idx: Map<string, Entry[]>, ns: string): boolean => {
      const seen = new Set<KubeObject>();
      for (const key of keys) {
        for (const e of idx.get(key) ?? []) {
          if (seen.has(e.binding)) continue;
          seen.add(e.binding);
          const got = this.roleReferenceRules(e.binding.roleRef ?? {}, ns, naming);
          if ('error' in got) {
            if (!visit(undefined, undefined, got.error)) return false;
            continue;
          }
          const source = describe(e.binding, e.subject, ns);
          for (const r of got.rules) if (!visit(source, r, undefined)) return false;
        }
      }
      return true;
    };
    if (!walk(this.clusterBindings(), '')) return;
    if (!namespace) return;
    const idx = this.namespaceBindings(namespace);
    if (idx) walk(idx, namespace);
  }

  rulesFor(user: UserInfo, namespace: string, naming: RoleNaming = 'lister'): { rules: PolicyRule[]; incomplete: boolean; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_s, r, err) => {
      if (r) rules.push(r);
      if (err) errors.push(err);
      return true;
    }, naming);
    return { rules, incomplete: errors.length > 0, errors };
  }
}

function subjectKeys(user: UserInfo): string[] {
  return [`u:${user.name}`, ...user.groups.map((g) => `g:${g}`)];
}

function indexBinding(idx: Map<string, Entry[]>, binding: KubeObject, namespace: string): void {
  for (const s of (binding.subjects ?? []) as Subject[]) {
    let key: string | undefined;
    if (s.kind === 'User') key = `u:${s.name}`;
    else if (s.kind === 'Group') key = `g:${s.name}`;
    else if (s.kind === 'ServiceAccount') {
      const ns = s.namespace || namespace;
      if (ns && s.name) key = `u:${SA_PREFIX}${ns}:${s.name}`;
    }
    if (!key) continue;
    let list = idx.get(key);
    if (!list) idx.set(key, (list = []));
    list.push({ binding, subject: s });
  }
}

/** Upstream's words: `ClusterRoleBinding "x" of ClusterRole "y" to User "z"`, `RoleBinding "x/ns" of Role "y" to Group "g"`. */
function describe(b: KubeObject, s: Subject, namespace: string): string {
  const subject = s.kind === 'ServiceAccount' ? `${s.kind} "${s.name}/${s.namespace || namespace}"` : `${s.kind} "${s.name}"`;
  const ref = `${b.roleRef?.kind} "${b.roleRef?.name}"`;
  return namespace
    ? `RoleBinding "${b.metadata?.name}/${namespace}" of ${ref} to ${subject}`
    : `ClusterRoleBinding "${b.metadata?.name}" of ${ref} to ${subject}`;
}
