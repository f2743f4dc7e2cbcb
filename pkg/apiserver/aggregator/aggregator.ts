// The aggregator, in-process as upstream's kube-aggregator sits in front of kube-apiserver: it registers the Local
// APIServices (built-ins at start, CRDs as they come and go), keeps every APIService's Available condition (Local ones always; remote ones by resolving their service and asking the
// extension apiserver for its discovery document, on every change and every 30 s, as upstream's availability
// controllers), merges the remote group-versions into our discovery, and proxies their requests (proxy.ts).
import type { ConnectionOptions } from 'node:tls';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Agent } from 'undici';
import type { APIService, APIServiceCondition } from '../../../api/apiregistration/v1/index.js';
import type { GroupVersion } from '../../../api/types.js';
import { isStatusError } from '../../apimachinery/errors.js';
import { systemContext, type RequestContext } from '../../registry/context.js';
import { create } from '../../registry/generic/create.js';
import { deleteObject } from '../../registry/generic/delete.js';
import type { Registry } from '../../registry/generic/registry.js';
import { update } from '../../registry/generic/update.js';
import type { RegistrySet } from '../../registry/index.js';
import { resourcePrefix } from '../../registry/keys.js';
import { followCache } from '../../storage/cacher/follow.js';
import { rfc3339 } from '../../registry/meta.js';
import type { CustomResourceDefinition } from '../../../api/apiextensions/v1/index.js';
import { AUTOMANAGED_LABEL, builtinApiServices, CRD_GROUP_PRIORITY, crdApiServices } from './local-apiservices.js';
import { proxyRequest } from './proxy.js';
import { serializeDocument, type SerializedDocument } from '../openapi/http.js';
import type { RemoteSwagger } from '../openapi/v2-merge.js';
import { fetchDiscovery, fetchOpenApiV2, fetchOpenApiV3, groupVersionFromDiscovery } from './remote-discovery.js';
import { endpointUrl, resolveService } from './resolve.js';
import { checkAgent, proxyAgent, proxyTlsOptions, type ProxyClientCert } from './transport.js';

export interface AggregatorOptions {
  registries: RegistrySet;
  /** The built-in group-versions: each gets a Local APIService. */
  builtin: GroupVersion[];
  /** The front-proxy client certificate shown to extension apiservers (none: they will not believe our headers). */
  proxyClient?: ProxyClientCert;
  /** How often every remote APIService is checked again (default 30 s, upstream's resync). */
  resyncMs?: number;
  onError(err: unknown, what: string): void;
}

export interface Aggregator {
  /** Creates the Local APIServices that are missing and starts keeping conditions. */
  start(): Promise<void>;
  /** `local` with the aggregated group-versions merged in, groups ordered by priority as upstream lists them. */
  merge(local: GroupVersion[]): GroupVersion[];
  /** The OpenAPI v3 documents of the remote group-versions, by /openapi/v3 path ("apis/<group>/<version>"). */
  openApiV3(): ReadonlyMap<string, SerializedDocument>;
  /** The OpenAPI v2 documents of the remote APIServices, merged into /openapi/v2 as upstream's aggregator does. */
  openApiV2(): readonly RemoteSwagger[];
  /** A fastify onRequest hook, after the chain: proxies requests under /apis/<group>/<version> of a remote APIService. */
  onRequest(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void;
  stop(): void;
}

/** What we know of one APIService with a service. */
interface Remote {
  svc: APIService;
  specKey: string;
  tls: ConnectionOptions;
  agent: Promise<Agent>;
  available: boolean;
  /** Its discovery, once read (kept when a later read fails). */
  gv?: GroupVersion;
  /** Its OpenAPI v3 document of the group-version, when it serves one. */
  openapi?: { text: string; doc: SerializedDocument };
  /** Its OpenAPI v2 document (all it serves), when it has one. */
  openapiV2?: { text: string; doc: RemoteSwagger };
}

type Condition = Omit<APIServiceCondition, 'lastTransitionTime'>;

const LOCAL: Condition = { type: 'Available', status: 'True', reason: 'Local', message: 'Local APIServices are always available' };

/** Someone else created or deleted it first. */
const ignoreGone = (err: unknown): void => {
  if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
};

const aggregatorContext = (): RequestContext => systemContext(undefined, { user: { name: 'system:kube-aggregator', groups: ['system:masters'] } });

export function createAggregator(o: AggregatorOptions): Aggregator {
  const reg: Registry = o.registries.get('apiregistration.k8s.io', 'v1', 'apiservices')!;
  const remotes = new Map<string, Remote>();
  /** The remote APIService serving a URL under /apis/<group>/<version>, if any. */
  const remoteOf = (url: string): Remote | undefined => {
    if (remotes.size === 0 || !url.startsWith('/apis/')) return undefined;
    const [group, version] = url.slice(6).split('?', 1)[0]!.split('/');
    if (!group || !version) return undefined;
    for (const r of remotes.values()) if (r.svc.spec.group === group && r.svc.spec.version === version) return r;
    return undefined;
  };
  // made on the first remote APIService's check: loading undici is no part of every start
  let checker: Promise<Agent> | undefined;
  const unwatch: (() => void)[] = [];
  const queue = new Set<string>();
  let running: Promise<void> | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** Bumped whenever what merge() returns may change. */
  let generation = 0;
  let merged: { local: GroupVersion[]; generation: number; out: GroupVersion[] } | undefined;
  let openapi: { generation: number; docs: Map<string, SerializedDocument> } | undefined;
  let openapiV2: { generation: number; docs: RemoteSwagger[] } | undefined;

  const apiServices = (): APIService[] => reg.deps.cacher.list({ prefix: resourcePrefix(reg.rt) }).items.map((kv) => kv.object as APIService);

  const forget = (name: string): void => {
    const r = remotes.get(name);
    if (!r) return;
    remotes.delete(name);
    void r.agent.then((a) => a.close()).catch(() => {});
    generation++;
  };

  const writeCondition = async (svc: APIService, c: Condition): Promise<void> => {
    const old = svc.status?.conditions?.find((x) => x.type === c.type);
    if (old && old.status === c.status && old.reason === c.reason && old.message === c.message) return;
    await update(reg, aggregatorContext(), {
      name: svc.metadata.name, subresource: 'status',
      build: (cur) => {
        if (!cur) throw new Error('gone');
        const conditions: APIServiceCondition[] = cur.status?.conditions ?? [];
        const prev = conditions.find((x) => x.type === c.type);
        const next = { ...c, lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : rfc3339(new Date()) };
        return { ...cur, status: { ...cur.status, conditions: prev ? conditions.map((x) => (x === prev ? next : x)) : [...conditions, next] } };
      },
    });
  };

  /** Upstream's remote availability check, then (when available) the discovery document through the proxy's client. */
  const check = async (r: Remote): Promise<Condition> => {
    const { group = '', version = '', service } = r.svc.spec;
    const at = resolveService(o.registries, service!);
    if (!at.ok) return { type: 'Available', status: 'False', reason: at.reason, message: at.message };
    try {
      await fetchDiscovery(await (checker ??= checkAgent(o.proxyClient)), endpointUrl(at), group, version);
    } catch (err) {
      return { type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck', message: (err as Error).message };
    }
    try {
      const gv = groupVersionFromDiscovery(group, version, await fetchDiscovery(await r.agent, endpointUrl(at), group, version));
      if (gv && JSON.stringify(gv) !== JSON.stringify(r.gv)) {
        r.gv = gv;
        generation++;
      }
      const openapi = await fetchOpenApiV3(await r.agent, endpointUrl(at), group, version);
      const text = openapi === undefined ? undefined : JSON.stringify(openapi);
      if (text !== r.openapi?.text) {
        r.openapi = text === undefined ? undefined : { text, doc: serializeDocument(openapi) };
        generation++;
      }
      const v2 = await fetchOpenApiV2(await r.agent, endpointUrl(at));
      const v2Text = v2 === undefined ? undefined : JSON.stringify(v2);
      if (v2Text !== r.openapiV2?.text) {
        r.openapiV2 = v2Text === undefined ? undefined : { text: v2Text, doc: v2! };
        generation++;
      }
    } catch (err) {
      o.onError(err, `reading the discovery of APIService ${r.svc.metadata.name}`);
    }
    return { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' };
  };

  const reconcile = async (name: string): Promise<void> => {
    const svc = reg.peek(undefined, name)?.object as APIService | undefined;
    if (!svc || !svc.spec.service) {
      forget(name);
      if (svc) await writeCondition(svc, LOCAL);
      return;
    }
    const specKey = JSON.stringify(svc.spec);
    let r = remotes.get(name);
    if (!r || r.specKey !== specKey) {
      forget(name);
      const tls = proxyTlsOptions(svc, o.proxyClient);
      r = { svc, specKey, tls, agent: proxyAgent(tls), available: false };
      remotes.set(name, r);
      generation++;
    }
    r.svc = svc;
    const c = await check(r);
    if (r.available !== (c.status === 'True')) {
      r.available = c.status === 'True';
      generation++;
    }
    await writeCondition(svc, c);
  };

  const drain = (): Promise<void> => {
    running ??= (async () => {
      while (queue.size && !stopped) {
        const [name] = queue;
        queue.delete(name!);
        try {
          await reconcile(name!);
        } catch (err) {
          if (isStatusError(err) && (err.code === 404 || err.code === 409)) queue.add(name!);
          else o.onError(err, `checking APIService ${name}`);
        }
      }
      running = undefined;
    })();
    return running;
  };
  const enqueue = (name: string): void => {
    queue.add(name);
    void drain();
  };
  const enqueueUsers = (namespace: string | undefined, name: string | undefined): void => {
    for (const [n, r] of remotes) if (r.svc.spec.service?.namespace === namespace && r.svc.spec.service?.name === name) enqueue(n);
  };

  const watch = (target: Registry, onChange: (ev: { prev?: unknown; obj: Record<string, any> }) => void): void => {
    unwatch.push(followCache(target.deps.cacher, resourcePrefix(target.rt), (ev) => onChange({ prev: ev.prev?.object, obj: ev.kv.object })));
  };

  /** Creates the APIServices of served CRD versions and deletes the automanaged ones no CRD serves any more. */
  const crds = o.registries.get('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
  let crdSync = Promise.resolve();
  const syncCrdApiServices = (): void => {
    crdSync = crdSync.then(async () => {
      const wanted = crdApiServices(crds.deps.cacher.list({ prefix: resourcePrefix(crds.rt) }).items.map((kv) => kv.object as CustomResourceDefinition));
      for (const a of apiServices()) {
        if (a.metadata.labels?.[AUTOMANAGED_LABEL] === 'true' && !wanted.has(a.metadata.name)) await deleteObject(reg, aggregatorContext(), a.metadata.name, {}).catch(ignoreGone);
      }
      for (const [name, a] of wanted) if (!reg.peek(undefined, name)) await create(reg, aggregatorContext(), a).catch(ignoreGone);
    }).catch((err: unknown) => o.onError(err, 'registering the APIServices of CRDs'));
  };

  const priorities = (): Map<string, number> => {
    const p = new Map<string, number>();
    for (const a of apiServices()) p.set(a.spec.group ?? '', Math.max(p.get(a.spec.group ?? '') ?? 0, a.spec.groupPriorityMinimum));
    return p;
  };

  return {
    async start() {
      for (const svc of builtinApiServices(o.builtin)) {
        if (reg.peek(undefined, svc.metadata.name)) continue;
        try {
          await create(reg, aggregatorContext(), svc);
        } catch (err) {
          if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
        }
      }
      watch(reg, ({ prev, obj }) => {
        generation++;
        const before = (prev as APIService | undefined)?.spec;
        if (!before || JSON.stringify(before) !== JSON.stringify(obj.spec) || !reg.peek(undefined, obj.metadata.name)) enqueue(obj.metadata.name);
      });
      for (const plural of ['services', 'endpoints']) {
        watch(o.registries.get('', 'v1', plural)!, ({ obj }) => enqueueUsers(obj.metadata?.namespace, obj.metadata?.name));
      }
      watch(crds, syncCrdApiServices);
      syncCrdApiServices();
      for (const a of apiServices()) enqueue(a.metadata.name);
      timer = setInterval(() => { for (const n of remotes.keys()) enqueue(n); }, o.resyncMs ?? 30_000);
      timer.unref();
    },

    merge(local) {
      if (merged?.local === local && merged.generation === generation) return merged.out;
      // every APIService is listed, as upstream's aggregator lists them: one not available with what it last served (or
      // nothing) and its discovery Stale, so that clients and the namespace controller see it failing
      const served = [...remotes.values()].map((r): GroupVersion => {
        if (r.gv && r.available) return r.gv;
        const { group = '', version = '' } = r.svc.spec;
        return { ...(r.gv ?? { group, version, resources: [], definitions: {}, remote: true }), stale: true };
      });
      const taken = new Set(served.map((gv) => `${gv.group}/${gv.version}`));
      const p = priorities();
      const priority = (gv: GroupVersion): number => p.get(gv.group) ?? CRD_GROUP_PRIORITY;
      const out = [...local.filter((gv) => !taken.has(`${gv.group}/${gv.version}`)), ...served]
        .sort((a, b) => priority(b) - priority(a) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
      merged = { local, generation, out };
      return out;
    },

    openApiV3() {
      if (openapi?.generation !== generation) {
        const docs = new Map<string, SerializedDocument>();
        for (const r of remotes.values()) if (r.openapi) docs.set(`apis/${r.svc.spec.group}/${r.svc.spec.version}`, r.openapi.doc);
        openapi = { generation, docs };
      }
      return openapi.docs;
    },

    openApiV2() {
      if (openapiV2?.generation !== generation) {
        // Remotes in APIService name order, so that which document's definition keeps its name is stable.
        const docs = [...remotes.entries()].sort(([a], [b]) => a.localeCompare(b)).flatMap(([, r]) => (r.openapiV2 ? [r.openapiV2.doc] : []));
        openapiV2 = { generation, docs };
      }
      return openapiV2.docs;
    },

    // a callback hook: every request passes it, and only a remote's wait
    onRequest(request, reply, done) {
      const r = remoteOf(request.url);
      if (!r) return done();
      const ref = r.svc.spec.service!;
      // the proxy takes the response over; fastify's route runs only if it did not
      r.agent.then((agent) => proxyRequest(request, reply, { available: r.available, agent, tls: r.tls, resolve: () => resolveService(o.registries, ref) },
        (err) => o.onError(err, `proxying to APIService ${r.svc.metadata.name}`)))
        .then(() => { if (!reply.sent) done(); }, (err: unknown) => done(err as Error));
    },

    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      for (const u of unwatch) u();
      for (const n of [...remotes.keys()]) forget(n);
      void checker?.then((a) => a.close()).catch(() => {});
    },
  };
}
