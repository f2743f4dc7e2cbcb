// Where a DaemonSet pod runs (upstream daemon/util and NodeShouldRunDaemonPod): the node selector, required node
// affinity and taints against the pod's tolerations plus the DaemonSet defaults; the per-node pod affinity the
// controller writes so the scheduler places each pod on its node.
import type { KubeObject } from '../../../api/types.js';

export interface Toleration { key?: string; operator?: string; value?: string; effect?: string; tolerationSeconds?: number }
interface Taint { key: string; value?: string; effect: string }

/** The tolerations every DaemonSet pod gets (upstream AddOrUpdateDaemonPodTolerations). */
export const defaultTolerations = (hostNetwork: boolean): Toleration[] => [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ...(hostNetwork ? [{ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' }] : []),
];

export const withDefaultTolerations = (tolerations: Toleration[] | undefined, hostNetwork: boolean): Toleration[] => {
  const out = [...(tolerations ?? [])];
  for (const d of defaultTolerations(hostNetwork)) {
    if (!out.some((t) => t.key === d.key && t.effect === d.effect && (t.operator ?? 'Equal') === d.operator)) out.push(d);
  }
  return out;
};

const tolerates = (t: Toleration, taint: Taint): boolean => {
  if (t.effect && t.effect !== taint.effect) return false;
  if (!t.key) return t.operator === 'Exists';
  if (t.key !== taint.key) return false;
  return t.operator === 'Exists' || (t.value ?? '') === (taint.value ?? '');
};

const matchExpr = (e: { key: string; operator: string; values?: string[] }, get: (k: string) => string | undefined): boolean => {
  const v = get(e.key);
  switch (e.operator) {
    case 'In': return v !== undefined && (e.values ?? []).includes(v);
    case 'NotIn': return v === undefined || !(e.values ?? []).includes(v);
    case 'Exists': return v !== undefined;
    case 'DoesNotExist': return v === undefined;
    case 'Gt': return v !== undefined && Number(v) > Number(e.values?.[0]);
    case 'Lt': return v !== undefined && Number(v) < Number(e.values?.[0]);
    default: return false;
  }
};

const matchesNodeAffinity = (spec: KubeObject, node: KubeObject): boolean => {
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as
    { matchExpressions?: any[]; matchFields?: any[] }[] | undefined;
  if (!terms?.length) return true;
  const labels = node.metadata?.labels ?? {};
  return terms.some((t) => (t.matchExpressions?.length || t.matchFields?.length)
    && (t.matchExpressions ?? []).every((e) => matchExpr(e, (k) => labels[k]))
    && (t.matchFields ?? []).every((e) => matchExpr(e, (k) => (k === 'metadata.name' ? node.metadata!.name : undefined))));
};

/** Should a new daemon pod run on the node, and may an existing one keep running (NoExecute taints)? */
export function nodeShouldRunDaemonPod(ds: KubeObject, node: KubeObject): { shouldRun: boolean; shouldContinueRunning: boolean } {
  const spec = ds.spec?.template?.spec ?? {};
  const sel = (spec.nodeSelector ?? {}) as Record<string, string>;
  const labels = node.metadata?.labels ?? {};
  const fits = Object.entries(sel).every(([k, v]) => labels[k] === v) && matchesNodeAffinity(spec, node);
  if (!fits) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = withDefaultTolerations(spec.tolerations, !!spec.hostNetwork);
  const taints = (node.spec?.taints ?? []) as Taint[];
  const untolerated = (effect: string): boolean => taints.some((t) => t.effect === effect && !tolerations.some((x) => tolerates(x, t)));
  const noExecute = untolerated('NoExecute');
  return { shouldRun: !noExecute && !untolerated('NoSchedule'), shouldContinueRunning: !noExecute };
}

/** The node a daemon pod is for: its nodeName, else the metadata.name its required node affinity pins. */
export const nodeOfDaemonPod = (p: KubeObject): string | undefined => {
  if (p.spec?.nodeName) return p.spec.nodeName;
  const terms = p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as { matchFields?: any[] }[] | undefined;
  for (const t of terms ?? []) {
    const f = (t.matchFields ?? []).find((e) => e.key === 'metadata.name' && e.operator === 'In' && e.values?.length === 1);
    if (f) return f.values[0];
  }
  return undefined;
};

/** Pins a pod to a node through required node affinity (upstream ReplaceDaemonSetPodNodeNameNodeAffinity). */
export const pinToNode = (spec: KubeObject, nodeName: string): void => {
  const term = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] };
  spec.affinity = { ...(spec.affinity ?? {}), nodeAffinity: { ...(spec.affinity?.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } } };
};
