import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { FakeClock, StatusError } from '../../client/index.js';
import type { ControllerContext } from '../shared/types.js';
import type { Health } from './health.js';
import { podNodeChanged, podUpdateLoop, processPod } from './pod-updates.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');

const pod = (name: string, nodeName: string | undefined, ready?: string): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'busybox' }] },
  status: { phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True' }, ...(ready ? [{ type: 'Ready', status: ready, lastTransitionTime: '2024-12-31T00:00:00Z' }] : [])] },
});

function fixture(pods: KubeObject[], nodes: string[], health: Record<string, Health>, fail?: unknown) {
  const written: KubeObject[] = [];
  const events: string[] = [];
  const ctx = {
    client: { pods: () => ({ updateStatus: async (p: KubeObject) => { if (fail) throw fail; written.push(p); return p; } }) },
    recorder: { event: (o: KubeObject, type: string, reason: string, message: string) => events.push(`${o.metadata!.name} ${type} ${reason} ${message}`) },
    signal: new AbortController().signal,
  } as unknown as ControllerContext;
  const byKey = new Map(pods.map((p) => [`default/${p.metadata!.name}`, p]));
  const deps = {
    pods: { get: (key: string) => byKey.get(key) },
    nodes: { get: (name: string) => (nodes.includes(name) ? { metadata: { name } } : undefined) },
    health: new Map(Object.entries(health)),
    now: () => T0,
  };
  return { ctx, deps, written, events };
}

const seen = (ready?: Health['ready']): Health => ({ probeTimestamp: T0, ready });

describe('podNodeChanged (upstream podUpdated)', () => {
  it('is true for a pod seen bound for the first time or moved to another node, not for other updates or unbound pods', () => {
    expect(podNodeChanged(undefined, pod('p', 'n1'))).toBe(true);
    expect(podNodeChanged(pod('p', undefined), pod('p', 'n1'))).toBe(true);
    expect(podNodeChanged(pod('p', 'n1'), pod('p', 'n1', 'True'))).toBe(false);
    expect(podNodeChanged(undefined, pod('p', undefined))).toBe(false);
  });
});

describe('processPod (upstream processPod and MarkPodsNotReady)', () => {
  it('sets the Ready condition of a pod on a node last seen not ready to False, keeping its reason and message', async () => {
    const p = pod('p', 'n1', 'True');
    (p.status!.conditions as Record<string, unknown>[])[1]!.reason = 'Whatever';
    const f = fixture([p], ['n1'], { n1: seen('Unknown') });
    await processPod(f.ctx, 'default/p', f.deps);
    expect(f.written).toHaveLength(1);
    expect(f.written[0]!.status!.conditions).toEqual([
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'Whatever', lastTransitionTime: '2025-01-01T00:00:00Z' },
    ]);
    expect(f.events).toEqual(['p Warning NodeNotReady Node is not ready']);
  });

  it('writes nothing for a node ready, not yet seen by a health pass, or without a Ready condition, nor for a pod gone', async () => {
    for (const health of [{ n1: seen('True') }, {}, { n1: seen(undefined) }] as Record<string, Health>[]) {
      const f = fixture([pod('p', 'n1', 'True')], ['n1'], health);
      await processPod(f.ctx, 'default/p', f.deps);
      expect(f.written).toEqual([]);
    }
    const f = fixture([], ['n1'], { n1: seen('False') });
    await processPod(f.ctx, 'default/p', f.deps);
    expect(f.written).toEqual([]);
  });

  it('writes nothing for a pod whose Ready condition is already False or that has none yet', async () => {
    for (const p of [pod('p', 'n1', 'False'), pod('p', 'n1')]) {
      const f = fixture([p], ['n1'], { n1: seen('False') });
      await processPod(f.ctx, 'default/p', f.deps);
      expect(f.written).toEqual([]);
    }
  });

  it('fails (to be retried) when the node is not in the cache or the write fails', async () => {
    const gone = fixture([pod('p', 'n1', 'True')], [], { n1: seen('False') });
    await expect(processPod(gone.ctx, 'default/p', gone.deps)).rejects.toThrow(/n1/);
    const failing = fixture([pod('p', 'n1', 'True')], ['n1'], { n1: seen('False') }, new Error('boom'));
    await expect(processPod(failing.ctx, 'default/p', failing.deps)).rejects.toThrow('boom');
    // recorded all the same, as upstream's MarkPodsNotReady records it after any write but one of a pod gone
    expect(failing.events).toEqual(['p Warning NodeNotReady Node is not ready']);
    const gonePod = fixture([pod('p', 'n1', 'True')], ['n1'], { n1: seen('False') }, new StatusError(404, 'NotFound', 'pods "p" not found'));
    await processPod(gonePod.ctx, 'default/p', gonePod.deps);
    expect(gonePod.events).toEqual([]);
  });
});

describe('markPodsNotReady through processPod', () => {
  it('writes a finished pod whose Ready condition is still True too, as upstream (no phase check)', async () => {
    const p = pod('p', 'n1', 'True');
    p.status!.phase = 'Succeeded';
    const f = fixture([p], ['n1'], { n1: seen('False') });
    await processPod(f.ctx, 'default/p', f.deps);
    expect(f.written).toHaveLength(1);
  });
});

describe('podUpdateLoop (upstream podUpdateQueue)', () => {
  it('retries a pod whose write fails with backoff for as long as it fails, never dropping it', async () => {
    const clock = new FakeClock(T0);
    const f = fixture([pod('p', 'n1', 'True')], ['n1'], { n1: seen('False') });
    let failures = 0;
    const ac = new AbortController();
    const logger = { child: () => logger, debug: () => undefined, info: () => undefined, warn: () => undefined };
    const ctx = {
      ...f.ctx, clock, signal: ac.signal, workers: 1, logger,
      informers: { start: () => undefined, waitForCacheSync: async () => true },
      client: { pods: () => ({ updateStatus: async (p: KubeObject) => { if (failures++ < 25) throw new Error('boom'); f.written.push(p); return p; } }) },
    } as unknown as ControllerContext;
    const loop = podUpdateLoop(ctx, f.deps);
    const running = loop.run();
    loop.enqueue(pod('p', 'n1', 'True'));
    for (let i = 0; i < 40 && !f.written.length; i++) await clock.advance(3_600_000);
    expect(failures).toBe(26);
    expect(f.written).toHaveLength(1);
    ac.abort();
    await running;
  });
});
