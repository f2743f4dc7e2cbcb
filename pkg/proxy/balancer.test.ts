import { describe, expect, it } from 'vitest';
import { Balancer } from './balancer.js';

const a = { ip: '10.0.0.1', port: 80 };
const b = { ip: '10.0.0.2', port: 80 };

describe('Balancer', () => {
  it('goes round the endpoints, and has nothing to give without any', () => {
    const lb = new Balancer([a, b]);
    expect([lb.pick('c1'), lb.pick('c1'), lb.pick('c2')]).toEqual([a, b, a]);
    lb.update([], undefined);
    expect(lb.pick('c1')).toBeUndefined();
  });

  it('keeps a client on its endpoint within the affinity timeout, and moves it when that endpoint goes', () => {
    let now = 0;
    const lb = new Balancer([a, b], 1000, () => now);
    expect(lb.pick('c1')).toEqual(a);
    expect(lb.pick('c2')).toEqual(b);
    now = 900;
    expect(lb.pick('c1')).toEqual(a);
    now = 2000; // 1,100 ms since c1's last pick: expired
    expect(lb.pick('c1')).toEqual(a); // round-robin's turn is a again
    lb.update([b], 1000);
    expect(lb.pick('c1')).toEqual(b);
  });
});
