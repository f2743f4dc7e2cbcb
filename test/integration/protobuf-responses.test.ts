// Protobuf responses (`application/vnd.kubernetes.protobuf`), judged first by the real kubectl: its
// typed-client commands (create <kind>, describe) ask for protobuf, decode our answers with
// upstream's generated Go code, and print them. Then raw HTTPS requests as client-go and
// controller-runtime make them: negotiation, lists, metadata-only lists, Status errors and the
// length-prefixed watch stream, decoded with our own decoder.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { builtinProtoSchemas, decodeMessage, decodeProtobufObject, encodeProtobufObject, readEnvelope } from '../../pkg/apimachinery/protobuf/index.js';
import { ProtoReader } from '../../pkg/apimachinery/protobuf/wire.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { succeeded, type KubectlRun } from '../support/kubectl-run.js';

const PB = 'application/vnd.kubernetes.protobuf';
const CLIENT_GO = `${PB}, application/json`;

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  expect((await s.kubectl('create', 'namespace', 'pb')).code).toBe(0);
});
afterAll(async () => { await s?.close(); });

const ok = (...args: string[]): Promise<KubectlRun> => succeeded(s.kubectl(...args), args);

/** Protobuf has no null: a zero metav1.Time is left out (a Go client reads it back as the null the JSON shows). */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, withoutNulls(x)]));
}

async function raw(path: string, accept: string, method = 'GET'): Promise<{ status: number; type: string; body: Buffer }> {
  const res = await request(s.url + path, { method: method as 'GET', dispatcher: s.agent, headers: { accept } });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: Buffer.from(await res.body.arrayBuffer()) };
}

/** Field number -> raw values of one message (varints as numbers, length-delimited as Buffers). */
function fields(b: Uint8Array): Map<number, Array<number | Buffer>> {
  const r = new ProtoReader(b);
  const out = new Map<number, Array<number | Buffer>>();
  while (!r.done) {
    const { field, wire } = r.key();
    const v = wire === 0 ? r.varint() : Buffer.from(r.bytes());
    out.set(field, [...(out.get(field) ?? []), v]);
  }
  return out;
}

describe('kubectl decodes our protobuf answers', () => {
  it('create <kind> -o json prints, from our protobuf answer, what get -o json reads as JSON', async () => {
    // [the create command, the object it makes]
    const cases: Array<[string[], string]> = [
      [['deployment', 'web', '--image=nginx', '--replicas=2', '--port=8080'], 'deployment/web'],
      [['configmap', 'cfg', '--from-literal=a=b', '--from-literal=empty='], 'configmap/cfg'],
      [['secret', 'generic', 'sec', '--from-literal=bin=ÿé中'], 'secret/sec'],
      [['service', 'nodeport', 'svc', '--tcp=80:http'], 'service/svc'],
      [['cronjob', 'cj', '--image=busybox', '--schedule=*/5 * * * *'], 'cronjob/cj'],
      [['role', 'r', '--verb=get', '--resource=pods'], 'role/r'],
      [['pdb', 'pdb', '--selector=app=web', '--min-available=50%'], 'pdb/pdb'],
      [['priorityclass', 'high', '--value=1000', '--preemption-policy=Never'], 'priorityclass/high'],
    ];
    for (const [args, object] of cases) {
      const created = await ok('create', ...args, '-n', 'pb', '-o', 'json', '-v=8');
      expect(created.stderr, object).toMatch(/Content-Type: application\/vnd\.kubernetes\.protobuf/);
      const stored = JSON.parse((await ok('get', object, '-n', 'pb', '-o', 'json')).stdout);
      // kubectl prints the object it decoded into Go's types: with every zero value Go writes, as we store it
      expect(JSON.parse(created.stdout), object).toEqual(stored);
    }
  });

  it('describe (typed gets and lists in protobuf) shows the objects', async () => {
    const d = await ok('describe', 'deployment', 'web', '-n', 'pb', '-v=8');
    expect(d.stdout).toMatch(/Name:\s+web/);
    expect(d.stdout).toMatch(/Replicas:\s+2 desired/);
    expect(d.stderr).toMatch(/Content-Type: application\/vnd\.kubernetes\.protobuf/);
    await ok('create', 'quota', 'q', '-n', 'pb', '--hard=cpu=1,memory=1G,pods=2');
    const q = await ok('describe', 'quota', 'q', '-n', 'pb');
    expect(q.stdout).toMatch(/memory\s+0\s+1G/);
  });

  it('auth can-i and create token read review and token answers in protobuf', async () => {
    expect((await ok('auth', 'can-i', 'get', 'pods', '-n', 'pb')).stdout.trim()).toBe('yes');
    await ok('create', 'serviceaccount', 'sa', '-n', 'pb');
    const token = (await ok('create', 'token', 'sa', '-n', 'pb', '--duration=10m')).stdout.trim();
    expect(token.split('.')).toHaveLength(3);
  });

  it('events --watch lists and watches core/v1 Events in protobuf (client-go\'s watch decoder reads our frames)', async () => {
    const event = (name: string, message: string): Record<string, unknown> => ({
      apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: 'pb' }, type: 'Normal', reason: 'Tested', message,
      involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cfg', namespace: 'pb' }, firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), count: 1,
    });
    expect((await s.api('POST', '/api/v1/namespaces/pb/events', event('before', 'listed-in-protobuf'))).status).toBe(201);
    const child = spawn('kubectl', ['--kubeconfig', s.kubeconfig, 'events', '-n', 'pb', '--watch', '-v=8']);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    try {
      const deadline = Date.now() + 30_000;
      const waitFor = async (text: string): Promise<void> => {
        while (!out.includes(text)) {
          if (Date.now() > deadline) throw new Error(`kubectl events never printed ${text}: ${out}\n${err.slice(-2000)}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      await waitFor('listed-in-protobuf');
      expect((await s.api('POST', '/api/v1/namespaces/pb/events', event('after', 'watched-in-protobuf'))).status).toBe(201);
      await waitFor('watched-in-protobuf');
      expect(err).toMatch(/Content-Type: application\/vnd\.kubernetes\.protobuf;stream=watch/);
    } finally {
      child.kill();
    }
  });

  it('a typed get of a missing object reports upstream\'s NotFound from our protobuf Status', async () => {
    const r = await s.kubectl('create', 'token', 'nobody', '-n', 'pb');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/serviceaccounts "nobody" not found/);
  });
});

describe('raw protobuf requests', () => {
  it('gets one object in protobuf when asked as client-go asks, and in JSON otherwise', async () => {
    const json = await s.api('GET', '/apis/apps/v1/namespaces/pb/deployments/web');
    const pb = await raw('/apis/apps/v1/namespaces/pb/deployments/web', CLIENT_GO);
    expect(pb.status).toBe(200);
    expect(pb.type).toBe(PB);
    expect(decodeProtobufObject(pb.body)).toEqual(withoutNulls(json.body));
    expect((await raw('/apis/apps/v1/namespaces/pb/deployments/web', `${PB};q=0.5, application/json`)).type).toBe('application/json');
  });

  it('an object read in protobuf and written back unchanged in protobuf is a no-op (no new resourceVersion or generation)', async () => {
    const daemonSet = {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'busybox:1.37' }] } },
      },
    };
    const cronJob = {
      apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'tick' },
      spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 't', image: 'busybox:1.37' }] } } } } },
    };
    for (const [path, obj] of [['/apis/apps/v1/namespaces/pb/daemonsets', daemonSet], ['/apis/batch/v1/namespaces/pb/cronjobs', cronJob]] as const) {
      expect((await s.api('POST', path, obj)).status).toBe(201);
      const url = `${path}/${obj.metadata.name}`;
      const read = await raw(url, PB);
      const res = await request(s.url + url, { method: 'PUT', dispatcher: s.agent, headers: { accept: 'application/json', 'content-type': PB }, body: read.body });
      const written = (await res.body.json()) as { metadata: { resourceVersion: string; generation: number } };
      const before = decodeProtobufObject(read.body) as { metadata: { resourceVersion: string; generation: number } };
      expect([res.statusCode, written.metadata.resourceVersion, written.metadata.generation]).toEqual([200, before.metadata.resourceVersion, 1]);
    }
  });

  it('lists in protobuf: XxxList with ListMeta and items, paging included', async () => {
    for (const name of ['page-a', 'page-b']) expect((await s.api('POST', '/api/v1/namespaces/pb/configmaps', { metadata: { name } })).status).toBe(201);
    const json = await s.api('GET', '/api/v1/namespaces/pb/configmaps');
    const pb = await raw('/api/v1/namespaces/pb/configmaps', CLIENT_GO);
    expect(pb.type).toBe(PB);
    const list = decodeProtobufObject(pb.body) as { kind: string; metadata: { resourceVersion: string }; items: unknown[] };
    expect(list.kind).toBe('ConfigMapList');
    expect(list.metadata.resourceVersion).toBe(json.body.metadata.resourceVersion);
    // Items carry no apiVersion/kind in protobuf.
    expect(list.items).toEqual(json.body.items.map(({ apiVersion: _a, kind: _k, ...rest }: Record<string, unknown>) => rest));
    const page = decodeProtobufObject((await raw('/api/v1/namespaces/pb/configmaps?limit=1', CLIENT_GO)).body) as { metadata: Record<string, unknown>; items: unknown[] };
    expect(page.items).toHaveLength(1);
    expect(page.metadata.continue).toEqual(expect.any(String));
    expect(page.metadata.remainingItemCount).toBeGreaterThan(0);
  });

  it('serves metadata-only lists in protobuf as client-go\'s metadata client asks for them', async () => {
    const as = 'as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
    const pb = await raw('/api/v1/namespaces/pb/configmaps', `${PB};${as},application/json;${as},application/json`);
    expect(pb.type).toBe(PB);
    const env = readEnvelope(pb.body);
    expect([env.apiVersion, env.kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadataList']);
    const items = (fields(env.raw).get(2) ?? []).map((b) => decodeMessage(fields(b as Buffer).get(1)![0] as Buffer, 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', builtinProtoSchemas));
    expect(items.map((m) => m.name)).toContain('cfg');
  });

  it('answers subresources in protobuf: scale, binding and eviction', async () => {
    const scale = await raw('/apis/apps/v1/namespaces/pb/deployments/web/scale', CLIENT_GO);
    expect(scale.type).toBe(PB);
    expect(decodeProtobufObject(scale.body)).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 2 }, status: { selector: 'app=web' } });
    // Out of namespace pb, whose quota wants limits on every pod.
    expect((await s.api('POST', '/api/v1/namespaces', { metadata: { name: 'pods' } })).status).toBe(201);
    expect((await s.api('POST', '/api/v1/namespaces/pods/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } })).status).toBe(201);
    const post = async (path: string, obj: Record<string, unknown>): Promise<{ status: number; type: string; body: unknown }> => {
      const res = await request(s.url + path, { method: 'POST', dispatcher: s.agent, body: encodeProtobufObject(obj), headers: { 'content-type': PB, accept: CLIENT_GO } });
      return { status: res.statusCode, type: String(res.headers['content-type']), body: decodeProtobufObject(Buffer.from(await res.body.arrayBuffer())) };
    };
    const bound = await post('/api/v1/namespaces/pods/pods/p/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } });
    expect(bound).toMatchObject({ status: 201, type: PB, body: { kind: 'Status', status: 'Success' } });
    const evicted = await post('/api/v1/namespaces/pods/pods/p/eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p', namespace: 'pods' } });
    expect(evicted).toMatchObject({ status: 201, type: PB, body: { kind: 'Status', status: 'Success' } });
  });

  it('answers errors with a protobuf Status, and 406 to protobuf alone where there is none', async () => {
    const missing = await raw('/api/v1/namespaces/pb/configmaps/nope', CLIENT_GO);
    expect(missing.status).toBe(404);
    expect(missing.type).toBe(PB);
    expect(decodeProtobufObject(missing.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, details: { name: 'nope', kind: 'configmaps' } });
    // Table has no protobuf form.
    expect((await raw('/api/v1/namespaces/pb/configmaps', `${PB};as=Table;g=meta.k8s.io;v=v1`)).status).toBe(406);
  });
});

describe('custom resources', () => {
  it('serves CustomResourceDefinitions in protobuf, and custom resources never (JSON, or 406 to protobuf alone)', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{
          name: 'v1', served: true, storage: true, subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 1 }, tags: { type: 'array', items: { type: 'string' } }, sealed: { type: 'object', additionalProperties: false } } } } } },
        }],
      },
    };
    expect((await s.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com';
    const deadline = Date.now() + 20_000;
    while (!(await s.api('GET', path)).body.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True')) {
      if (Date.now() > deadline) throw new Error('the CRD never became Established');
      await new Promise((r) => setTimeout(r, 50));
    }
    const pb = await raw(path, CLIENT_GO);
    expect(pb.type).toBe(PB);
    expect(decodeProtobufObject(pb.body)).toEqual((await s.api('GET', path)).body);

    expect((await s.api('POST', '/apis/example.com/v1/namespaces/pb/widgets', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 2 } })).status).toBe(201);
    expect((await raw('/apis/example.com/v1/namespaces/pb/widgets/w', CLIENT_GO)).type).toBe('application/json');
    const refused = await raw('/apis/example.com/v1/namespaces/pb/widgets', PB);
    expect(refused.status).toBe(406);
    expect(refused.type).toBe('application/json');
    expect(JSON.parse(refused.body.toString())).toMatchObject({ reason: 'NotAcceptable', message: 'only the following media types are accepted: application/json, application/yaml' });
    // APIServices (kube-aggregator's kind) have protobuf too.
    const services = await s.api('GET', '/apis/apiregistration.k8s.io/v1/apiservices');
    expect(services.body.items.length).toBeGreaterThan(0);
    const pbServices = decodeProtobufObject((await raw(`/apis/apiregistration.k8s.io/v1/apiservices?resourceVersion=${services.body.metadata.resourceVersion}&resourceVersionMatch=Exact`, CLIENT_GO)).body) as { items: unknown[] };
    // (The core group's spec.group "" is omitempty upstream: Go's decoder leaves it out.)
    const expected = services.body.items.map(({ apiVersion: _a, kind: _k, ...rest }: Record<string, unknown>) => JSON.parse(JSON.stringify(rest).replace('"group":"",', '')));
    expect(pbServices.items).toEqual(expected);
    // Their metadata-only lists are JSON too (controller-runtime's metadata informers ask protobuf first).
    const as = 'as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
    const meta = await raw('/apis/example.com/v1/namespaces/pb/widgets', `${PB};${as},application/json;${as},application/json`);
    expect(meta.type).toBe('application/json');
    expect(JSON.parse(meta.body.toString())).toMatchObject({ kind: 'PartialObjectMetadataList', items: [{ metadata: { name: 'w' } }] });
  });
});

describe('protobuf watch', () => {
  /** Reads length-prefixed WatchEvents from a watch until `until` says stop; returns them decoded. */
  async function watch(path: string, accept: string, until: (events: Array<{ type: string; object: any }>) => boolean, onOpen?: () => Promise<void>): Promise<{ type: string; events: Array<{ type: string; object: any }> }> {
    const ac = new AbortController();
    const res = await request(s.url + path, { dispatcher: s.agent, headers: { accept }, signal: ac.signal });
    const events: Array<{ type: string; object: any }> = [];
    let pending = Buffer.alloc(0);
    const deadline = setTimeout(() => ac.abort(), 15_000);
    await onOpen?.();
    try {
      for await (const chunk of res.body) {
        pending = Buffer.concat([pending, chunk as Buffer]);
        while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
          const event = fields(pending.subarray(4, 4 + pending.readUInt32BE(0)));
          pending = pending.subarray(4 + pending.readUInt32BE(0));
          const object = fields(event.get(2)![0] as Buffer).get(1)![0] as Buffer;
          events.push({ type: (event.get(1)![0] as Buffer).toString(), object: decodeProtobufObject(object) });
        }
        if (until(events)) break;
      }
    } finally {
      clearTimeout(deadline);
      ac.abort();
    }
    return { type: String(res.headers['content-type']), events };
  }

  it('streams initial events, the initial-events-end bookmark and live changes in length-prefixed frames', async () => {
    const w = await watch(
      '/api/v1/namespaces/pb/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      `${PB};stream=watch`,
      (events) => events.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'live'),
      async () => { await ok('create', 'configmap', 'live', '-n', 'pb', '--from-literal=x=1'); },
    );
    expect(w.type).toBe(`${PB};stream=watch`);
    const bookmark = w.events.find((e) => e.type === 'BOOKMARK');
    expect(bookmark?.object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } });
    expect(w.events.findIndex((e) => e.type === 'BOOKMARK')).toBeLessThan(w.events.findIndex((e) => e.object.metadata.name === 'live'));
    expect(w.events.find((e) => e.object.metadata?.name === 'cfg')?.object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b', empty: '' } });
  });

  it('sends a bookmark as the zero object of the kind, as upstream\'s cacher makes it', async () => {
    const w = await watch('/apis/apps/v1/namespaces/pb/deployments?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      `${PB};stream=watch`, (events) => events.some((e) => e.type === 'BOOKMARK'));
    const bookmark = w.events.find((e) => e.type === 'BOOKMARK')!.object;
    expect(bookmark).toEqual({
      apiVersion: 'apps/v1', kind: 'Deployment',
      metadata: { resourceVersion: expect.stringMatching(/^\d+$/), annotations: { 'k8s.io/initial-events-end': 'true' } },
      spec: { replicas: 0, template: { metadata: {}, spec: {} }, strategy: {} }, status: {},
    });
  });

  it('reports a resourceVersion a watch-list cannot reach as an ERROR event carrying a protobuf Status', async () => {
    const w = await watch('/api/v1/namespaces/pb/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=999999999', CLIENT_GO, (events) => events.length > 0);
    expect(w.type).toBe(`${PB};stream=watch`);
    expect(w.events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 504, reason: 'Timeout' } });
  });

  it('watches metadata only in protobuf', async () => {
    const as = 'as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
    const ac = new AbortController();
    const res = await request(`${s.url}/api/v1/namespaces/pb/configmaps?watch=1&fieldSelector=metadata.name%3Dcfg`, { dispatcher: s.agent, headers: { accept: `${PB};${as},application/json;${as},application/json` }, signal: ac.signal });
    expect(res.headers['content-type']).toBe(`${PB};stream=watch`);
    let pending = Buffer.alloc(0);
    for await (const chunk of res.body) {
      pending = Buffer.concat([pending, chunk as Buffer]);
      if (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) break;
    }
    ac.abort();
    const event = fields(pending.subarray(4, 4 + pending.readUInt32BE(0)));
    const env = readEnvelope(fields(event.get(2)![0] as Buffer).get(1)![0] as Buffer);
    expect([env.apiVersion, env.kind]).toEqual(['meta.k8s.io/v1', 'PartialObjectMetadata']);
    expect(decodeMessage(fields(env.raw).get(1)![0] as Buffer, 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', builtinProtoSchemas)).toMatchObject({ name: 'cfg' });
  });
});
