// Per-kind update rules from upstream's strategies: what a write through /status may change of the metadata (pods keep
// ownerReferences, deployments labels, flow control all of it), and which kinds refuse a PUT without resourceVersion.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { create } from './create.js';
import { deleteObject } from './delete.js';
import { patchBuilder } from './patch.js';
import { registriesOver, testContext } from './testing.js';
import { putRequest, update } from './update.js';

describe('update rules', () => {
  let regs: Awaited<ReturnType<typeof registriesOver>>;
  const ctx = testContext({ fieldValidation: 'Ignore' });
  const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '6a1b0f3e-0000-4000-8000-000000000001' };

  beforeEach(async () => {
    regs = await registriesOver();
  });
  afterEach(async () => {
    regs.stop();
    await regs.store.close();
  });

  const statusPatch = async (group: string, plural: string, name: string, patch: unknown, c = ctx): Promise<KubeObject> =>
    (await update(regs.get(group, 'v1', plural)!, c, patchBuilder(regs.get(group, 'v1', plural)!, c, name, 'merge', patch, false, 'status'))).object;

  it('takes a pod\'s labels, annotations and finalizers from the writer, keeps its owner references and spec', async () => {
    const pods = regs.get('', 'v1', 'pods')!;
    const created = (await create(pods, ctx, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: '1' }, ownerReferences: [owner] },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    })).object;
    const pod = await statusPatch('', 'pods', 'p', {
      metadata: { labels: { a: '2', b: '1' }, annotations: { note: 'x' }, finalizers: ['example.com/hold'], ownerReferences: null },
      spec: { nodeName: 'elsewhere' },
      status: { phase: 'Running' },
    }, { ...ctx, fieldManager: 'kubelet' });
    expect(pod.metadata?.labels).toEqual({ a: '2', b: '1' });
    expect(pod.metadata?.annotations).toEqual({ note: 'x' });
    expect(pod.metadata?.finalizers).toEqual(['example.com/hold']);
    expect(pod.metadata?.ownerReferences).toEqual([owner]);
    expect(pod.spec).toEqual(created.spec);
    expect(pod.status?.phase).toBe('Running');
    const mine = pod.metadata?.managedFields?.find((e) => e.manager === 'kubelet');
    expect(mine?.subresource).toBe('status');
    expect(mine?.fieldsV1).toMatchObject({ 'f:metadata': { 'f:labels': { 'f:b': {} }, 'f:annotations': { 'f:note': {} } }, 'f:status': { 'f:phase': {} } });
    // invalid metadata is refused there as anywhere
    await expect(statusPatch('', 'pods', 'p', { metadata: { labels: { 'bad key!': 'x' } } })).rejects.toThrow(/metadata.labels/);
  });

  it('drops the labels a PUT to /status leaves out, as upstream does', async () => {
    const pods = regs.get('', 'v1', 'pods')!;
    const created = (await create(pods, ctx, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q', labels: { a: '1' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } })).object;
    const put = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q', resourceVersion: created.metadata?.resourceVersion }, status: { phase: 'Pending' } };
    const res = await update(pods, ctx, { name: 'q', subresource: 'status', build: () => structuredClone(put) });
    expect(res.object.metadata?.labels).toBeUndefined();
    expect(res.object.spec).toEqual(created.spec);
    // the QoS class the server set at creation stays when the writer leaves it out
    expect(res.object.status?.qosClass).toBe('BestEffort');
  });

  it('removing the last finalizer of a deleted object through /status deletes it', async () => {
    const pods = regs.get('', 'v1', 'pods')!;
    await create(pods, ctx, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'f', finalizers: ['example.com/hold'] }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    await deleteObject(pods, ctx, 'f', { gracePeriodSeconds: 0 });
    await statusPatch('', 'pods', 'f', { metadata: { finalizers: null } });
    await expect(pods.get(ctx, 'f')).rejects.toThrow(/not found/);
  });

  it('keeps a deployment\'s labels, takes its annotations', async () => {
    const deployments = regs.get('apps', 'v1', 'deployments')!;
    await create(deployments, ctx, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { a: '1' } },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const d = await statusPatch('apps', 'deployments', 'd', { metadata: { labels: { a: '2' }, annotations: { note: 'x' } }, status: { replicas: 3 } });
    expect(d.metadata?.labels).toEqual({ a: '1' });
    expect(d.metadata?.annotations).toEqual({ note: 'x' });
    expect(d.status?.replicas).toBe(3);
  });

  it('keeps all of a FlowSchema\'s metadata', async () => {
    const schemas = regs.get('flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas')!;
    const c = { ...ctx, namespace: '' };
    await create(schemas, c, {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'fs', labels: { a: '1' } },
      spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 },
    });
    const fs = await statusPatch('flowcontrol.apiserver.k8s.io', 'flowschemas', 'fs', { metadata: { labels: { a: '2' }, annotations: { note: 'x' } }, status: { conditions: [{ type: 'Dangling', status: 'False' }] } }, c);
    expect(fs.metadata?.labels).toEqual({ a: '1' });
    expect(fs.metadata?.annotations).toBeUndefined();
    expect(fs.status?.conditions).toHaveLength(1);
  });

  it('refuses a PUT without resourceVersion where upstream does (a PodDisruptionBudget), takes it elsewhere (a ConfigMap)', async () => {
    const pdbs = regs.get('policy', 'v1', 'poddisruptionbudgets')!;
    await create(pdbs, ctx, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b' }, spec: { minAvailable: 1 } });
    const put = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b' }, spec: { minAvailable: 2 } };
    await expect(update(pdbs, ctx, { name: 'b', build: () => structuredClone(put) })).rejects.toMatchObject({
      code: 422,
      message: 'poddisruptionbudgets.policy "b" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    });
    const configMaps = regs.get('', 'v1', 'configmaps')!;
    await create(configMaps, ctx, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } });
    const res = await update(configMaps, ctx, { name: 'c', build: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '2' } }) });
    expect(res.object.data).toEqual({ a: '2' });
  });

  it('stamps a PersistentVolume\'s lastPhaseTransitionTime on create and on each phase change through /status', async () => {
    const volumes = regs.get('', 'v1', 'persistentvolumes')!;
    const at = (iso: string) => ({ ...ctx, namespace: '', now: new Date(iso) });
    const pv = (await create(volumes, at('2026-01-01T00:00:00Z'), {
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv' } }, status: { phase: 'Bound' },
    })).object;
    expect(pv.status).toEqual({ phase: 'Pending', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' });
    const put = async (status: Record<string, unknown>, iso: string): Promise<KubeObject> => (await update(volumes, at(iso), {
      name: 'pv', subresource: 'status', build: (cur) => ({ ...cur!, status }),
    })).object;
    // a phase change with the old time (a controller's copy) or none gets the write's time
    expect((await put({ phase: 'Available', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' }, '2026-01-01T00:01:00Z')).status?.lastPhaseTransitionTime).toBe('2026-01-01T00:01:00Z');
    // the same phase keeps the time when the writer leaves it out
    expect((await put({ phase: 'Available', message: 'm' }, '2026-01-01T00:02:00Z')).status?.lastPhaseTransitionTime).toBe('2026-01-01T00:01:00Z');
    expect((await put({ phase: 'Bound' }, '2026-01-01T00:03:00Z')).status?.lastPhaseTransitionTime).toBe('2026-01-01T00:03:00Z');
    // a writer's own time stands
    expect((await put({ phase: 'Released', lastPhaseTransitionTime: '2025-12-31T00:00:00Z' }, '2026-01-01T00:04:00Z')).status?.lastPhaseTransitionTime).toBe('2025-12-31T00:00:00Z');
  });

  it('takes a uid only as the stored one: a PUT naming another is 409 (a precondition), a patch naming another 422', async () => {
    const cms = regs.get('', 'v1', 'configmaps')!;
    const created = (await create(cms, ctx, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u' }, data: { a: '1' } })).object;
    const other = '00000000-0000-4000-8000-000000000000';
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u', uid: other }, data: { a: '2' } };
    await expect(update(cms, ctx, putRequest(cms, ctx, 'u', body))).rejects.toMatchObject({
      code: 409, message: `Operation cannot be fulfilled on configmaps "u": Precondition failed: UID in precondition: ${other}, UID in object meta: ${created.metadata?.uid}`,
    });
    await expect(update(cms, ctx, patchBuilder(cms, ctx, 'u', 'merge', { metadata: { uid: other }, data: { a: '3' } }, false))).rejects.toMatchObject({
      code: 422, message: `ConfigMap "u" is invalid: metadata.uid: Invalid value: "${other}": field is immutable`,
    });
    // the right uid, or none, goes through; a deletion timestamp a live object never had is refused
    expect((await update(cms, ctx, putRequest(cms, ctx, 'u', { ...body, metadata: { name: 'u', uid: created.metadata?.uid } }))).object.data).toEqual({ a: '2' });
    expect((await update(cms, ctx, patchBuilder(cms, ctx, 'u', 'merge', { data: { a: '4' } }, false))).object.data).toEqual({ a: '4' });
    await expect(update(cms, ctx, patchBuilder(cms, ctx, 'u', 'merge', { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } }, false))).rejects.toMatchObject({ code: 422 });
  });

  it('gives a node its pod range once: from none to one, never to another', async () => {
    const nodes = regs.get('', 'v1', 'nodes')!;
    await create(nodes, { ...ctx, namespace: undefined }, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } });
    const c = { ...ctx, namespace: undefined };
    const patch = (spec: Record<string, unknown>) => update(nodes, c, patchBuilder(nodes, c, 'n', 'strategic', { spec }, false));
    expect((await patch({ podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'] })).object.spec?.podCIDRs).toEqual(['10.244.0.0/24']);
    // podCIDRs merges as a set (the patch's item first, as normalizeElementOrder places it): two IPv4 ranges, which
    // ValidateNode refuses too, before the update's own rule
    await expect(patch({ podCIDR: '10.244.3.0/24', podCIDRs: ['10.244.3.0/24'] })).rejects.toMatchObject({
      code: 422, message: 'Node "n" is invalid: [spec.podCIDRs: Invalid value: []string{"10.244.3.0/24", "10.244.0.0/24"}: may specify no more than one CIDR for each IP family, '
        + 'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid]',
    });
    await expect(update(nodes, c, patchBuilder(nodes, c, 'n', 'merge', { spec: { podCIDR: '10.244.3.0/24', podCIDRs: ['10.244.3.0/24'] } }, false))).rejects.toMatchObject({
      code: 422, message: 'Node "n" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
    });
    expect((await patch({ providerID: 'kind://n' })).object.spec?.providerID).toBe('kind://n');
    await expect(patch({ providerID: 'kind://m' })).rejects.toMatchObject({ code: 422, message: expect.stringContaining('node updates may not change providerID') });
  });
});
