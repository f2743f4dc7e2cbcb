// The node lifecycle controller's record of each node's heartbeat (upstream's nodeHealthMap, kept by
// tryUpdateNodeHealth): when it last saw the node alive, by its own clock, from a new Ready heartbeat or Lease renewal.
import type { KubeObject } from '../../../api/types.js';
import type { NodeCondition } from './taints.js';

export interface Health {
  /** When we last saw the node alive (a new heartbeat in its status or lease). */
  probeTimestamp: number;
  readyHeartbeat?: string;
  leaseRenewTime?: string;
  /** Its Ready status as the last health pass left it (upstream's nodeHealth.status); none before it posted one. */
  ready?: NodeCondition['status'];
  /** Marking its pods not ready failed: tried again while the node is not ready (upstream's nodesToRetry). */
  podsNotReadyRetry?: boolean;
}

export interface GracePeriods {
  /** --node-monitor-grace-period: for a node that posted a Ready condition. */
  monitorMs: number;
  /** --node-startup-grace-period: for one that never did. */
  startupMs: number;
}

export const readyOf = (n: KubeObject): NodeCondition | undefined =>
  ((n.status?.conditions ?? []) as NodeCondition[]).find((c) => c.type === 'Ready');

/**
 * Updates the node's record in `health` with what it shows now and its Lease's renewTime; returns whether the node is
 * silent for longer than its grace period. A node first seen without a Ready condition (its kubelet never posted
 * status) is counted from its creation, as upstream, so it is left alone until the startup grace period from then.
 */
export function observeHealth(health: Map<string, Health>, node: KubeObject, leaseRenewTime: string | undefined, now: number, grace: GracePeriods): boolean {
  const name = node.metadata!.name!;
  const ready = readyOf(node);
  let h = health.get(name);
  if (!h) {
    const created = ready ? NaN : Date.parse(node.metadata?.creationTimestamp ?? '');
    // its Lease, if any, is new to the record below: a node renewing one is alive now
    h = { probeTimestamp: Number.isNaN(created) ? now : created, readyHeartbeat: ready?.lastHeartbeatTime };
    health.set(name, h);
  }
  if (ready?.lastHeartbeatTime !== h.readyHeartbeat) { h.readyHeartbeat = ready?.lastHeartbeatTime; h.probeTimestamp = now; }
  if (leaseRenewTime && (!h.leaseRenewTime || Date.parse(leaseRenewTime) > Date.parse(h.leaseRenewTime))) {
    h.leaseRenewTime = leaseRenewTime;
    h.probeTimestamp = now;
  }
  return now > h.probeTimestamp + (ready ? grace.monitorMs : grace.startupMs);
}
