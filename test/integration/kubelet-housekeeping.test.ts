// What the kubelet does about a pod beside syncing it, as upstream 1.32's pod workers and housekeeping: a pod that
// starts terminating cancels the sync in progress (UpdatePod's becameTerminating), so a deletion does not wait for a
// long image pull; and every housekeeping pass (2 s) kills what the runtime runs for pods no source knows
// (HandlePodCleanups), not only at the kubelet's start. Fake runtime; the test holds it.
import { describe, expect, it } from 'vitest';
import { FakeRuntime } from '../../pkg/kubelet/index.js';
import { createBound, eventually, kubeletCluster, pod } from './kubelet-support.js';

const NODE = 'node-hk';

describe('kubelet: cancelled syncs and housekeeping', () => {
  // a pull takes a minute: a sync pulling an image is a long one
  const runtime = new FakeRuntime({ pullLatencyMs: 60_000, fallbackCidr: '100.64.7.0/24' });
  const c = kubeletCluster(NODE, { runtimeFor: () => runtime });

  const gone = async (name: string): Promise<boolean> => {
    try { await c.admin.pods('default').get(name); return false; } catch (e) { return (e as { code?: number }).code === 404; }
  };

  it('a pod deleted while its image is pulled is killed at once: the deletion cancels the sync in progress', async () => {
    const created = await createBound(c.admin, pod('slow', { spec: { containers: [{ name: 'c', image: 'registry.example/slow:1' }] } }), NODE);
    await eventually(async () => {
      const evs = (await c.admin.events('default').list({ fieldSelector: 'involvedObject.name=slow' })).items;
      return evs.some((e) => e.reason === 'Pulling');
    }, 10_000, 'the pull under way');
    await c.admin.pods('default').delete('slow');
    await eventually(() => gone('slow'), 10_000, 'pod gone, not waiting for its pull');
    expect(runtime.listContainers(created.metadata!.uid!)).toEqual([]);
  });

  it('kills and removes what the runtime runs for a pod no source knows, at any time, not only at start', async () => {
    const uid = 'f00dfeed-0000-4000-8000-000000000001';
    const sandbox = await runtime.runPodSandbox({ name: 'stray', namespace: 'default', uid, attempt: 0 });
    const id = await runtime.createContainer(sandbox, { name: 'c', attempt: 0, image: 'registry.example/slow:1' });
    await runtime.startContainer(id);
    expect(runtime.containerStatus(id)?.state).toBe('running');
    await eventually(async () => runtime.listContainers(uid).length === 0 && runtime.listPodSandboxes(uid).length === 0, 10_000, 'the orphan gone');
    const evs = (await eventually(async () => {
      const list = (await c.admin.events('default').list({ fieldSelector: 'involvedObject.name=stray' })).items;
      return list.length ? list : undefined;
    }, 10_000, 'its Killing event'));
    expect(evs.map((e) => `${e.reason}: ${e.message}`)).toEqual(['Killing: Stopping container c']);
  });
});
