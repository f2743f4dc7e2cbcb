import { describe, expect, it } from 'vitest';
import { FakeClock } from '../client/index.js';
import { POD_CIDR_WARN_AFTER_MS, POD_CIDR_WARN_EVERY_MS, warnWhileNoPodCidr } from './host.js';

describe('a node waiting for its podCIDR', () => {
  it('says so after a few seconds, then rarely, with what to do, until it has one', async () => {
    const clock = new FakeClock(0);
    const warnings: [Record<string, unknown>, string][] = [];
    const stop = warnWhileNoPodCidr(clock, { warn: (o: Record<string, unknown>, m: string) => { warnings.push([o, m]); } } as never, 'node-1');
    await clock.advance(POD_CIDR_WARN_AFTER_MS - 1);
    expect(warnings).toEqual([]);
    await clock.advance(1);
    expect(warnings).toEqual([[{ node: 'node-1', waitedSeconds: 10 },
      'waiting for the Node\'s spec.podCIDR before running pods: pass --pod-cidr or run the controller-manager with --allocate-node-cidrs --cluster-cidr']]);
    await clock.advance(POD_CIDR_WARN_EVERY_MS);
    expect(warnings.map(([o]) => o.waitedSeconds)).toEqual([10, 310]);
    stop();
    await clock.advance(10 * POD_CIDR_WARN_EVERY_MS);
    expect(warnings).toHaveLength(2);
    expect(clock.pending()).toBe(0);
  });
});
