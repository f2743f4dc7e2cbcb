// Why a pod did not fit, in upstream's words (FitError.Error): "0/3 nodes are available: 3 Insufficient cpu.
// preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
import type { Status } from './framework/interface.js';

export interface Diagnosis {
  /** node name → the status that rejected it */
  nodeStatuses: Map<string, Status>;
  unschedulablePlugins: Set<string>;
  preFilterMsg?: string;
  postFilterMsg?: string;
}

/** "N reason" strings sorted as upstream's sortReasonsHistogram. */
export const reasonHistogram = (statuses: Iterable<Status>): string[] => {
  const counts = new Map<string, number>();
  for (const s of statuses) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${n} ${r}`).sort();
};

export const fitErrorMessage = (numAllNodes: number, d: Diagnosis): string => {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg) msg += ` ${d.preFilterMsg}.`;
  else msg += ` ${reasonHistogram(d.nodeStatuses.values()).join(', ')}.`;
  if (d.postFilterMsg) msg += ` ${d.postFilterMsg}`;
  return msg;
};
