import { describe, expect, it } from 'vitest';
import { Balancer } from './balancer.js';
import type { Endpoint } from './service-map.js';

const ep = (ip: string, node: string, ready = true): Endpoint => ({ ip, port: 80, node, ready, servingTerminating: !ready });
const a = ep('10.0.0.1', 'n1');
const b = ep('10.0.0.2', 'n2');
const at = (e: Endpoint): { ip: string; port: number } => ({ ip: e.ip, port: e.port });

describe('Balancer', () => {
  it('goes round the endpoints, and has nothing to give without any', () => {
    const lb = new Balancer([a, b]);
    expect([lb.pick('c1'), lb.pick('c1'), lb.pick('c2')]).toEqual([at(a), at(b), at(a)]);
    lb.update([], undefined);
    expect(lb.pick('c1')).toBeUndefined();
  });

  it('under a Local policy goes round the endpoints of the connection\'s nodes only, and has none for a node without', () => {
    const c = ep('10.0.0.3', 'n2');
    const lb = new Balancer([a, b, c]);
    expect([lb.pick('x', ['n2']), lb.pick('x', ['n2']), lb.pick('x', ['n2'])]).toEqual([at(b), at(c), at(b)]);
    expect(lb.pick('x', ['n1'])).toEqual(at(a));
    expect(lb.pick('x', ['n3'])).toBeUndefined();
    expect(lb.pick('x', ['n1', 'n3'])).toEqual(at(a));
    // a node's terminating endpoint serves while that node has no ready one, though other nodes have
    lb.update([a, ep('10.0.0.4', 'n2', false)], undefined);
    expect(lb.pick('x', ['n2'])).toEqual({ ip: '10.0.0.4', port: 80 });
    expect(lb.pick('x')).toEqual(at(a));
  });

  it('keeps a client on its endpoint within the affinity timeout, and moves it when that endpoint goes', () => {
    let now = 0;
    const lb = new Balancer([a, b], 1000, () => now);
    expect(lb.pick('c1')).toEqual(at(a));
    expect(lb.pick('c2')).toEqual(at(b));
    now = 900;
    expect(lb.pick('c1')).toEqual(at(a));
    now = 2000; // 1,100 ms since c1's last pick: expired
    expect(lb.pick('c1')).toEqual(at(a)); // round-robin's turn is a again
    lb.update([b], 1000);
    expect(lb.pick('c1')).toEqual(at(b));
  });

  it('keeps a client\'s affinity across the Cluster and Local choices where its endpoint may be used', () => {
    const lb = new Balancer([a, b], 1000, () => 0);
    expect(lb.pick('c1', ['n2'])).toEqual(at(b));
    expect(lb.pick('c1')).toEqual(at(b));
    expect(lb.pick('c1', ['n1'])).toEqual(at(a)); // not on n1: chosen anew there
    expect(lb.pick('c1')).toEqual(at(a));
  });
});
