// From what the metrics ask for to what the autoscaler sets, as upstream's horizontal.go normalizes it. Without
// spec.behavior: the highest recommendation of the downscale stabilization window, within minReplicas..maxReplicas
// and at most max(2 × current, 4) on the way up. With behavior: the recommendation held between the lowest of the
// scale-up window and the highest of the scale-down window, then limited by the scaling policies over the changes
// made within each policy's period (selectPolicy Max, Min or Disabled).
// Each result comes with the AbleToScale and ScalingLimited reasons upstream sets for it.

export interface ScalingPolicy { type: 'Pods' | 'Percent'; value: number; periodSeconds: number }
export interface ScalingRules { stabilizationWindowSeconds?: number; selectPolicy?: 'Max' | 'Min' | 'Disabled'; policies?: ScalingPolicy[] }
export interface Behavior { scaleUp?: ScalingRules; scaleDown?: ScalingRules }

interface Recommendation { replicas: number; at: number }
interface ScaleEvent { change: number; at: number; outdated: boolean }

export interface Normalized {
  replicas: number;
  /** AbleToScale True: ScaleUpStabilized, ScaleDownStabilized or ReadyForNewScale. */
  ableToScale: { reason: string; message: string };
  /** ScalingLimited: True when the result differs from the stabilized recommendation. */
  limited: { status: 'True' | 'False'; reason: string; message: string };
}

const SCALE_UP_LIMIT_FACTOR = 2;
const SCALE_UP_LIMIT_MINIMUM = 4;
const READY = { reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
const WITHIN = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
const TOO_MANY = { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
const TOO_FEW = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
const UP_LIMIT = { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
const DOWN_LIMIT = { reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' };

const limitedOf = (replicas: number, stabilized: number, why: { reason: string; message: string }): Normalized['limited'] =>
  ({ status: replicas === stabilized ? 'False' : 'True', ...why });

/** Per autoscaler (namespace/name): its recent recommendations and the scale changes it made. */
export class Normalizer {
  private readonly recommendations = new Map<string, Recommendation[]>();
  private readonly scaleUps = new Map<string, ScaleEvent[]>();
  private readonly scaleDowns = new Map<string, ScaleEvent[]>();

  constructor(private readonly now: () => number, private readonly downscaleStabilizationMs: number) {}

  forget(key: string): void {
    this.recommendations.delete(key);
    this.scaleUps.delete(key);
    this.scaleDowns.delete(key);
  }

  /** The current count counts as a first recommendation, so that a new autoscaler does not scale down at once. */
  recordInitial(key: string, current: number): void {
    if (!this.recommendations.has(key)) this.recommendations.set(key, [{ replicas: current, at: this.now() }]);
  }

  /** Keeps a recommendation, in place of one older than `cutoff` when there is one (upstream reuses the slot). */
  private remember(key: string, replicas: number, outdated: (r: Recommendation) => boolean): void {
    const list = this.recommendations.get(key) ?? [];
    let slot = -1;
    list.forEach((r, i) => { if (outdated(r)) slot = i; });
    const rec = { replicas, at: this.now() };
    if (slot >= 0) list[slot] = rec;
    else list.push(rec);
    this.recommendations.set(key, list);
  }

  normalize(key: string, behavior: Behavior | undefined, current: number, desired: number, min: number, max: number): Normalized {
    return behavior ? this.withBehavior(key, behavior, current, desired, min, max) : this.withoutBehavior(key, current, desired, min, max);
  }

  private withoutBehavior(key: string, current: number, desired: number, min: number, max: number): Normalized {
    const cutoff = this.now() - this.downscaleStabilizationMs;
    let stabilized = desired;
    for (const r of this.recommendations.get(key) ?? []) if (r.at >= cutoff && r.replicas > stabilized) stabilized = r.replicas;
    this.remember(key, desired, (r) => r.at < cutoff);
    const ableToScale = stabilized !== desired
      ? { reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' }
      : READY;
    const upLimit = Math.max(SCALE_UP_LIMIT_FACTOR * current, SCALE_UP_LIMIT_MINIMUM);
    const [maxAllowed, aboveWhy] = max > upLimit ? [upLimit, UP_LIMIT] : [max, TOO_MANY];
    let replicas = stabilized;
    let why = WITHIN;
    if (stabilized < min) { replicas = min; why = TOO_FEW; } else if (stabilized > maxAllowed) { replicas = maxAllowed; why = aboveWhy; }
    return { replicas, ableToScale, limited: limitedOf(replicas, stabilized, why) };
  }

  private withBehavior(key: string, behavior: Behavior, current: number, desired: number, min: number, max: number): Normalized {
    const up = behavior.scaleUp ?? {};
    const down = behavior.scaleDown ?? {};
    const now = this.now();
    const upCutoff = now - (up.stabilizationWindowSeconds ?? 0) * 1000;
    const downCutoff = now - (down.stabilizationWindowSeconds ?? this.downscaleStabilizationMs / 1000) * 1000;
    let upRecommendation = desired;
    let downRecommendation = desired;
    for (const r of this.recommendations.get(key) ?? []) {
      if (r.at > upCutoff) upRecommendation = Math.min(r.replicas, upRecommendation);
      if (r.at > downCutoff) downRecommendation = Math.max(r.replicas, downRecommendation);
    }
    this.remember(key, desired, (r) => r.at < upCutoff && r.at < downCutoff);
    const stabilized = Math.min(Math.max(current, upRecommendation), downRecommendation);
    const ableToScale = stabilized === desired ? READY : desired >= current
      ? { reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
      : { reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };

    let replicas = stabilized;
    let why = WITHIN;
    if (stabilized > current) {
      const limit = Math.max(this.scaleUpLimit(key, current, up), current);
      const [maxAllowed, aboveWhy] = max > limit ? [limit, UP_LIMIT] : [max, TOO_MANY];
      if (stabilized > maxAllowed) { replicas = maxAllowed; why = aboveWhy; }
    } else if (stabilized < current) {
      const limit = Math.min(this.scaleDownLimit(key, current, down), current);
      const [minAllowed, belowWhy] = min < limit ? [limit, DOWN_LIMIT] : [min, TOO_FEW];
      if (stabilized < minAllowed) { replicas = minAllowed; why = belowWhy; }
    }
    return { replicas, ableToScale, limited: limitedOf(replicas, stabilized, why) };
  }

  /** The replicas added (or removed) within the last `periodSeconds`. */
  private changedWithin(events: ScaleEvent[] | undefined, periodSeconds: number): number {
    const cutoff = this.now() - periodSeconds * 1000;
    return (events ?? []).reduce((sum, e) => (e.at > cutoff ? sum + e.change : sum), 0);
  }

  /** The replicas each policy allows at the start of its period, chosen among by selectPolicy. */
  private policyLimit(key: string, current: number, rules: ScalingRules, proposed: (start: number, p: ScalingPolicy) => number, pickHighest: boolean): number {
    if (rules.selectPolicy === 'Disabled') return current;
    const pick = (rules.selectPolicy === 'Min') !== pickHighest ? Math.max : Math.min;
    let result = pick === Math.max ? -Infinity : Infinity;
    for (const p of rules.policies ?? []) {
      const start = current - this.changedWithin(this.scaleUps.get(key), p.periodSeconds) + this.changedWithin(this.scaleDowns.get(key), p.periodSeconds);
      result = pick(result, proposed(start, p));
    }
    return result;
  }

  private scaleUpLimit(key: string, current: number, rules: ScalingRules): number {
    // a percentage rounds up, or a small target would never grow
    return this.policyLimit(key, current, rules, (start, p) => (p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100))), true);
  }

  private scaleDownLimit(key: string, current: number, rules: ScalingRules): number {
    return this.policyLimit(key, current, rules, (start, p) => (p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100))), false);
  }

  /** Records a rescale for the policies' periods (only autoscalers with behavior use them). */
  recordScale(key: string, behavior: Behavior | undefined, from: number, to: number): void {
    if (!behavior) return;
    const upward = to > from;
    const rules = (upward ? behavior.scaleUp : behavior.scaleDown) ?? {};
    const longest = Math.max(0, ...(rules.policies ?? []).map((p) => p.periodSeconds));
    const events = (upward ? this.scaleUps : this.scaleDowns);
    const list = events.get(key) ?? [];
    const cutoff = this.now() - longest * 1000;
    let slot = -1;
    list.forEach((e, i) => { if (e.at < cutoff) e.outdated = true; if (e.outdated) slot = i; });
    const event = { change: Math.abs(to - from), at: this.now(), outdated: false };
    if (slot >= 0) list[slot] = event;
    else list.push(event);
    events.set(key, list);
  }
}
