import { describe, expect, it } from 'vitest';
import { NodeInfo, NodeMemo } from './node-info.js';

const node = (name: string) => ({ metadata: { name }, status: { allocatable: { cpu: '2', memory: '4Gi', pods: '10' } } });
const pod = (name: string) => ({ metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { nodeName: 'n1', containers: [{ name: 'c' }] } });

describe('NodeMemo', () => {
  it('keeps a value while the node keeps its pods, for a clone too until either changes', () => {
    const memo = new NodeMemo();
    const ni = new NodeInfo(node('n1'));
    memo.set(ni, 3);
    expect(memo.get(ni)).toBe(3);
    ni.addPod(pod('a'));
    expect(memo.get(ni)).toBeUndefined();
    memo.set(ni, 4);
    const copy = ni.clone();
    expect(memo.get(copy)).toBe(4);
    copy.removePod(pod('a'));
    expect(memo.get(copy)).toBeUndefined();
    memo.set(copy, 0);
    // the clone's value took the shared slot: the node counts again rather than reading it
    expect(memo.get(ni)).toBeUndefined();
    expect(ni.podCount).toBe(1);
    expect(copy.podCount).toBe(0);
  });

  it('gives a released slot to a new node without its value', () => {
    const memo = new NodeMemo();
    const gone = new NodeInfo(node('n1'));
    memo.set(gone, 7);
    gone.release();
    const next = new NodeInfo(node('n2'));
    expect(next.slot).toBe(gone.slot);
    expect(memo.get(next)).toBeUndefined();
  });

  it('grows past its first size', () => {
    const memo = new NodeMemo();
    const nodes = Array.from({ length: 200 }, (_, i) => new NodeInfo(node(`n${i}`)));
    nodes.forEach((ni, i) => memo.set(ni, i));
    expect(nodes.map((ni) => memo.get(ni))).toEqual(nodes.map((_, i) => i));
  });
});
