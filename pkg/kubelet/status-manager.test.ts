// The status manager while the apiserver is away: a failed write is logged and tried again by the periodic batch
// (upstream's syncBatch, every 10 s) or at the pod's next status, never in a hot loop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Client, KubeObject } from '../client/index.js';
import { StatusManager } from './status-manager.js';

const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1', resourceVersion: '1' }, status: { phase: 'Pending' } };

const setup = () => {
  let down = true;
  const patches: unknown[] = [];
  const client = {
    pods: () => ({
      patchMeta: (_name: string, _type: string, body: { status: unknown }) => {
        patches.push(body.status);
        return down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6443')) : Promise.resolve({ resourceVersion: '2' });
      },
    }),
  } as unknown as Client;
  const logged: string[] = [];
  const log = (_o: unknown, msg: string): void => { logged.push(msg); };
  const logger = { info: log, warn: log, debug: () => undefined } as never;
  const manager = new StatusManager({ client, logger, getPod: () => pod, canBeDeleted: () => false, workers: 1 });
  return { manager, patches, logged, up: () => { down = false; } };
};

/** Lets the manager's worker run what is queued. */
const settle = async (): Promise<void> => { for (let i = 0; i < 20; i++) await Promise.resolve(); };

describe('StatusManager', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('tries a failed write again every 10 s, or at once on a new status; one log line per failure', async () => {
    vi.useFakeTimers();
    const { manager, patches, logged, up } = setup();
    manager.start();
    manager.setPodStatus('u1', { phase: 'Running' });
    await settle();
    expect(patches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(9_900);
    expect(patches).toHaveLength(1); // no retry before the batch
    await vi.advanceTimersByTimeAsync(10_100);
    expect(patches).toHaveLength(3); // at 10 s and 20 s
    expect(logged).toEqual(Array(3).fill('Failed to update status for pod'));
    manager.setPodStatus('u1', { phase: 'Succeeded' });
    await settle();
    expect(patches).toHaveLength(4); // a new status is tried at once
    up();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(patches.at(-1)).toEqual({ phase: 'Succeeded' });
    const written = patches.length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(patches).toHaveLength(written); // written: nothing more to try
    await manager.stop();
  });

  it('puts back within a batch what someone else changed of its part of a status, keeping their conditions', async () => {
    vi.useFakeTimers();
    const cond = (type: string, status: string) => ({ type, status, lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' });
    const mine = { phase: 'Running', conditions: [cond('Ready', 'True'), cond('PodScheduled', 'True')] };
    let api: KubeObject = { ...pod, metadata: { ...pod.metadata, resourceVersion: '5' }, status: mine };
    const patches: any[] = [];
    const client = { pods: () => ({ patchMeta: (_n: string, _t: string, body: { status: any }) => {
      patches.push(body.status);
      api = { ...api, metadata: { ...api.metadata, resourceVersion: String(Number(api.metadata!.resourceVersion) + 1) }, status: body.status };
      return Promise.resolve({ resourceVersion: api.metadata!.resourceVersion });
    } }) } as unknown as Client;
    const logger = { info: () => undefined, debug: () => undefined } as never;
    const manager = new StatusManager({ client, logger, getPod: () => api, canBeDeleted: () => false, workers: 1 });
    manager.start();
    manager.setPodStatus('u1', mine);
    await settle();
    expect(patches).toHaveLength(0); // the API has it already
    // someone adds a condition of their own: not the kubelet's part, nothing to put back
    api = { ...api, metadata: { ...api.metadata, resourceVersion: '6' }, status: { ...mine, conditions: [...mine.conditions, cond('example.com/Drained', 'True')] } };
    await vi.advanceTimersByTimeAsync(10_000);
    expect(patches).toHaveLength(0);
    // and then marks the pod not ready: the next batch writes Ready back, their condition kept
    api = { ...api, metadata: { ...api.metadata, resourceVersion: '7' }, status: { ...mine, conditions: [cond('Ready', 'False'), cond('PodScheduled', 'True'), cond('example.com/Drained', 'True')] } };
    await vi.advanceTimersByTimeAsync(9_000);
    expect(patches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(patches).toEqual([{ phase: 'Running', conditions: [cond('Ready', 'True'), cond('PodScheduled', 'True'), cond('example.com/Drained', 'True')] }]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(patches).toHaveLength(1); // put back: nothing more to write
    await manager.stop();
  });
});
