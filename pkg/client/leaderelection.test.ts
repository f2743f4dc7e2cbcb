import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { conflict, notFound } from '../apimachinery/errors.js';
import { FakeClock } from './clock.js';
import { LeaderElector, type LeaseClient } from './leaderelection.js';
import { until } from './testing/fake-lw.js';
import type { Lease } from './types.js';

/** One Lease in memory with compare-and-swap on resourceVersion, as the apiserver does. */
class MemoryLeases implements LeaseClient {
  lease?: Lease;
  rv = 0;
  down = false;
  async get(name: string): Promise<Lease> {
    if (this.down) throw new Error('connection refused');
    if (!this.lease) throw notFound({ group: 'coordination.k8s.io', resource: 'leases' }, name);
    return structuredClone(this.lease);
  }
  async create(l: Lease): Promise<Lease> {
    this.lease = { ...structuredClone(l), metadata: { ...l.metadata, resourceVersion: String(++this.rv) } };
    return structuredClone(this.lease);
  }
  async update(l: Lease, _o?: { signal?: AbortSignal }): Promise<Lease> {
    if (this.down) throw new Error('connection refused');
    if (l.metadata?.resourceVersion !== this.lease?.metadata?.resourceVersion) throw conflict({ group: 'coordination.k8s.io', resource: 'leases' }, 'l', 'stale');
    this.lease = { ...structuredClone(l), metadata: { ...l.metadata, resourceVersion: String(++this.rv) } };
    return structuredClone(this.lease);
  }
}

const candidate = (leases: LeaseClient, clock: FakeClock, identity: string, log: string[], release = true) => new LeaderElector({
  leases, name: 'lock', identity, clock, random: () => 0, releaseOnCancel: release,
  callbacks: {
    onStartedLeading: () => { log.push(`${identity} started`); },
    onStoppedLeading: () => { log.push(`${identity} stopped`); },
    onNewLeader: (id) => { log.push(`${identity} sees ${id}`); },
  },
});

describe('LeaderElector', () => {
  it('one candidate leads; the other takes over at once when the leader releases on cancel', async () => {
    const clock = new FakeClock(1_000_000);
    const leases = new MemoryLeases();
    const log: string[] = [];
    const a = candidate(leases, clock, 'a', log);
    const b = candidate(leases, clock, 'b', log);
    const acA = new AbortController();
    const acB = new AbortController();
    const runA = a.run(acA.signal);
    await until(() => a.isLeader());
    const runB = b.run(acB.signal);
    await clock.advance(5_000);
    expect(a.isLeader()).toBe(true);
    expect(b.isLeader()).toBe(false);
    expect(b.getLeader()).toBe('a');
    expect(leases.lease!.spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 });
    acA.abort();
    await runA;
    expect(leases.lease!.spec!.holderIdentity).toBeUndefined();
    await clock.advance(2_000);
    expect(b.isLeader()).toBe(true);
    expect(leases.lease!.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    acB.abort();
    await runB;
    expect(log).toEqual(['a sees a', 'a started', 'b sees a', 'a stopped', 'b sees b', 'b started', 'b stopped']);
  });

  it('releases on cancel though a renewal the stop cut off was written: the lease is read again first, as client-go does', async () => {
    const clock = new FakeClock(1_000_000);
    const leases = new MemoryLeases();
    const a = candidate(leases, clock, 'a', []);
    const ac = new AbortController();
    const run = a.run(ac.signal);
    await until(() => a.isLeader());
    // the next renewal reaches the store, but its answer is still on its way when the candidate stops
    const write = leases.update.bind(leases);
    leases.update = async (l: Lease, o?: { signal?: AbortSignal }) => {
      await write(l);
      return new Promise<Lease>((_, reject) => o?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    };
    const before = leases.rv;
    await clock.advance(2_000);
    await until(() => leases.rv > before);
    leases.update = write;
    ac.abort();
    await run;
    expect(leases.lease!.spec).toMatchObject({ leaseDurationSeconds: 1 });
    expect(leases.lease!.spec!.holderIdentity).toBeUndefined();
  });

  it('a leader that cannot renew within renewDeadline stops; another takes the expired lease', async () => {
    const clock = new FakeClock(1_000_000);
    const leases = new MemoryLeases();
    const log: string[] = [];
    const a = candidate(leases, clock, 'a', log, false);
    const acA = new AbortController();
    let stoppedA = false;
    const runA = a.run(acA.signal).then(() => { stoppedA = true; });
    await until(() => a.isLeader());
    // a loses the apiserver: its renewals fail
    const realUpdate = leases.update.bind(leases);
    leases.update = async (l) => { if (l.spec?.holderIdentity === 'a') throw new Error('connection refused'); return realUpdate(l); };
    await clock.advance(12_000);
    expect(stoppedA).toBe(true);
    await runA;
    const b = candidate(leases, clock, 'b', log);
    const acB = new AbortController();
    const runB = b.run(acB.signal);
    await clock.advance(1);
    expect(b.isLeader()).toBe(false); // b just saw the record: it waits leaseDuration from now
    await clock.advance(16_000);
    expect(b.isLeader()).toBe(true);
    acB.abort();
    await runB;
  });

  // client-go's renew(): each renewal round runs under a RenewDeadline timeout, so a lease call that hangs (an
  // apiserver gone without a word) or keeps failing (refused) ends leadership once the deadline passes.
  for (const mode of ['hangs', 'is refused'] as const) {
    it(`a leader whose renewal ${mode} stops leading within renewDeadline + retryPeriod`, async () => {
      const clock = new FakeClock(1_000_000);
      const leases = new MemoryLeases();
      const lines: string[] = [];
      let leading: AbortSignal | undefined;
      let stopped = false;
      const run = new LeaderElector({
        leases, name: 'lock', identity: 'a', clock, random: () => 0,
        logger: pino({ level: 'info' }, { write: (s: string) => { lines.push((JSON.parse(s) as { msg: string }).msg); } }),
        callbacks: { onStartedLeading: (s) => { leading = s; }, onStoppedLeading: () => { stopped = true; } },
      }).run(new AbortController().signal);
      await until(() => leading !== undefined);
      let aborted = 0;
      const fail = (signal?: AbortSignal): Promise<never> => mode === 'is refused'
        ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' }))
        : new Promise((_, reject) => signal?.addEventListener('abort', () => { aborted++; reject(signal.reason); }, { once: true }));
      const down: Pick<LeaseClient, 'get' | 'update'> = { get: (_n, o) => fail(o?.signal), update: (_l, o) => fail(o?.signal) };
      Object.assign(leases, down);
      await clock.advance(10_000 + 2_000);
      expect(leading!.aborted).toBe(true);
      // the release is bounded as upstream's leader-election client (its timeout is RenewDeadline)
      await clock.advance(10_000);
      expect(stopped).toBe(true);
      await run;
      if (mode === 'hangs') expect(aborted).toBeGreaterThanOrEqual(2); // the renewal and the release were cut off
      else expect(lines).toContain('error retrieving resource lock');
      expect(lines.some((l) => /^failed to renew lease lock: /.test(l))).toBe(true);
    });
  }

  it('writes acquireTime and renewTime with microseconds, as client-go from its clock (MicroTime)', async () => {
    const clock = new FakeClock(1_000_000, 0.123);
    const leases = new MemoryLeases();
    const a = candidate(leases, clock, 'a', []);
    const ac = new AbortController();
    const run = a.run(ac.signal);
    await until(() => a.isLeader());
    expect(leases.lease!.spec).toMatchObject({ acquireTime: '1970-01-01T00:16:40.000123Z', renewTime: '1970-01-01T00:16:40.000123Z' });
    await clock.advance(2_000);
    expect(leases.lease!.spec).toMatchObject({ acquireTime: '1970-01-01T00:16:40.000123Z', renewTime: '1970-01-01T00:16:42.000123Z' });
    await clock.advance(500);
    ac.abort();
    await run;
    expect(leases.lease!.spec).toMatchObject({ acquireTime: '1970-01-01T00:16:42.500123Z', renewTime: '1970-01-01T00:16:42.500123Z', leaseDurationSeconds: 1 });
  });

  it('rejects inconsistent timings', () => {
    expect(() => new LeaderElector({ leases: new MemoryLeases(), name: 'l', identity: 'x', leaseDurationMs: 10_000, renewDeadlineMs: 10_000, callbacks: { onStartedLeading: () => undefined } })).toThrow(/leaseDuration/);
  });
});
