// Deployment helpers (upstream pkg/controller/deployment/util): revisions and annotations, surge / unavailable
// fenceposts, finding the new ReplicaSet, replica counts, conditions.
import type { KubeObject } from '../../../api/types.js';
import { canonicalJson, getCondition, type Condition } from '../shared/controller-utils.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export const REVISION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
export const POD_TEMPLATE_HASH = 'pod-template-hash';
export const MAX_INT32 = 2147483647;

/** Annotations of a Deployment never copied onto its ReplicaSets. */
const SKIP_ANNOTATIONS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration', REVISION, REVISION_HISTORY, DESIRED_REPLICAS, MAX_REPLICAS,
  'deprecated.deployment.rollback.to',
]);

export type RS = KubeObject;

export const replicasOf = (o: KubeObject | undefined): number => (o ? (o.spec?.replicas ?? 1) : 0);
export const revisionOf = (o: KubeObject | undefined): number => Number(o?.metadata?.annotations?.[REVISION] ?? 0) || 0;
export const maxRevision = (rss: RS[]): number => Math.max(0, ...rss.map(revisionOf));

/** An int-or-percent against a total (upstream intstr.GetScaledValueFromIntOrPercent). */
export const scaled = (v: number | string | undefined, total: number, roundUp: boolean, dflt: string): number => {
  const x = v ?? dflt;
  if (typeof x === 'number') return x;
  const m = /^(\d+)%$/.exec(x);
  if (!m) return Number(x) || 0;
  const f = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(f) : Math.floor(f);
};

/** maxSurge and maxUnavailable of a rolling update (upstream ResolveFenceposts: never both zero). */
export const fenceposts = (d: KubeObject): { surge: number; unavailable: number } => {
  const ru = d.spec?.strategy?.rollingUpdate ?? {};
  const replicas = replicasOf(d);
  const surge = scaled(ru.maxSurge, replicas, true, '25%');
  let unavailable = scaled(ru.maxUnavailable, replicas, false, '25%');
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
};

export const isRolling = (d: KubeObject): boolean => (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
export const maxSurge = (d: KubeObject): number => (isRolling(d) ? fenceposts(d).surge : 0);
export const maxUnavailable = (d: KubeObject): number => {
  if (!isRolling(d) || replicasOf(d) === 0) return 0;
  return Math.min(fenceposts(d).unavailable, replicasOf(d));
};

/** The template without the pod-template-hash label, for comparisons (upstream EqualIgnoreHash). */
const withoutHash = (t: KubeObject | undefined): string => {
  const c = cloneJson(t ?? {});
  if (c.metadata?.labels) {
    delete c.metadata.labels[POD_TEMPLATE_HASH];
    if (Object.keys(c.metadata.labels).length === 0) delete c.metadata.labels;
  }
  if (c.metadata && Object.keys(c.metadata).length === 0) delete c.metadata;
  return canonicalJson(c);
};
export const equalIgnoreHash = (a: KubeObject | undefined, b: KubeObject | undefined): boolean => withoutHash(a) === withoutHash(b);

const created = (o: KubeObject): number => Date.parse(o.metadata?.creationTimestamp ?? '') || 0;
export const byCreation = (a: RS, b: RS): number => created(a) - created(b) || (a.metadata!.name! < b.metadata!.name! ? -1 : 1);

/** The oldest ReplicaSet whose template equals the Deployment's. */
export const findNewReplicaSet = (d: KubeObject, rss: RS[]): RS | undefined =>
  [...rss].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));

export const sumSpec = (rss: RS[]): number => rss.reduce((n, rs) => n + replicasOf(rs), 0);
export const sumStatus = (rss: RS[], f: 'replicas' | 'readyReplicas' | 'availableReplicas'): number => rss.reduce((n, rs) => n + (rs.status?.[f] ?? 0), 0);
export const activeReplicaSets = (rss: RS[]): RS[] => rss.filter((rs) => replicasOf(rs) > 0);

/** Copies the Deployment's annotations onto a ReplicaSet; true when something changed. */
export const copyAnnotations = (d: KubeObject, rs: RS): boolean => {
  let changed = false;
  const target = (rs.metadata!.annotations ??= {});
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) {
    if (SKIP_ANNOTATIONS.has(k) || target[k] === v) continue;
    target[k] = v as string;
    changed = true;
  }
  return changed;
};

/** desired-replicas and max-replicas annotations; true when they changed. */
export const setReplicasAnnotations = (rs: RS, desired: number, max: number): boolean => {
  const a = (rs.metadata!.annotations ??= {});
  if (a[DESIRED_REPLICAS] === String(desired) && a[MAX_REPLICAS] === String(max)) return false;
  a[DESIRED_REPLICAS] = String(desired);
  a[MAX_REPLICAS] = String(max);
  return true;
};

export const setCondition = (conds: Condition[] | undefined, c: Condition): Condition[] => {
  const cur = getCondition(conds, c.type);
  if (cur && cur.status === c.status && cur.reason === c.reason) return conds ?? [];
  if (cur && cur.status === c.status) c.lastTransitionTime = cur.lastTransitionTime;
  return [...(conds ?? []).filter((x) => x.type !== c.type), c];
};

export const newCondition = (type: string, status: Condition['status'], reason: string, message: string, ts: string): Condition =>
  ({ type, status, lastUpdateTime: ts, lastTransitionTime: ts, reason, message });

export const hasProgressDeadline = (d: KubeObject): boolean => d.spec?.progressDeadlineSeconds != null && d.spec.progressDeadlineSeconds !== MAX_INT32;

/** Upstream's limit of the revision-history annotation (the controller's MaxRevHistoryLengthInChars). */
const MAX_REVISION_HISTORY_CHARS = 2000;

/**
 * The revision-history annotation with `revision` (the one a rolled-back set had) appended, its oldest entries
 * dropped to keep it within 2,000 characters; unchanged when even that cannot.
 */
export function appendRevisionHistory(history: string | undefined, revision: string): string {
  if (!history) return revision;
  const entries = history.split(',');
  let length = history.length + revision.length + 1;
  let start = 0;
  for (; length > MAX_REVISION_HISTORY_CHARS && start < entries.length; start++) length -= entries[start]!.length + 1;
  return length <= MAX_REVISION_HISTORY_CHARS ? [...entries.slice(start), revision].join(',') : history;
}
