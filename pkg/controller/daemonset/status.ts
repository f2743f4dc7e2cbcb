// DaemonSet status counts (upstream updateDaemonSetStatus).
import { isPodAvailable, isPodReady, type Pod } from '../shared/controller-utils-pods.js';
import type { KubeObject } from '../../../api/types.js';
import { CONTROLLER_REVISION_HASH } from '../controllerhistory/history.js';

/** The label a daemon pod carries its DaemonSet's template generation in. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

/**
 * The DaemonSet's template generation (upstream GetTemplateGeneration), from the annotation the apiserver keeps it
 * in, always in canonical decimal form there.
 */
export const templateGenerationOf = (ds: KubeObject): string | undefined => ds.metadata?.annotations?.['deprecated.daemonset.template.generation'];

/** A pod of the current template: its revision hash, or its template generation, is the DaemonSet's (upstream IsPodUpdated). */
export const isPodUpdated = (p: Pod, hash: string, generation: string | undefined): boolean =>
  (hash !== '' && p.metadata?.labels?.[CONTROLLER_REVISION_HASH] === hash) ||
  (generation !== undefined && p.metadata?.labels?.[TEMPLATE_GENERATION_LABEL] === generation);

/** Pods bound to a node first, then the oldest, then by name (upstream podByCreationTimestampAndPhase). */
export const byCreationScheduledFirst = (a: Pod, b: Pod): number => {
  const an = !!a.spec?.nodeName, bn = !!b.spec?.nodeName;
  if (an !== bn) return an ? -1 : 1;
  const d = (Date.parse(a.metadata?.creationTimestamp ?? '') || 0) - (Date.parse(b.metadata?.creationTimestamp ?? '') || 0);
  return d || (a.metadata!.name! < b.metadata!.name! ? -1 : a.metadata!.name! > b.metadata!.name! ? 1 : 0);
};

export interface DaemonSetCounts {
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  updatedNumberScheduled: number;
  numberAvailable: number;
}

/**
 * Counts per node: a node that should run the pod is desired, and scheduled when it has a daemon pod (terminating or
 * failed ones too; only terminal pods being deleted are left out); its oldest pod decides ready, available and
 * updated. A node that should not run the pod only counts as misscheduled when it has one.
 */
export function daemonSetStatusCounts(nodes: { name: string; shouldRun: boolean }[], podsByNode: Map<string, Pod[]>, hash: string, minReadySeconds: number, nowMs: number, generation?: string): DaemonSetCounts {
  const c: DaemonSetCounts = { desiredNumberScheduled: 0, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0, updatedNumberScheduled: 0, numberAvailable: 0 };
  for (const { name, shouldRun } of nodes) {
    const pods = (podsByNode.get(name) ?? []).filter((p) => !(p.metadata?.deletionTimestamp && (p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded')));
    if (!shouldRun) {
      if (pods.length) c.numberMisscheduled++;
      continue;
    }
    c.desiredNumberScheduled++;
    if (!pods.length) continue;
    c.currentNumberScheduled++;
    const pod = [...pods].sort(byCreationScheduledFirst)[0]!;
    if (isPodReady(pod)) {
      c.numberReady++;
      if (isPodAvailable(pod, minReadySeconds, nowMs)) c.numberAvailable++;
    }
    if (isPodUpdated(pod, hash, generation)) c.updatedNumberScheduled++;
  }
  return c;
}
