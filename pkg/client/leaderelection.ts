// Leader election on a coordination.k8s.io/v1 Lease, as client-go's tools/leaderelection: candidates try to take
// the lease every retryPeriod (with jitter); a lease whose holder has not renewed it within leaseDuration (by the
// candidate's own clock, counted from when it last saw the record change) may be taken. The leader renews every
// retryPeriod; each renewal round (its tries every retryPeriod) runs under a renewDeadline timeout, so a call that
// hangs is cut off and leading stops when the round has not succeeded by then. Ending the run releases the lease
// (unless releaseOnCancel is false) so another candidate takes over at once.
import type { Logger } from 'pino';
import { jitter } from './backoff.js';
import { preciseNowOf, realClock, type Clock, type TimerHandle } from './clock.js';
import { isNotFound } from './errors.js';
import { formatMicroTime, type Lease } from './types.js';

/** The three calls leader election makes (a ResourceClient<Lease> of the lease's namespace is one). */
export interface LeaseClient {
  get(name: string, o?: { signal?: AbortSignal }): Promise<Lease>;
  create(lease: Lease, o?: { signal?: AbortSignal }): Promise<Lease>;
  update(lease: Lease, o?: { signal?: AbortSignal }): Promise<Lease>;
}

export interface LeaderCallbacks {
  /** Runs when this candidate becomes leader; `signal` aborts when it stops leading. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Runs when the run ends, leading or not (as upstream). */
  onStoppedLeading?(): void;
  /** Runs when a (new) leader is observed, this candidate included. */
  onNewLeader?(identity: string): void;
}

/** client-go's leader metric: on while this candidate leads the named lease, off otherwise. */
export interface LeaderMetrics {
  leaderOn(name: string): void;
  leaderOff(name: string): void;
}

export interface LeaderElectionConfig {
  leases: LeaseClient;
  /** The Lease's name (its namespace is the client's). */
  name: string;
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  releaseOnCancel?: boolean;
  callbacks: LeaderCallbacks;
  clock?: Clock;
  logger?: Logger;
  random?: () => number;
  metrics?: LeaderMetrics;
}

type LeaseSpec = NonNullable<Lease['spec']>;
const JITTER_FACTOR = 1.2;

/** A signal that aborts with `parent` or, with a TimeoutError, `ms` later on `clock` (context.WithTimeout); end() it after use. */
const deadline = (clock: Clock, ms: number, parent?: AbortSignal): { signal: AbortSignal; end(): void } => {
  const ac = new AbortController();
  const onParent = (): void => ac.abort(parent?.reason);
  let timer: TimerHandle | undefined;
  if (parent?.aborted) onParent();
  else {
    parent?.addEventListener('abort', onParent, { once: true });
    timer = clock.setTimer(() => ac.abort(new DOMException('context deadline exceeded', 'TimeoutError')), ms);
  }
  return { signal: ac.signal, end: () => { timer?.cancel(); parent?.removeEventListener('abort', onParent); } };
};

const timedOut = (signal: AbortSignal): boolean => signal.aborted && (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError';

export class LeaderElector {
  private observed?: LeaseSpec;
  private observedRaw = '';
  private observedTime = 0;
  private reportedLeader = '';
  private readonly clock: Clock;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;

  constructor(private readonly c: LeaderElectionConfig) {
    this.clock = c.clock ?? realClock;
    this.leaseDurationMs = c.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = c.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = c.retryPeriodMs ?? 2_000;
    if (this.leaseDurationMs <= this.renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
    if (this.renewDeadlineMs <= JITTER_FACTOR * this.retryPeriodMs) throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
  }

  isLeader(): boolean { return this.observed?.holderIdentity === this.c.identity; }

  /** The holder last observed ('' if none). */
  getLeader(): string { return this.observed?.holderIdentity ?? ''; }

  /**
   * The leaderElection health check (client-go's HealthzAdaptor): an error when this candidate holds the lease but
   * has not renewed it for longer than the lease duration plus `toleranceMs`; undefined otherwise.
   */
  check(toleranceMs: number): string | undefined {
    if (!this.isLeader()) return undefined;
    if (this.observedTime + this.leaseDurationMs + toleranceMs >= this.clock.now()) return undefined;
    return `failed election to renew leadership on lease ${this.c.name}`;
  }

  /** Campaigns until leading, leads until the lease is lost or the signal aborts, then returns. */
  async run(signal: AbortSignal): Promise<void> {
    this.c.metrics?.leaderOff(this.c.name);
    try {
      if (!(await this.acquire(signal))) return;
      this.c.metrics?.leaderOn(this.c.name);
      const leading = new AbortController();
      const stop = (): void => leading.abort();
      signal.addEventListener('abort', stop, { once: true });
      const work = Promise.resolve().then(() => this.c.callbacks.onStartedLeading(leading.signal)).catch((err: unknown) => {
        this.c.logger?.error({ err }, 'onStartedLeading failed');
      });
      await this.renew(leading.signal);
      leading.abort();
      signal.removeEventListener('abort', stop);
      void work;
      if (this.c.releaseOnCancel !== false) await this.release();
    } finally {
      this.c.metrics?.leaderOff(this.c.name);
      this.c.callbacks.onStoppedLeading?.();
    }
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew(signal)) {
        this.c.logger?.info({ lease: this.c.name, identity: this.c.identity }, 'acquired lease');
        return true;
      }
      try {
        await this.clock.sleep(jitter(this.retryPeriodMs, JITTER_FACTOR, this.c.random), signal);
      } catch { return false; }
    }
    return false;
  }

  /**
   * Renews every retryPeriod, each round trying every retryPeriod under a renewDeadline timeout (a hanging call is
   * aborted by it); returns when a round does not succeed within renewDeadline or the signal aborts.
   */
  private async renew(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const round = deadline(this.clock, this.renewDeadlineMs, signal);
      let renewed = false;
      try {
        while (!round.signal.aborted) {
          if (await this.tryAcquireOrRenew(round.signal)) { renewed = true; break; }
          await this.clock.sleep(this.retryPeriodMs, round.signal).catch(() => undefined);
        }
      } finally {
        round.end();
      }
      if (signal.aborted) return;
      if (!renewed) {
        this.c.logger?.info({ lease: this.c.name }, `failed to renew lease ${this.c.name}: timed out waiting for the condition`);
        return;
      }
      try { await this.clock.sleep(this.retryPeriodMs, signal); } catch { return; }
    }
  }

  private async tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    // one reading, to the microsecond, for the record's times and the expiry sums (as client-go's now)
    const now = preciseNowOf(this.clock);
    const desired: LeaseSpec = {
      holderIdentity: this.c.identity,
      leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000),
      acquireTime: formatMicroTime(now),
      renewTime: formatMicroTime(now),
      leaseTransitions: 0,
    };
    let lease: Lease;
    try {
      lease = await this.c.leases.get(this.c.name, { signal });
    } catch (e) {
      if (!isNotFound(e)) {
        // A get cut short by stopping is no error worth logging; one cut short by the renew deadline is.
        if (!signal.aborted || timedOut(signal)) this.c.logger?.error({ err: e, lease: this.c.name }, 'error retrieving resource lock');
        return false;
      }
      try {
        const created = await this.c.leases.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.c.name }, spec: desired }, { signal });
        this.observe(created, now);
        return true;
      } catch (err) {
        this.c.logger?.error({ err, lease: this.c.name }, 'error initially creating leader election record');
        return false;
      }
    }
    const record = lease.spec ?? {};
    this.observe(lease, now);
    const holder = record.holderIdentity ?? '';
    const durationMs = (record.leaseDurationSeconds ?? this.leaseDurationMs / 1000) * 1000;
    if (holder && holder !== this.c.identity && this.observedTime + durationMs > now) return false;
    if (holder === this.c.identity) {
      desired.acquireTime = record.acquireTime ?? desired.acquireTime;
      desired.leaseTransitions = record.leaseTransitions ?? 0;
    } else {
      desired.leaseTransitions = (record.leaseTransitions ?? 0) + 1;
    }
    try {
      const updated = await this.c.leases.update({ ...lease, spec: { ...record, ...desired } }, { signal });
      this.observe(updated, now);
      return true;
    } catch (err) {
      if (!signal.aborted || timedOut(signal)) this.c.logger?.error({ err, lease: this.c.name }, 'Failed to update lock');
      return false;
    }
  }

  /** Records the lease as seen now if its record changed, and reports a new leader. */
  private observe(lease: Lease, now: number): void {
    const spec = lease.spec ?? {};
    const raw = JSON.stringify(spec);
    if (raw !== this.observedRaw) {
      this.observedRaw = raw;
      this.observed = spec;
      this.observedTime = now;
    }
    const holder = spec.holderIdentity ?? '';
    if (holder && holder !== this.reportedLeader) {
      this.reportedLeader = holder;
      try { this.c.callbacks.onNewLeader?.(holder); } catch (err) { this.c.logger?.error({ err }, 'onNewLeader failed'); }
    }
  }

  /**
   * Gives the lease up (holder cleared, duration 1 s) if this candidate holds it; bounded by renewDeadline, the
   * timeout upstream's components give their leader-election client, so an unreachable apiserver cannot hold it.
   * The lease is read first, as client-go's release does: a renewal cut off by the stop may still have been written,
   * and the write made with the resourceVersion observed before it would be a conflict.
   */
  private async release(): Promise<void> {
    const bound = deadline(this.clock, this.renewDeadlineMs);
    try {
      let current: Lease;
      try {
        current = await this.c.leases.get(this.c.name, { signal: bound.signal });
      } catch (err) {
        if (isNotFound(err)) this.c.logger?.info({ lease: this.c.name }, 'lease lock not found');
        else this.c.logger?.error({ err, lease: this.c.name }, 'error retrieving resource lock');
        return;
      }
      if (!this.isLeader()) return;
      const now = preciseNowOf(this.clock);
      const spec: LeaseSpec = {
        leaseDurationSeconds: 1, acquireTime: formatMicroTime(now), renewTime: formatMicroTime(now),
        leaseTransitions: current.spec?.leaseTransitions ?? 0,
      };
      const updated = await this.c.leases.update({
        apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.c.name, resourceVersion: current.metadata?.resourceVersion }, spec,
      }, { signal: bound.signal });
      this.observe(updated, now);
      this.c.logger?.info({ lease: this.c.name }, 'released lease');
    } catch (err) {
      this.c.logger?.error({ err, lease: this.c.name }, 'Failed to release lock');
    } finally {
      bound.end();
    }
  }
}
