// The events.k8s.io/v1 recorder: the events it writes, and how repeats become a series written at its first repeat,
// when it ends (6 minutes without one) and every 30 minutes while it goes on.
import { describe, expect, it } from 'vitest';
import { FakeClock } from './clock.js';
import { StatusError } from './errors.js';
import { EventBroadcaster, type EventsV1Event, type EventsV1Sink } from './events-v1.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

const setup = (o: { missing?: boolean; fraction?: number; beforeCreate?: (ev: EventsV1Event) => Promise<void> } = {}) => {
  const clock = new FakeClock(T0, o.fraction);
  const calls: string[] = [];
  const created: EventsV1Event[] = [];
  const sink: EventsV1Sink = {
    create: async (ev) => {
      await o.beforeCreate?.(ev);
      calls.push(`create ${ev.metadata!.name} ${JSON.stringify(ev.series ?? null)}`);
      created.push(ev);
      return ev;
    },
    patch: (name, _t, patch) => {
      calls.push(`patch ${name} ${JSON.stringify(patch)}`);
      if (o.missing) return Promise.reject(new StatusError(404, 'NotFound', 'not found'));
      return Promise.resolve({ ...created[0]!, ...(patch as object) });
    },
    namespace: () => sink,
  };
  const b = new EventBroadcaster({ sink, clock, hostname: 'h1' });
  b.start();
  return { clock, calls, created, b, r: b.newRecorder('default-scheduler') };
};

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1', resourceVersion: '7' } };
const nameOf = (calls: string[], i: number): string => calls[i]!.split(' ')[1]!;

describe('EventBroadcaster', () => {
  it('writes an event as upstream: action, reporting controller and instance, eventTime; no series or related unless given', async () => {
    const { b, r, created } = setup();
    r.eventf(pod, undefined, 'Normal', 'Scheduled', 'Binding', 'Successfully assigned ns/p to n1');
    await b.flush();
    expect(created).toEqual([{
      apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: `p.${(BigInt(T0) * 1_000_000n).toString(16)}`, namespace: 'ns' },
      eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-h1',
      action: 'Binding', reason: 'Scheduled', type: 'Normal', note: 'Successfully assigned ns/p to n1',
      regarding: { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u1', resourceVersion: '7' },
    }]);
    const victim = { ...pod, metadata: { ...pod.metadata, name: 'v', uid: 'u2' } };
    r.eventf(victim, pod, 'Normal', 'Preempted', 'Preempting', 'Preempted by pod u1 on node n1');
    await b.flush();
    expect(created[1]!.related).toMatchObject({ kind: 'Pod', name: 'p', uid: 'u1' });
  });

  it('makes repeats a series whatever their notes: count 2 at once, the rest when the series ends, then starts afresh', async () => {
    const { b, r, clock, calls } = setup();
    for (const note of ['0/3 nodes', '0/4 nodes', '0/4 nodes', '0/5 nodes']) {
      r.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', note);
      await b.flush();
      await clock.advance(1000);
    }
    // another action, or another object, is another event
    r.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Binding', 'x');
    r.eventf({ ...pod, metadata: { ...pod.metadata, uid: 'u9' } }, undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    await b.flush();
    const name = nameOf(calls, 0);
    expect(calls).toEqual([
      `create ${name} null`,
      `patch ${name} ${JSON.stringify({ series: { count: 2, lastObservedTime: at(1000) } })}`,
      expect.stringMatching(/^create p\.\S+ null$/),
      expect.stringMatching(/^create p\.\S+ null$/),
    ]);
    calls.length = 0;
    await clock.advance(6 * 60_000 - 4000); // the first look, 6 minutes in, finds the series 5m57s old
    expect(calls).toEqual([]);
    await clock.advance(6 * 60_000);
    expect(calls).toEqual([`patch ${name} ${JSON.stringify({ series: { count: 4, lastObservedTime: at(3000) } })}`]);
    r.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'again');
    await b.flush();
    expect(calls[1]).toMatch(/^create p\.\S+ null$/);
    expect(nameOf(calls, 1)).not.toBe(name);
  });

  it('writes a running series every 30 minutes, and creates it again if it was deleted', async () => {
    const { b, r, clock, calls } = setup({ missing: true });
    for (let i = 0; i < 40; i++) {
      r.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no nodes');
      await b.flush();
      await clock.advance(60_000);
    }
    const name = nameOf(calls, 0);
    const series = (count: number, ms: number): string => JSON.stringify({ count, lastObservedTime: at(ms) });
    expect(calls).toEqual([
      `create ${name} null`,
      `patch ${name} ${JSON.stringify({ series: JSON.parse(series(2, 60_000)) })}`, `create ${name} ${series(2, 60_000)}`,
      // at 30 minutes the 30th repeat has not been seen yet
      `patch ${name} ${JSON.stringify({ series: JSON.parse(series(30, 29 * 60_000)) })}`, `create ${name} ${series(30, 29 * 60_000)}`,
    ]);
  });

  it('writes each event on its own: a slow write holds back neither the next events nor their series, and flush waits for all', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => { release = resolve; });
    const { b, r, calls } = setup({ beforeCreate: (ev) => (ev.metadata!.name!.startsWith('p.') ? slow : Promise.resolve()) });
    r.eventf(pod, undefined, 'Normal', 'Scheduled', 'Binding', 'first');
    const other = { ...pod, metadata: { ...pod.metadata, name: 'q', uid: 'u2' } };
    r.eventf(other, undefined, 'Normal', 'Scheduled', 'Binding', 'second');
    r.eventf(other, undefined, 'Normal', 'Scheduled', 'Binding', 'second again');
    let flushed = false;
    const flushing = b.flush().then(() => { flushed = true; });
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([expect.stringMatching(/^create q\.\S+ null$/), expect.stringMatching(/^patch q\.\S+ .*"count":2/)]);
    expect(flushed).toBe(false);
    release();
    await flushing;
    expect(calls[2]).toMatch(/^create p\.\S+ null$/);
  });

  it('stamps eventTime and series.lastObservedTime with microseconds, as client-go; the name is eventTime in nanoseconds', async () => {
    const { b, r, clock, calls, created } = setup({ fraction: 0.456 });
    r.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    await b.flush();
    expect(created[0]).toMatchObject({ metadata: { name: `p.${(BigInt(T0) * 1_000_000n + 456_000n).toString(16)}` }, eventTime: '2026-01-01T00:00:00.000456Z' });
    await clock.advance(1000);
    r.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'x');
    await b.flush();
    expect(calls[1]).toBe(`patch ${nameOf(calls, 0)} ${JSON.stringify({ series: { count: 2, lastObservedTime: '2026-01-01T00:00:01.000456Z' } })}`);
    // events of one instant still have names of their own
    r.eventf(pod, undefined, 'Normal', 'Scheduled', 'Binding', 'y');
    r.eventf(pod, undefined, 'Normal', 'Scheduled', 'Preempting', 'z');
    await b.flush();
    expect(new Set(calls.slice(2).map((_, i) => nameOf(calls, i + 2))).size).toBe(2);
  });
});
