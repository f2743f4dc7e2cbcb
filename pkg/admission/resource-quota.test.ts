import { describe, expect, it } from 'vitest';
import type { KubeObject, ResourceType } from '../../api/types.js';
import type { AdmissionDeps, Change } from './deps.js';
import { ResourceQuota } from './resource-quota.js';

const rt = (plural: string, kind: string): ResourceType => ({
  group: '', version: 'v1', kind, plural, singular: kind.toLowerCase(), namespaced: true, verbs: [], definition: `io.k8s.api.core.v1.${kind}`,
});
const KINDS: Record<string, ResourceType> = {
  pods: rt('pods', 'Pod'), services: rt('services', 'Service'), persistentvolumeclaims: rt('persistentvolumeclaims', 'PersistentVolumeClaim'),
  configmaps: rt('configmaps', 'ConfigMap'), secrets: rt('secrets', 'Secret'), replicationcontrollers: rt('replicationcontrollers', 'ReplicationController'),
  resourcequotas: rt('resourcequotas', 'ResourceQuota'),
};

const pod = (name: string, cpu: string): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'limited' },
  spec: { containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu } } }] },
});

/** A plugin over objects held in `objects` (namespace/plural → list); its watch callbacks and status writes kept. */
function harness(objects: Map<string, KubeObject[]>, stop = new AbortController()) {
  const onChange = new Map<string, (c: Change) => void>();
  const statusWrites: string[] = [];
  const errors: string[] = [];
  const deps = {
    stopped: stop.signal,
    resource: (group: string, plural: string) => (group === '' ? KINDS[plural] : undefined),
    list: (_group: string, plural: string, ns?: string) =>
      [...objects].filter(([k]) => k.endsWith(`/${plural}`) && (ns === undefined || k.startsWith(`${ns}/`))).flatMap(([, v]) => v),
    get: () => undefined,
    watch: (_group: string, plural: string, fn: (c: Change) => void) => { onChange.set(plural, fn); return () => undefined; },
    updateStatus: async (_g: string, _p: string, ns: string | undefined, name: string) => {
      statusWrites.push(`${ns}/${name}`);
      await new Promise(setImmediate);
      // the apiserver closes its store once admission is stopped: a write still under way fails
      if (stop.signal.aborted) throw new Error('store is closed');
    },
  } as unknown as AdmissionDeps;
  const plugin = new ResourceQuota(deps, { onError: (_err, msg) => errors.push(msg) });
  return { plugin, onChange, statusWrites, errors, stop };
}

/** A change whose objects may not be read. */
const unread = (type: Change['type'], namespace: string): Change => ({
  type, namespace,
  get object(): KubeObject { throw new Error('object read'); },
  get prev(): KubeObject | undefined { throw new Error('prev read'); },
});

/** Past the plugin's coalescing (setImmediate) and the status write it starts. */
const settle = (): Promise<void> => new Promise((r) => setImmediate(() => setImmediate(r)));

describe('ResourceQuota watching the stored objects', () => {
  it('reads no object of a namespace without quotas', async () => {
    const { onChange, statusWrites } = harness(new Map());
    for (const plural of ['pods', 'configmaps', 'resourcequotas']) {
      for (const type of ['ADDED', 'MODIFIED', 'DELETED'] as const) onChange.get(plural)!(unread(type, 'free'));
    }
    await settle();
    expect(statusWrites).toEqual([]);
  });

  it('recomputes a quota when a pod in its namespace changes its usage, not when its usage stays', async () => {
    const quota: KubeObject = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'limited' }, spec: { hard: { 'requests.cpu': '2' } }, status: { hard: { 'requests.cpu': '2' } } };
    const objects = new Map([['limited/resourcequotas', [quota]], ['limited/pods', [pod('p', '500m')]]]);
    const { onChange, statusWrites } = harness(objects);
    await settle();
    statusWrites.length = 0; // the start's recompute of existing quotas
    const modified = (before: string, after: string): Change => ({ type: 'MODIFIED', namespace: 'limited', object: pod('p', after), prev: pod('p', before) });
    onChange.get('pods')!(modified('500m', '500m'));
    await settle();
    expect(statusWrites).toEqual([]);
    onChange.get('pods')!(modified('500m', '1'));
    await settle();
    expect(statusWrites).toEqual(['limited/q']);
  });

  it('starts no recompute once the apiserver stops, and a write the stop cut short is not reported', async () => {
    const quota: KubeObject = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'limited' }, spec: { hard: { 'requests.cpu': '2' } }, status: { hard: { 'requests.cpu': '2' } } };
    const objects = new Map([['limited/resourcequotas', [quota]], ['limited/pods', [pod('p', '500m')]]]);
    const { onChange, statusWrites, errors, stop } = harness(objects);
    await settle();
    statusWrites.length = 0;
    const grow: Change = { type: 'MODIFIED', namespace: 'limited', object: pod('p', '1'), prev: pod('p', '500m') };
    // a recompute under way when the stop comes: its write fails, as the store closes
    onChange.get('pods')!(grow);
    await new Promise(setImmediate);
    expect(statusWrites).toEqual(['limited/q']);
    stop.abort();
    await settle();
    // a change after the stop starts nothing
    onChange.get('pods')!(grow);
    await settle();
    expect(statusWrites).toEqual(['limited/q']);
    expect(errors).toEqual([]);
  });
});
