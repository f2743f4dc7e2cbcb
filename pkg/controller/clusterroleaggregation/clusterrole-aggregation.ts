// The ClusterRole aggregation controller (upstream pkg/controller/clusterroleaggregation): a ClusterRole with an
// aggregationRule gets, as its rules, the rules of every other ClusterRole its clusterRoleSelectors match (roles
// taken in name order, duplicate rules once). Any ClusterRole change re-syncs every aggregated role.
import type { KubeObject } from '../../../api/types.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { Resources, isNotFound } from '../../client/index.js';
import { canonicalJson, workerLoop } from '../shared/controller-utils.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';

export function aggregatedRules(role: KubeObject, all: KubeObject[]): unknown[] {
  const rules: unknown[] = [];
  const seen = new Set<string>();
  for (const selector of (role.aggregationRule?.clusterRoleSelectors ?? []) as unknown[]) {
    const sel = labelSelectorAsSelector(selector as Parameters<typeof labelSelectorAsSelector>[0]);
    const matched = all.filter((r) => r.metadata?.name !== role.metadata?.name && sel.matches(r.metadata?.labels))
      .sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
    for (const r of matched) {
      for (const rule of (r.rules ?? []) as unknown[]) {
        const k = canonicalJson(rule);
        if (seen.has(k)) continue;
        seen.add(k);
        rules.push(rule);
      }
    }
  }
  return rules;
}

export async function startClusterRoleAggregationController(ctx: ClusterControllerContext): Promise<void> {
  const informer = ctx.informers.informerFor(Resources.clusterRoles);
  const lister = informer.lister();
  const loop = workerLoop(ctx, 'clusterrole-aggregation-controller', sync);
  const enqueueAggregated = (): void => { for (const r of lister.list()) if (r.aggregationRule) loop.enqueue(r); };
  informer.addEventHandler({ onAdd: enqueueAggregated, onUpdate: enqueueAggregated, onDelete: enqueueAggregated });

  async function sync(name: string): Promise<void> {
    const role = lister.get(name);
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, lister.list());
    if (canonicalJson(rules) === canonicalJson(role.rules ?? [])) return;
    try {
      await ctx.client.resource(Resources.clusterRoles).update({ ...role, rules }, { signal: ctx.signal });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  await loop.run();
}
