// Wires authorization to the registries: the authorizer chain of --authorization-mode reading the watch
// caches, the bootstrap RBAC policy (reconciled at start), ClusterRole aggregation, and the escalation
// checks on writes of roles and bindings.
import type { KubeObject } from '../../api/types.js';
import type { Admission } from '../admission/interface.js';
import { isStatusError } from '../apimachinery/errors.js';
import { andThen } from '../apimachinery/maybe-async.js';
import { webhookClient } from '../authentication/webhook-client.js';
import { buildAuthorizer, buildRuleResolver, RbacResolver, type Authorizer, type ObjectCache, type RuleResolver } from '../authorization/index.js';
import { aggregatedRules, rulesEqual } from '../authorization/rbac/aggregation.js';
import { escalationCheck } from '../authorization/rbac/escalation.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles, bootstrapRoleBindings, bootstrapRoles } from '../authorization/rbac/policy.js';
import { reconcileBinding, reconcileRole } from '../authorization/rbac/reconcile.js';
import { systemContext } from '../registry/context.js';
import { create } from '../registry/generic/create.js';
import { deleteObject } from '../registry/generic/delete.js';
import type { Registry } from '../registry/generic/registry.js';
import { update } from '../registry/generic/update.js';
import type { RegistrySet } from '../registry/index.js';
import { listPrefix, resourcePrefix } from '../registry/keys.js';
import { followCache } from '../storage/cacher/follow.js';

const RBAC = 'rbac.authorization.k8s.io';

export interface Authorization {
  authorizer: Authorizer;
  resolver: RbacResolver;
  /** The rules a user has (SelfSubjectRulesReview), over every mode that can list them. */
  rules: RuleResolver;
  /** Admission with the RBAC escalation checks in front of its validating phase. */
  withEscalationChecks(admission: Admission): Admission;
  /** Creates or reconciles the bootstrap policy, aggregates ClusterRoles, and keeps aggregating on changes. */
  bootstrap(): Promise<void>;
  stop(): Promise<void>;
}

export function cacheOf(reg: Registry): ObjectCache {
  const { cacher, store } = reg.deps;
  return {
    get: (ns, name) => reg.peek(ns, name)?.object,
    list: (ns) => cacher.list({ prefix: listPrefix(reg.rt, ns) }).items.map((kv) => kv.object),
    subscribe: (cb) => followCache(cacher, resourcePrefix(reg.rt), (ev) => cb(ev.kv.object, ev.type)),
    stale: () => cacher.revision() < store.revision(),
    fresh: () => cacher.waitUntilFresh(store.revision(), AbortSignal.timeout(5_000)).catch(() => undefined),
  };
}

export interface AuthorizationOptions {
  modes: string[];
  policyFile?: string;
  /** Webhook mode: the SubjectAccessReview server's kubeconfig and how long answers are cached. */
  webhook?: { configFile: string; version?: 'v1' | 'v1beta1'; authorizedTtlMs?: number; unauthorizedTtlMs?: number };
  onError?: (err: unknown, what: string) => void;
}

export async function createAuthorization(regs: RegistrySet, o: AuthorizationOptions): Promise<Authorization> {
  const reg = (group: string, plural: string): Registry => {
    const r = regs.get(group, 'v1', plural);
    if (!r) throw new Error(`authorization needs ${plural}.${group || 'core'}`);
    return r;
  };
  const roles = reg(RBAC, 'roles');
  const roleBindings = reg(RBAC, 'rolebindings');
  const clusterRoles = reg(RBAC, 'clusterroles');
  const clusterRoleBindings = reg(RBAC, 'clusterrolebindings');
  const resolver = new RbacResolver({
    roles: cacheOf(roles), roleBindings: cacheOf(roleBindings), clusterRoles: cacheOf(clusterRoles), clusterRoleBindings: cacheOf(clusterRoleBindings),
  });
  const pvcs = regs.get('', 'v1', 'persistentvolumeclaims');
  const { webhook } = o;
  const webhookHttp = webhook && o.modes.includes('Webhook') ? await webhookClient(webhook.configFile, 'authorization') : undefined;
  const deps = {
    webhook: webhookHttp && { ...webhook, client: webhookHttp, onError: (err: unknown) => o.onError?.(err, 'authorization webhook') },
    rbac: resolver,
    node: o.modes.includes('Node') ? { pods: cacheOf(reg('', 'pods')), persistentVolumeClaims: pvcs ? cacheOf(pvcs) : undefined } : undefined,
    policyFile: o.policyFile,
  };
  const authorizer = buildAuthorizer(o.modes, deps);
  const escalation = escalationCheck(resolver, () => authorizer);
  const unsubscribe: Array<() => void> = [];

  let aggregating: Promise<void> | undefined;
  let again = false;
  /** Aggregates until nothing changes (edit feeds admin, view feeds edit), a few passes at most. */
  const aggregate = async (): Promise<void> => {
    for (let pass = 0; pass < 5 && await aggregateOnce(); pass++);
  };
  const aggregateOnce = async (): Promise<boolean> => {
    let changed = false;
    const all = cacheOf(clusterRoles).list();
    for (const role of all) {
      const rules = aggregatedRules(role, all);
      if (rules === undefined || rulesEqual(rules, role.rules)) continue;
      changed = true;
      await update(clusterRoles, systemContext(), {
        name: role.metadata!.name!,
        build: (cur) => {
          const next = structuredClone(cur!);
          next.rules = aggregatedRules(next, cacheOf(clusterRoles).list()) ?? next.rules;
          return next;
        },
      }).catch((err: unknown) => {
        if (!(isStatusError(err) && err.code === 404)) throw err;
      });
    }
    return changed;
  };
  const scheduleAggregation = (): void => {
    if (aggregating) {
      again = true;
      return;
    }
    aggregating = (async () => {
      do {
        again = false;
        try {
          await aggregate();
        } catch (err) {
          o.onError?.(err, 'clusterrole aggregation');
        }
      } while (again);
      aggregating = undefined;
    })();
  };

  return {
    authorizer,
    resolver,
    rules: buildRuleResolver(o.modes, deps),
    withEscalationChecks: (admission) => ({
      mutate: (a) => admission.mutate(a),
      validate: (a) => andThen(escalation.validate(a), () => admission.validate(a)),
    }),
    async bootstrap() {
      // In parallel: the store's group commit makes one fsync of many writes.
      await Promise.all([
        ...bootstrapClusterRoles().map((obj) => ensure(clusterRoles, obj, reconcileRole)),
        ...bootstrapClusterRoleBindings().map((obj) => ensureBinding(clusterRoleBindings, obj)),
        ...bootstrapRoles().map((obj) => ensure(roles, obj, reconcileRole)),
        ...bootstrapRoleBindings().map((obj) => ensureBinding(roleBindings, obj)),
      ]);
      await aggregate();
      unsubscribe.push(cacheOf(clusterRoles).subscribe(() => scheduleAggregation()));
    },
    async stop() {
      unsubscribe.forEach((u) => u());
      resolver.stop();
      await webhookHttp?.close();
    },
  };
}

async function ensure(reg: Registry, desired: KubeObject, reconcile: (existing: KubeObject, desired: KubeObject) => KubeObject | undefined): Promise<void> {
  const ns = desired.metadata?.namespace;
  const name = desired.metadata!.name!;
  const existing = reg.peek(ns, name)?.object;
  if (existing && !reconcile(existing, desired)) return;
  if (!existing) {
    try {
      await create(reg, systemContext(ns), structuredClone(desired));
      return;
    } catch (err) {
      if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
    }
  }
  await update(reg, systemContext(ns), { name, build: (cur) => (cur ? reconcile(cur, desired) ?? cur : structuredClone(desired)) });
}

async function ensureBinding(reg: Registry, desired: KubeObject): Promise<void> {
  const ns = desired.metadata?.namespace;
  const name = desired.metadata!.name!;
  const existing = reg.peek(ns, name)?.object;
  if (existing) {
    const r = reconcileBinding(existing, desired);
    if (!r.object) return;
    if (r.replace) {
      // roleRef is immutable: replace the binding.
      await deleteObject(reg, systemContext(ns), name, {}).catch(() => undefined);
      await create(reg, systemContext(ns), { ...r.object, metadata: { ...r.object.metadata, resourceVersion: undefined, uid: undefined, creationTimestamp: undefined, managedFields: undefined } });
      return;
    }
    await update(reg, systemContext(ns), { name, build: (cur) => (cur ? reconcileBinding(cur, desired).object ?? cur : structuredClone(desired)) });
    return;
  }
  await ensure(reg, desired, () => undefined);
}
