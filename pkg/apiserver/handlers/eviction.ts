// pods/eviction (what kubectl drain, the descheduler and cluster autoscalers post), as upstream's
// registry/core/pod/storage/eviction.go: a pod a PodDisruptionBudget covers goes only while the budget allows a
// disruption, and the budget records it first (disruptionsAllowed down by one, the pod in disruptedPods, one
// compare-and-swap, so two evictions never spend the same disruption); the pod is then marked DisruptionTarget
// (EvictionByEvictionAPI) and deleted.
import type { KubeObject } from '../../../api/types.js';
import { isPodReady, isPodTerminal, withPodCondition } from '../../../api/core/v1/pod-conditions.js';
import { updateDisruptionAllowedCondition, type BudgetStatus } from '../../../api/policy/v1/disruption-allowed.js';
import { badRequest, forbidden, isStatusError, namespaceMismatch, StatusError } from '../../apimachinery/errors.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { systemContext, type DeleteOptions, type RequestContext } from '../../registry/context.js';
import { decodeAs } from '../../registry/generic/decode.js';
import { checkPreconditions, deleteObject, validateDeleteOptions } from '../../registry/generic/delete.js';
import type { Registry } from '../../registry/generic/registry.js';
import { update } from '../../registry/generic/update.js';
import { rfc3339 } from '../../registry/meta.js';

/** Evictions admitted but not yet seen through by the disruption controller, past which a budget refuses more. */
const MAX_DISRUPTED_PODS = 2000;
/** Conflicting writes to the pod retried before giving up (upstream's EvictionsRetry steps). */
const RETRIES = 20;

const SUCCESS: KubeObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

export async function evictPod(pods: Registry, ctx: RequestContext, name: string, body: unknown): Promise<KubeObject> {
  // policy/v1beta1's Eviction has v1's fields
  const version = (body as KubeObject | undefined)?.apiVersion === 'policy/v1beta1' ? 'v1beta1' : 'v1';
  const eviction = decodeAs(pods.deps.decoder, body ?? {}, 'io.k8s.api.policy.v1.Eviction', 'Eviction', version, ctx);
  // as upstream's create handler does for every create, a subresource's too, before the eviction REST checks the name
  if (eviction.metadata?.namespace && eviction.metadata.namespace !== ctx.namespace) throw namespaceMismatch();
  if (eviction.metadata?.name !== name) throw badRequest('name in URL does not match name in Eviction object');
  const options = withRequestDryRun((eviction.deleteOptions ?? {}) as DeleteOptions, ctx.dryRun);
  // checked before anything is spent (upstream finds a bad option only when deleting, after taking a disruption)
  validateDeleteOptions(options);
  const c: RequestContext = { ...ctx, dryRun: options.dryRun?.includes('All') ?? false };
  await pods.admission('mutate', 'CREATE', c, eviction, undefined, name, 'eviction');
  await pods.admission('validate', 'CREATE', c, eviction, undefined, name, 'eviction');

  // A pod that no longer counts (ended, pending, or already going) is deleted without asking its budgets; unless the
  // caller named a resourceVersion, it must not have changed since it was judged (it might have become ready).
  const callerVersion = options.preconditions?.resourceVersion;
  let pod: KubeObject;
  for (let attempt = 1; ; attempt++) {
    pod = (await pods.get(c, name)).object;
    if (!canIgnoreBudgets(pod)) break;
    const enforce = !callerVersion && !isPodTerminal(pod) && !pod.metadata?.deletionTimestamp;
    try {
      await markAndDelete(pods, c, name, enforce ? withResourceVersion(options, pod.metadata?.resourceVersion) : options);
      return SUCCESS;
    } catch (err) {
      if (callerVersion || attempt >= RETRIES || !isConflict(err)) throw err;
    }
  }

  const budgets = await coveringBudgets(pods, c, pod);
  // upstream returns a bare Status (code and message): no reason, so kubectl prints just "Error from server: <message>"
  if (budgets.length > 1) throw new StatusError(500, '', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  const pdb = budgets[0];
  // An unready pod adds nothing to the budget's health: it may go without spending a disruption, if it is still the
  // same pod when deleted.
  const unhealthyMayGo = !!pdb && !isPodReady(pod) && (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow'
    || ((pdb.status?.currentHealthy ?? 0) >= (pdb.status?.desiredHealthy ?? 0) && (pdb.status?.desiredHealthy ?? 0) > 0));
  if (pdb && !unhealthyMayGo) await spendDisruption(pods, c, pdb, name);

  try {
    await markAndDelete(pods, c, name, unhealthyMayGo ? withResourceVersion(options, pod.metadata?.resourceVersion) : options);
  } catch (err) {
    if (unhealthyMayGo && !callerVersion && isConflict(err)) throw stillProcessing(pdb!.metadata!.name!);
    throw err;
  }
  return SUCCESS;
}

/** Ended, not yet running, or already being deleted: its going disrupts nothing a budget guards (canIgnorePDB). */
const canIgnoreBudgets = (pod: KubeObject): boolean =>
  isPodTerminal(pod) || pod.status?.phase === 'Pending' || !!pod.metadata?.deletionTimestamp;

const isConflict = (err: unknown): boolean => isStatusError(err) && err.code === 409;

/** The eviction's delete options with the request's dry run, which they may repeat but not contradict. */
function withRequestDryRun(options: DeleteOptions, requestDryRun: boolean): DeleteOptions {
  const fromRequest = requestDryRun ? ['All'] : [];
  if (!options.dryRun?.length) return { ...options, dryRun: fromRequest.length ? fromRequest : undefined };
  if (fromRequest.length && options.dryRun.join('\0') !== fromRequest.join('\0')) {
    throw badRequest(`Non-matching dry-run options in request and content: [${fromRequest.join(' ')}] and [${options.dryRun.join(' ')}]`);
  }
  return options;
}

const withResourceVersion = (options: DeleteOptions, resourceVersion: string | undefined): DeleteOptions =>
  ({ ...options, preconditions: { ...options.preconditions, resourceVersion } });

/** The budgets of the pod's namespace that select it (an empty selector selects nothing here). */
async function coveringBudgets(pods: Registry, ctx: RequestContext, pod: KubeObject): Promise<KubeObject[]> {
  const budgets = pods.deps.peer('policy', 'poddisruptionbudgets');
  if (!budgets) return [];
  const list = await budgets.list(ctx, {});
  return list.items.map((kv) => kv.object).filter((pdb) => {
    const sel = labelSelectorAsSelector(pdb.spec?.selector);
    return !sel.empty && sel.matches(pod.metadata?.labels);
  });
}

/**
 * Takes one disruption from the budget and records the pod in its disruptedPods, so that the disruption controller
 * does not count it healthy until it is gone (checkAndDecrement). The apiserver writes the budget's status as itself,
 * as upstream's loopback client; a concurrent change re-runs the check on the new status. A dry run only checks.
 */
async function spendDisruption(pods: Registry, ctx: RequestContext, pdb: KubeObject, podName: string): Promise<void> {
  const budgets = pods.deps.peer('policy', 'poddisruptionbudgets')!;
  if (ctx.dryRun) {
    checkBudget(pdb);
    return;
  }
  await update(budgets, systemContext(ctx.namespace), {
    name: pdb.metadata!.name!,
    subresource: 'status',
    build: (current) => {
      checkBudget(current!);
      const now = rfc3339(ctx.now);
      const status: BudgetStatus = { ...current!.status };
      status.disruptionsAllowed = (status.disruptionsAllowed ?? 0) - 1;
      if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(status, now);
      status.disruptedPods = { ...(status.disruptedPods as Record<string, string> | undefined), [podName]: now };
      return { ...current!, status };
    },
  });
}

function checkBudget(pdb: KubeObject): void {
  const name = pdb.metadata!.name!;
  const status = pdb.status ?? {};
  if ((status.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) throw stillProcessing(name);
  const allowed: number = status.disruptionsAllowed ?? 0;
  if (allowed < 0) throw forbidden(`poddisruptionbudget.policy "${name}" is forbidden: pdb disruptions allowed is negative`, { name, group: 'policy', kind: 'poddisruptionbudget' });
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) {
    throw forbidden(`poddisruptionbudget.policy "${name}" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller`, { name, group: 'policy', kind: 'poddisruptionbudget' });
  }
  if (allowed === 0) {
    throw new StatusError(429, 'TooManyRequests', 'Cannot evict pod as it would violate the pod\'s disruption budget.', {
      causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently` }],
    });
  }
}

/** A 429 asking to come back in 10 s: the budget's controller has not caught up with it. */
const stillProcessing = (name: string): StatusError =>
  new StatusError(429, 'TooManyRequests', 'Cannot evict pod as it would violate the pod\'s disruption budget.', {
    causes: [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} is still being processed by the server.` }],
    retryAfterSeconds: 10,
  });

/**
 * Marks the pod DisruptionTarget (EvictionByEvictionAPI) through its status, then deletes it; the delete's
 * preconditions hold for the marked pod, a resourceVersion one moving to the mark's (addConditionAndDeletePod). No
 * admission for either: the eviction's own ran.
 */
async function markAndDelete(pods: Registry, ctx: RequestContext, name: string, options: DeleteOptions): Promise<void> {
  let opts = options;
  if (!ctx.dryRun) {
    const marked = await update(pods, ctx, {
      name, subresource: 'status', internal: true,
      build: (current) => {
        const pod = current!;
        // the delete's preconditions hold for the pod as it is now, before the mark changes its resourceVersion
        checkPreconditions(pods, name, pod, options);
        const conditions = withPodCondition(pod.status?.conditions, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' }, rfc3339(ctx.now));
        return { ...pod, status: { ...pod.status, conditions } };
      },
    });
    if (options.preconditions?.resourceVersion) opts = withResourceVersion(options, marked.object.metadata?.resourceVersion);
  }
  await deleteObject(pods, ctx, name, opts, { admit: false });
}
