// Topology-aware hints for services annotated service.kubernetes.io/topology-mode (or the deprecated
// topology-aware-hints) Auto (upstream k8s.io/endpointslice/topologycache). Zones are weighed by the allocatable CPU
// of their ready nodes (control-plane nodes left out); each zone gets at least desired/(1+0.2) of the ready
// endpoints and is hinted its own zone's endpoints first, the surplus of zones over their share then going to zones
// short of theirs. An unchanged slice keeps hints that still fit every zone's allocation, so hints do not churn.
// No hints at all (and a TopologyAwareHintsDisabled event) when node information is insufficient (a counted node
// without zone or CPU, fewer than two zones), there are fewer ready endpoints than zones, a zone's minimum cannot be
// met, or a ready endpoint has no zone. Only IPv4 slices are made here, so every message names that address type.
import type { KubeObject } from '../../../api/types.js';
import { parseQuantity, quantityMilliValue } from '../../apimachinery/quantity.js';
import { canonicalJson } from '../shared/controller-utils.js';

const OVERLOAD_THRESHOLD = 0.2;
const ADDRESS_TYPE = 'IPv4';
const EXCLUDED_NODE_LABELS = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];

export interface HintedEndpoint {
  conditions: { ready: boolean };
  zone?: string;
  hints?: { forZones: { name: string }[] };
}
export interface HintSlice { ports: unknown[]; endpoints: HintedEndpoint[] }
export interface HintEvent { type: 'Normal' | 'Warning'; reason: string; message: string }

interface Allocation { minimum: number; maximum: number; desired: number }

/** Upstream's hintsEnabled: the deprecated annotation, when present, wins over topology-mode. */
export const hintsAnnotated = (annotations: Record<string, string> | undefined): boolean => {
  const mode = annotations?.['service.kubernetes.io/topology-aware-hints'] ?? annotations?.['service.kubernetes.io/topology-mode'];
  return mode === 'Auto' || mode === 'auto';
};

const disabled = (message: string): HintEvent => ({ type: 'Warning', reason: 'TopologyAwareHintsDisabled', message: `${message}, addressType: ${ADDRESS_TYPE}` });

const isNodeReady = (node: KubeObject): boolean =>
  (node.status?.conditions as { type: string; status: string }[] | undefined)?.find((c) => c.type === 'Ready')?.status === 'True';

const cpuMilli = (node: KubeObject): number => {
  const cpu = node.status?.allocatable?.cpu as string | undefined;
  try { return cpu ? quantityMilliValue(parseQuantity(cpu)) : 0; } catch { return 0; }
};

export const zoneOfNode = (node: KubeObject): string | undefined => node.metadata?.labels?.['topology.kubernetes.io/zone'];

/** Whether a node update matters to the cache: its readiness or zone changed (upstream's updateNode). */
export const nodeTopologyChanged = (old: KubeObject, cur: KubeObject): boolean => isNodeReady(old) !== isNodeReady(cur) || zoneOfNode(old) !== zoneOfNode(cur);

/** Each zone's share of the ready nodes' allocatable CPU; undefined when that is not enough to go on (SetNodes). */
export function cpuRatiosByZone(nodes: KubeObject[]): Map<string, number> | undefined {
  const byZone = new Map<string, number>();
  let total = 0;
  for (const node of nodes) {
    const labels = node.metadata?.labels ?? {};
    if (EXCLUDED_NODE_LABELS.some((l) => l in labels) || !isNodeReady(node)) continue;
    const zone = zoneOfNode(node);
    const cpu = cpuMilli(node);
    // one counted node without zone or CPU takes the hints of every service away (as upstream's TODO says)
    if (!zone || cpu <= 0) return undefined;
    byZone.set(zone, (byZone.get(zone) ?? 0) + cpu);
    total += cpu;
  }
  if (byZone.size < 2) return undefined;
  return new Map([...byZone].sort(([a], [b]) => a.localeCompare(b)).map(([zone, cpu]) => [zone, cpu / total]));
}

const minimumFor = (desired: number): number => Math.ceil(desired * (1 / (1 + OVERLOAD_THRESHOLD)));

/** Per zone, the endpoints it should get, or the message of why none can be given (getAllocations). */
function allocationsFor(ratios: Map<string, number> | undefined, ready: number): Map<string, Allocation> | string {
  if (!ratios) return 'Insufficient Node information: allocatable CPU or zone not specified on one or more nodes';
  if (ratios.size > ready) return `Insufficient number of endpoints (${ready} endpoints, ${ratios.size} zones)`;
  const out = new Map<string, Allocation>();
  let minTotal = 0;
  for (const [zone, ratio] of ratios) {
    const desired = ratio * ready;
    const minimum = minimumFor(desired);
    minTotal += minimum;
    if (minTotal > ready) return `Unable to allocate minimum required endpoints to each zone without exceeding overload threshold (${ready} endpoints, ${ratios.size} zones)`;
    out.set(zone, { minimum, maximum: 0, desired: Math.max(desired, minimum) });
  }
  for (const a of out.values()) a.maximum = a.minimum + ready - minTotal;
  return out;
}

/** The hints per zone of a slice's ready endpoints, or undefined when they must be recomputed (getHintsByZone). */
function hintsByZone(endpoints: HintedEndpoint[], allocated: Map<string, number>, allocations: Map<string, Allocation>): Map<string, number> | undefined {
  const counts = new Map<string, number>();
  for (const e of endpoints) {
    if (!e.conditions.ready) continue;
    if (!e.hints?.forZones.length) return undefined;
    for (const { name } of e.hints.forZones) {
      if (!allocations.has(name)) return undefined;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  for (const [zone, n] of counts) if (n + (allocated.get(zone) ?? 0) > allocations.get(zone)!.maximum) return undefined;
  return counts;
}

/** The zone with most left (the first of equals), as upstream's getMost. */
const most = (left: Map<string, number>): [string, number] => {
  let best: [string, number] = ['', 0];
  for (const [zone, n] of left) if (n > best[1]) best = [zone, n];
  return best;
};

/** How many endpoints each zone hands over and takes in, in whole endpoints (getGivingAndReceivingZones). */
function givingAndReceiving(allocations: Map<string, Allocation>, allocated: Map<string, number>): [Map<string, number>, Map<string, number>] {
  const over = new Map<string, number>();
  const under = new Map<string, number>();
  for (const [zone, { desired }] of allocations) {
    const have = allocated.get(zone) ?? 0;
    if (have > desired) over.set(zone, have - desired);
    else if (have < desired) under.set(zone, desired - have);
  }
  const giving = new Map<string, number>();
  const receiving = new Map<string, number>();
  for (;;) {
    const [from, give] = most(over);
    const [to, take] = most(under);
    if (!from || !to || (give < 1 && take < 1) || give < 0.5 || take < 0.5) break;
    giving.set(from, (giving.get(from) ?? 0) + 1);
    over.set(from, give - 1);
    receiving.set(to, (receiving.get(to) ?? 0) + 1);
    under.set(to, take - 1);
  }
  return [giving, receiving];
}

/** Re-hints endpoints of giving zones for receiving ones, in slice order (redistributeHints); the change per zone. */
function redistribute(slices: HintSlice[], giving: Map<string, number>, receiving: Map<string, number>): Map<string, number> {
  const change = new Map<string, number>();
  const take = (m: Map<string, number>, zone: string): void => { if (m.get(zone) === 1) m.delete(zone); else m.set(zone, m.get(zone)! - 1); };
  for (const s of slices) {
    for (const e of s.endpoints) {
      if (!e.conditions.ready || !e.zone || !giving.has(e.zone)) continue;
      if (!receiving.size) return change;
      const [to] = receiving.keys() as IterableIterator<string>;
      e.hints = { forZones: [{ name: to! }] };
      take(giving, e.zone);
      take(receiving, to!);
      change.set(to!, (change.get(to!) ?? 0) + 1);
      change.set(e.zone, (change.get(e.zone) ?? 0) - 1);
      if (!giving.size) return change;
    }
  }
  return change;
}

const withoutHints = (endpoints: HintedEndpoint[]): string => canonicalJson(endpoints.map(({ hints: _, ...e }) => e));

/**
 * Upstream's TopologyCache: the zones' CPU shares and, per service with hints, the endpoints hinted to each zone
 * (to requeue the services a node change overloads).
 */
export class TopologyCache {
  private ratios: Map<string, number> | undefined;
  private readonly hinted = new Map<string, Map<string, number>>();

  setNodes(nodes: KubeObject[]): void {
    this.ratios = cpuRatiosByZone(nodes);
  }

  /** Services with hints whose endpoints in some zone are now below its minimum (GetOverloadedServices). */
  overloadedServices(): string[] {
    return [...this.hinted].filter(([, byZone]) => {
      if (!this.ratios) return true;
      const total = [...byZone.values()].reduce((a, b) => a + b, 0);
      return [...this.ratios].some(([zone, ratio]) => !byZone.has(zone) || byZone.get(zone)! < minimumFor(total * ratio));
    }).map(([key]) => key);
  }

  /** Forgets a deleted service. */
  forget(key: string): void {
    this.hinted.delete(key);
  }

  /** The annotation is not (or no longer) there: an event if the service had hints (the slices are written without). */
  disable(key: string): HintEvent[] {
    if (!this.hinted.delete(key)) return [];
    return [disabled('Topology Aware Hints has been disabled')];
  }

  /**
   * Hints the endpoints of `slices` (as written, without hints) for the service `key` (AddHints). A slice equal to an
   * existing one but for hints is unchanged: it keeps that one's hints if they fit. Returns the events to record.
   */
  addHints(key: string, slices: HintSlice[], existing: KubeObject[]): HintEvent[] {
    const ready = slices.reduce((n, s) => n + s.endpoints.filter((e) => e.conditions.ready).length, 0);
    const allocations = allocationsFor(this.ratios, ready);
    if (typeof allocations === 'string') return this.remove(key, slices, allocations);

    const allocated = new Map<string, number>();
    const fresh: HintSlice[] = [];
    const stale: HintSlice[] = [];
    const unused = [...existing];
    for (const s of slices) {
      const i = unused.findIndex((u) => canonicalJson(u.ports ?? []) === canonicalJson(s.ports)
        && withoutHints((u.endpoints ?? []) as HintedEndpoint[]) === withoutHints(s.endpoints));
      if (i < 0) { fresh.push(s); continue; }
      const [previous] = unused.splice(i, 1) as [{ endpoints: HintedEndpoint[] }];
      const counts = hintsByZone(previous.endpoints, allocated, allocations);
      if (!counts) { stale.push(s); continue; }
      s.endpoints.forEach((e, j) => { if (e.conditions.ready) e.hints = previous.endpoints[j]!.hints; });
      for (const [zone, n] of counts) allocated.set(zone, (allocated.get(zone) ?? 0) + n);
    }

    const allocatable = [...fresh, ...stale];
    for (const e of allocatable.flatMap((s) => s.endpoints)) {
      if (!e.conditions.ready) continue;
      if (!e.zone) return this.remove(key, slices, 'One or more endpoints do not have a zone specified');
      allocated.set(e.zone, (allocated.get(e.zone) ?? 0) + 1);
      e.hints = { forZones: [{ name: e.zone }] };
    }
    for (const [zone, n] of redistribute(allocatable, ...givingAndReceiving(allocations, allocated))) allocated.set(zone, (allocated.get(zone) ?? 0) + n);
    // (upstream's "No hints allocated for zones" cannot happen: there are at least as many ready endpoints as zones)
    const enabled = this.hinted.has(key);
    this.hinted.set(key, allocated);
    return enabled ? [] : [{ type: 'Normal', reason: 'TopologyAwareHintsEnabled', message: `Topology Aware Hints has been enabled, addressType: ${ADDRESS_TYPE}` }];
  }

  private remove(key: string, slices: HintSlice[], message: string): HintEvent[] {
    this.hinted.delete(key);
    for (const e of slices.flatMap((s) => s.endpoints)) delete e.hints;
    return [disabled(message)];
  }
}
