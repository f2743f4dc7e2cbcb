// The EndpointSlice controller over an informer that lags behind its own writes (upstream's endpointSliceTracker):
// a sync that would write over a stale copy of a slice waits, without a conflict or a FailedToUpdateEndpointSlices
// event; a slice changed or deleted by someone else is put back. A write refused is told in that event in upstream's
// words. The apiserver is an in-memory fake here (uids,
// resourceVersions, generations and conflicts as the real one's), whose watch events reach the informer only when
// the test delivers them.
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { FakeClock, Resources, SharedIndexInformer, StatusError, type ResourceRef } from '../../client/index.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { startEndpointSliceController } from './endpointslice.js';

const clone = <T>(o: T): T => structuredClone(o);
const informer = (items: KubeObject[] = []): SharedIndexInformer => {
  const inf = new SharedIndexInformer({ list: () => Promise.reject(new Error('not listed')), watch: () => Promise.reject(new Error('not watched')) });
  inf.replace(items, '1');
  return inf;
};

/** EndpointSlices as the apiserver keeps them; its watch events wait in `pending` until deliver(). */
class SliceServer {
  readonly stored = new Map<string, KubeObject>();
  private pending: (() => void)[] = [];
  private rv = 100;
  private seq = 0;
  conflicts = 0;
  /** Writes refused with the given error, by verb. */
  refuse: Partial<Record<'create' | 'update' | 'delete', Error>> = {};

  constructor(readonly cache: SharedIndexInformer) {}

  readonly client = {
    create: async (o: KubeObject): Promise<KubeObject> => {
      if (this.refuse.create) throw this.refuse.create;
      const name = o.metadata!.name ?? `${o.metadata!.generateName}${(this.seq++).toString(36).padStart(5, 'x')}`;
      return this.store({ ...clone(o), metadata: { ...clone(o.metadata), name, uid: `uid-${name}`, generation: 1 } }, 'add');
    },
    update: async (o: KubeObject): Promise<KubeObject> => {
      if (this.refuse.update) throw this.refuse.update;
      const name = o.metadata!.name!;
      const cur = this.stored.get(name);
      if (!cur) throw new StatusError(404, 'NotFound', `endpointslices.discovery.k8s.io "${name}" not found`);
      if (o.metadata!.resourceVersion !== cur.metadata!.resourceVersion) {
        this.conflicts++;
        throw new StatusError(409, 'Conflict', `Operation cannot be fulfilled on endpointslices.discovery.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`);
      }
      // the generation rises with any change but of the metadata, and with the labels
      const { metadata: m, ...rest } = clone(o);
      const { metadata: cm, ...curRest } = cur;
      const changed = JSON.stringify(rest) !== JSON.stringify(curRest) || JSON.stringify(m!.labels) !== JSON.stringify(cm!.labels);
      return this.store({ ...rest, metadata: { ...m, uid: cm!.uid, generation: cm!.generation! + (changed ? 1 : 0) } }, 'update');
    },
    delete: async (name: string): Promise<KubeObject> => {
      if (this.refuse.delete) throw this.refuse.delete;
      const cur = this.stored.get(name);
      if (!cur) throw new StatusError(404, 'NotFound', `endpointslices.discovery.k8s.io "${name}" not found`);
      this.stored.delete(name);
      this.pending.push(() => this.cache.delete(clone(cur)));
      return cur;
    },
  };

  private store(o: KubeObject, event: 'add' | 'update'): KubeObject {
    o.metadata!.resourceVersion = String(++this.rv);
    this.stored.set(o.metadata!.name!, o);
    const copy = clone(o);
    this.pending.push(() => this.cache[event](copy));
    return clone(o);
  }

  /** The watch events so far reach the informer. */
  deliver(): void {
    const events = this.pending;
    this.pending = [];
    for (const e of events) e();
  }

  /** The addresses of the service's slices as stored. */
  addresses(): string[] {
    return [...this.stored.values()].flatMap((s) => ((s.endpoints ?? []) as { addresses: string[] }[]).map((e) => e.addresses[0]!)).sort();
  }
}

const pod = (name: string, ip: string, nodeName = 'n1'): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'web' } },
  spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] },
  status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }] },
});

const stops: AbortController[] = [];
afterEach(() => { for (const s of stops.splice(0)) s.abort(); });

/** The controller over a service `websvc` selecting app=web, with pods `pods` on node n1, and no slices yet. */
function start(pods: KubeObject[]) {
  const clock = new FakeClock(Date.parse('2025-01-01T00:00:00Z'));
  const services = informer([{
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'websvc', namespace: 'default', uid: 'uid-websvc', creationTimestamp: '2025-01-01T00:00:00Z' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80 }], clusterIP: '10.96.0.10' },
  }]);
  const podInformer = informer(pods);
  const nodes = informer([{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'z1' } } }]);
  const slices = informer();
  const server = new SliceServer(slices);
  const byResource: Record<string, SharedIndexInformer> = { services, pods: podInformer, nodes, endpointslices: slices };
  const events: string[] = [];
  const stop = new AbortController();
  stops.push(stop);
  const ctx = {
    client: { resource: (ref: ResourceRef) => { expect(ref).toEqual(Resources.endpointSlices); return server.client; } },
    informers: {
      informerFor: (ref: ResourceRef) => byResource[ref.resource]!,
      pods: () => podInformer,
      nodes: () => nodes,
      start: () => {},
      waitForCacheSync: async () => true,
    },
    recorder: { event: (_o: KubeObject, type: string, reason: string, message: string) => events.push(`${type} ${reason} ${message}`) },
    signal: stop.signal,
    workers: 1,
    logger: pino({ level: 'silent' }),
    clock,
  } as unknown as ClusterControllerContext;
  void startEndpointSliceController(ctx);
  return { clock, pods: podInformer, server, events };
}

/** Lets the controller's worker finish what it was handed: the fakes answer at once, so one macrotask turn drains it. */
const drained = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Polls `check` until it holds, moving the fake clock on by `stepMs` each time (retries and delayed syncs fall due). */
async function until(clock: FakeClock, check: () => boolean, what: string, stepMs = 0): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await drained();
    if (check()) return;
    await clock.advance(stepMs);
  }
  throw new Error(`never: ${what}`);
}

/** The controller once its slice for the pod web-0 is written and seen by the informer. */
async function started(): Promise<ReturnType<typeof start>> {
  const f = start([pod('web-0', '10.0.0.10')]);
  await until(f.clock, () => f.server.addresses().join() === '10.0.0.10', 'the first slice');
  f.server.deliver();
  return f;
}

describe('the EndpointSlice controller with an informer lagging behind its writes', () => {
  it('rolls a Deployment five times without a conflict or a FailedToUpdateEndpointSlices event (upstream StaleSlices)', async () => {
    const f = await started();
    for (let i = 1; i <= 5; i++) {
      // the new pod comes up: its slice is updated, and the watch event is slow to come
      f.pods.add(pod(`web-${i}`, `10.0.0.1${i}`));
      await until(f.clock, () => f.server.addresses().length === 2, `web-${i} published`);
      // the old pod goes while the cache still holds the slice as it was: the sync waits for it
      f.pods.delete(pod(`web-${i - 1}`, `10.0.0.1${i - 1}`));
      await drained();
      f.server.deliver();
      // the retry (after the 1 s backoff) writes over the slice as cached now
      await until(f.clock, () => f.server.addresses().join() === `10.0.0.1${i}`, `web-${i - 1} gone`, 500);
      f.server.deliver();
    }
    expect(f.server.stored.size).toBe(1);
    expect(f.server.conflicts).toBe(0);
    expect(f.events.filter((e) => e.includes('FailedToUpdateEndpointSlices'))).toEqual([]);
    // its own writes seen by the informer bring no further writes
    const [slice] = f.server.stored.values();
    await f.clock.advance(5_000);
    await drained();
    expect(f.server.stored.values().next().value?.metadata?.resourceVersion).toBe(slice!.metadata!.resourceVersion);
  });

  it('puts back a slice someone else changed or deleted', async () => {
    const f = await started();
    // someone else empties the slice: a newer generation than the controller wrote, synced a second later
    const [slice] = f.server.stored.values();
    await f.server.client.update({ ...slice!, endpoints: [] });
    f.server.deliver();
    await until(f.clock, () => f.server.addresses().join() === '10.0.0.10', 'the endpoint put back', 500);
    f.server.deliver();
    // and deletes it: the controller did not expect that, and creates it again
    await f.server.client.delete(slice!.metadata!.name!);
    f.server.deliver();
    await until(f.clock, () => f.server.addresses().join() === '10.0.0.10', 'the slice created again', 500);
    expect(f.server.stored.values().next().value?.metadata?.name).not.toBe(slice!.metadata!.name);
  });

  it('retries a genuine conflict (someone else wrote the slice before the informer showed it) until the slice is right', async () => {
    const f = await started();
    const [slice] = f.server.stored.values();
    await f.server.client.update({ ...slice!, endpoints: [] });
    // a pod change syncs the service before the informer has the other writer's change: the update is refused
    f.pods.add(pod('web-1', '10.0.0.11'));
    await until(f.clock, () => f.server.conflicts === 1, 'the conflict');
    const name = slice!.metadata!.name!;
    expect(f.events.filter((e) => e.includes('FailedToUpdateEndpointSlices'))).toEqual([
      `Warning FailedToUpdateEndpointSlices Error updating Endpoint Slices for Service default/websvc: failed to update ${name} EndpointSlice for Service default/websvc: `
      + `Operation cannot be fulfilled on endpointslices.discovery.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    ]);
    f.server.deliver();
    await until(f.clock, () => f.server.addresses().join() === '10.0.0.10,10.0.0.11', 'both pods published', 500);
  });
});

describe('the EndpointSlice controller\'s FailedToUpdateEndpointSlices event (upstream\'s syncService over the reconciler\'s finalize)', () => {
  const failures = (f: ReturnType<typeof start>): string[] => f.events.filter((e) => e.includes('FailedToUpdateEndpointSlices'));
  const forbidden = (verb: string) => new StatusError(403, 'Forbidden', `endpointslices.discovery.k8s.io is forbidden: User "x" cannot ${verb} resource "endpointslices"`);
  const PREFIX = 'Warning FailedToUpdateEndpointSlices Error updating Endpoint Slices for Service default/websvc: ';

  it('names a refused create', async () => {
    const f = start([pod('web-0', '10.0.0.10')]);
    f.server.refuse.create = forbidden('create');
    await until(f.clock, () => failures(f).length === 1, 'the event');
    expect(failures(f)).toEqual([`${PREFIX}failed to create EndpointSlice for Service default/websvc: ${forbidden('create').message}`]);
  });

  it('names a refused delete, with the slice', async () => {
    const f = await started();
    // a slice of the service's no longer wanted, left by an earlier sync: the controller deletes it
    const [slice] = f.server.stored.values();
    const extra = await f.server.client.create({ ...slice!, metadata: { ...slice!.metadata, name: 'websvc-extra' }, ports: [{ name: 'old', port: 9, protocol: 'TCP' }] });
    f.server.refuse.delete = forbidden('delete');
    f.server.deliver();
    await until(f.clock, () => failures(f).length === 1, 'the event', 500);
    expect(failures(f)).toEqual([`${PREFIX}failed to delete ${extra.metadata!.name} EndpointSlice for Service default/websvc: ${forbidden('delete').message}`]);
  });

  it('aggregates the pods skipped for their node with a failed write, the pods first', async () => {
    const f = start([pod('web-0', '10.0.0.10'), pod('web-9', '10.0.0.19', 'n9')]);
    f.server.refuse.create = forbidden('create');
    await until(f.clock, () => failures(f).length === 1, 'the event');
    expect(failures(f)).toEqual([
      `${PREFIX}[skipping Pod web-9 for Service default/websvc: Node n9 Not Found, failed to create EndpointSlice for Service default/websvc: ${forbidden('create').message}]`,
    ]);
  });
});
