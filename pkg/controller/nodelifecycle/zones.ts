// Zones of the node lifecycle controller (upstream ComputeZoneState and the per-zone eviction rate limiters): a zone
// whose nodes are all not ready is in FullDisruption, one with more than two not ready and at least 55% of them
// in PartialDisruption; tainting (hence eviction) goes at --node-eviction-rate in a Normal zone, at the secondary
// rate (0.01/s) in a partially disrupted zone of more than 50 nodes, and not at all otherwise.
import type { KubeObject } from '../../../api/types.js';
import type { Clock } from '../../client/index.js';

export type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption';

const UNHEALTHY_ZONE_THRESHOLD = 0.55;
const LARGE_CLUSTER_THRESHOLD = 50;
const SECONDARY_EVICTION_RATE = 0.01;

export const zoneOf = (node: KubeObject): string => {
  const l = node.metadata?.labels ?? {};
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return region || zone ? `${region}:\x00:${zone}` : '';
};

export function zoneStates(nodes: { zone: string; ready: boolean }[]): Map<string, ZoneState> {
  const counts = new Map<string, { ready: number; notReady: number }>();
  for (const n of nodes) {
    const c = counts.get(n.zone) ?? { ready: 0, notReady: 0 };
    if (n.ready) c.ready++; else c.notReady++;
    counts.set(n.zone, c);
  }
  const states = new Map<string, ZoneState>();
  for (const [zone, { ready, notReady }] of counts) {
    if (ready === 0 && notReady > 0) states.set(zone, 'FullDisruption');
    else if (notReady > 2 && notReady / (ready + notReady) >= UNHEALTHY_ZONE_THRESHOLD) states.set(zone, 'PartialDisruption');
    else states.set(zone, 'Normal');
  }
  return states;
}

/** A token bucket per zone (burst 1, as upstream's eviction limiters). */
export class ZoneLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly clock: Clock, private readonly primaryRate: number) {}

  rateFor(_zone: string, state: ZoneState, size: number): number {
    if (state === 'Normal') return this.primaryRate;
    if (state === 'PartialDisruption') return size > LARGE_CLUSTER_THRESHOLD ? SECONDARY_EVICTION_RATE : 0;
    return 0;
  }

  tryTake(zone: string, rate: number): boolean {
    const now = this.clock.now();
    const b = this.buckets.get(zone) ?? { tokens: 1, at: now };
    b.tokens = Math.min(1, b.tokens + ((now - b.at) / 1000) * rate);
    b.at = now;
    this.buckets.set(zone, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}
