// Zones of the node lifecycle controller (upstream ComputeZoneState, handleDisruption and the per-zone NoExecute
// tainting rate limiters). A zone whose counted nodes are all not ready is in FullDisruption, one with more than two
// not ready and at least --unhealthy-zone-threshold (55%) of them in PartialDisruption; nodes labelled
// node.kubernetes.io/exclude-disruption are not counted. A zone's tainting rate is set when its state changes:
// --node-eviction-rate when Normal or fully disrupted; when partially disrupted, --secondary-node-eviction-rate if it
// counts more than --large-cluster-size-threshold nodes, else none (upstream's ReducedQPSFunc).
// When every zone is fully disrupted, tainting stops everywhere (the caller lifts every node's NoExecute taints once,
// on entering) until some zone is not.
import type { KubeObject } from '../../../api/types.js';
import type { Clock } from '../../client/index.js';

export type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption';
/** What a pass changed: every zone became fully disrupted, or some zone stopped being so after all were. */
export type DisruptionTransition = 'enter' | 'exit' | undefined;
export interface ZoneCount { state: ZoneState; size: number }

/** NoExecute taints per second: in a healthy zone, and in an unhealthy one of more than largeClusterThreshold nodes. */
export interface EvictionRates { primary: number; secondary: number; largeClusterThreshold: number }
/** Upstream's labelNodeDisruptionExclusion: present (whatever its value), the node is left out of its zone's state. */
const LABEL_EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';

export const zoneOf = (node: KubeObject): string => {
  const l = node.metadata?.labels ?? {};
  const region = l['topology.kubernetes.io/region'] ?? l['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = l['topology.kubernetes.io/zone'] ?? l['failure-domain.beta.kubernetes.io/zone'] ?? '';
  return region || zone ? `${region}:\x00:${zone}` : '';
};

/** The state and counted size of each zone with a node not excluded from disruption checks. */
export function countedZoneStates(nodes: { node: KubeObject; ready: boolean }[], unhealthyThreshold: number): Map<string, ZoneCount> {
  const counts = new Map<string, { ready: number; notReady: number }>();
  for (const { node, ready } of nodes) {
    if (node.metadata?.labels?.[LABEL_EXCLUDE_DISRUPTION] !== undefined) continue;
    const zone = zoneOf(node);
    const c = counts.get(zone) ?? { ready: 0, notReady: 0 };
    if (ready) c.ready++; else c.notReady++;
    counts.set(zone, c);
  }
  const states = new Map<string, ZoneCount>();
  for (const [zone, { ready, notReady }] of counts) {
    const size = ready + notReady;
    // compared in single precision, as upstream's float32 (a threshold such as 0.55 is not exact in either)
    const state: ZoneState = ready === 0 ? 'FullDisruption'
      : notReady > 2 && Math.fround(notReady / size) >= Math.fround(unhealthyThreshold) ? 'PartialDisruption' : 'Normal';
    states.set(zone, { state, size });
  }
  return states;
}

/** Each zone's state as last set and its NoExecute tainting limiter (a token bucket of burst 1, as upstream's). */
export class ZoneEvictions {
  private readonly states = new Map<string, ZoneState>();
  private readonly buckets = new Map<string, { rate: number; tokens: number; at: number }>();

  constructor(private readonly clock: Pick<Clock, 'now'>, private readonly rates: EvictionRates) {}

  /**
   * Upstream's handleDisruption, given this pass's counted zones. A zone not seen before starts in none of the states
   * (upstream's Initial); zones with no counted node are forgotten. Rates change only with a zone's state, or all at
   * once on entering (all stopped) and exiting full disruption; staying in it changes nothing.
   */
  handleDisruption(zones: Map<string, ZoneCount>): DisruptionTransition {
    const allAre = [...zones.values()].every((z) => z.state === 'FullDisruption');
    const allWere = [...zones.keys()].every((k) => this.states.get(k) === 'FullDisruption');
    // a zone without counted nodes has no state, and its limiter starts afresh at the primary rate each pass, as
    // upstream's classifyNodes gives it a new one (addPodEvictorForNewZone)
    for (const k of this.states.keys()) if (!zones.has(k)) this.states.delete(k);
    for (const k of this.buckets.keys()) if (!zones.has(k)) this.buckets.delete(k);
    if (allAre && allWere) return undefined;
    for (const [k, { state, size }] of zones) {
      if (allAre) this.setRate(k, 0);
      else if (allWere || this.states.get(k) !== state) this.setRate(k, this.rateFor(state, size));
      this.states.set(k, state);
    }
    return allAre ? 'enter' : allWere ? 'exit' : undefined;
  }

  /** Takes the zone's token for one NoExecute taint, if it has one. */
  tryTake(zone: string): boolean {
    const b = this.settled(zone);
    if (b.rate <= 0 || b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private rateFor(state: ZoneState, size: number): number {
    if (state === 'PartialDisruption') return size > this.rates.largeClusterThreshold ? this.rates.secondary : 0;
    return this.rates.primary; // Normal, and FullDisruption while some zone is not (upstream's HealthyQPSFunc)
  }

  private settled(zone: string): { rate: number; tokens: number; at: number } {
    const now = this.clock.now();
    const b = this.buckets.get(zone) ?? { rate: this.rates.primary, tokens: 1, at: now };
    b.tokens = Math.min(1, b.tokens + ((now - b.at) / 1000) * b.rate);
    b.at = now;
    this.buckets.set(zone, b);
    return b;
  }

  /** Upstream's SwapLimiter: a new bucket, full unless the old one had no token (then drained). */
  private setRate(zone: string, rate: number): void {
    const b = this.settled(zone);
    if (b.rate === rate) return;
    b.tokens = rate > 0 && b.rate > 0 && b.tokens >= 1 ? 1 : 0;
    b.rate = rate;
  }
}
