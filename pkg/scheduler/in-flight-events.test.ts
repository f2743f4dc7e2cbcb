import { describe, expect, it } from 'vitest';
import type { ClusterEventObjects } from './framework/interface.js';
import { InFlightEvents } from './in-flight-events.js';

const ev = (name: string): ClusterEventObjects => ({ event: { resource: 'Node', action: 'Add' }, newObj: { metadata: { name } } });
const names = (evs: ClusterEventObjects[]): string[] => evs.map((e) => e.newObj!.metadata!.name!);

describe('InFlightEvents', () => {
  it('gives each pod the events recorded since it started, and keeps none while no pod is in flight', () => {
    const f = new InFlightEvents();
    f.record(ev('before'));
    expect(f.size).toBe(0);
    f.start('a');
    f.record(ev('1'));
    f.start('b');
    f.record(ev('2'));
    expect(names(f.finish('a'))).toEqual(['1', '2']);
    f.record(ev('3'));
    expect(f.has('b')).toBe(true);
    expect(names(f.finish('b'))).toEqual(['2', '3']);
    expect(f.has('b')).toBe(false);
    expect(f.size).toBe(0);
    expect(f.finish('b')).toEqual([]);
    f.start('c');
    expect(f.finish('c')).toEqual([]);
  });

  it('keeps events back to the oldest pod in flight only, while short-lived pods come and go', () => {
    const f = new InFlightEvents();
    f.start('long');
    for (let i = 0; i < 100; i++) {
      f.start(`p${i}`);
      f.record(ev(String(i)));
      expect(names(f.finish(`p${i}`))).toEqual([String(i)]);
    }
    expect(f.size).toBe(100);
    f.start('late');
    f.record(ev('x'));
    expect(names(f.finish('long'))).toHaveLength(101);
    // what only `late` can see is left: its one event, once the dropped prefix is worth copying away
    expect(f.size).toBe(1);
    expect(names(f.finish('late'))).toEqual(['x']);
    expect(f.size).toBe(0);
  });

  it('restarts a pod popped again from the events after its new start', () => {
    const f = new InFlightEvents();
    f.start('a');
    f.start('b');
    f.record(ev('1'));
    f.start('a');
    f.record(ev('2'));
    expect(names(f.finish('b'))).toEqual(['1', '2']);
    expect(names(f.finish('a'))).toEqual(['2']);
  });
});
