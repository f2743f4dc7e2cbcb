// The apiserver's side of admission: what plugins may read and do, over the registries (their
// watch caches for reads, the registry verbs for writes), and the chain built from the flags.
import type { Logger } from 'pino';
import { apiVersionOf, type KubeObject, type ResourceType } from '../../api/types.js';
import type { AdmissionDeps } from '../admission/deps.js';
import type { Authorizer } from '../authorization/interface.js';
import type { Admission } from '../admission/interface.js';
import { newAdmission } from '../admission/plugins.js';
import { systemContext } from '../registry/context.js';
import { create } from '../registry/generic/create.js';
import { decodeObject, targetOf } from '../registry/generic/decode.js';
import type { Registry } from '../registry/generic/registry.js';
import { update } from '../registry/generic/update.js';
import type { RegistrySet } from '../registry/index.js';
import { listPrefix, namespaceOfKey, resourcePrefix } from '../registry/keys.js';
import { followCache } from '../storage/cacher/follow.js';
import { cloneJson } from '../apimachinery/json-clone.js';

export function admissionDeps(registries: RegistrySet, stopped: AbortSignal, authorizer?: Authorizer): AdmissionDeps {
  // Looked up on every call, not once: custom resources are served (and stop being served) at run time.
  const lookup = (group: string, plural: string): Registry | undefined => registries.byGroupResource(group, plural);
  const reg = (group: string, plural: string): Registry => {
    const r = lookup(group, plural);
    if (!r) throw new Error(`no resource ${plural}${group ? `.${group}` : ''}`);
    return r;
  };
  return {
    stopped,
    resource: (group, plural): ResourceType | undefined => lookup(group, plural)?.rt,
    equivalents: (rt) => registries.equivalents(rt),
    async convert(obj, from, to) {
      const [a, b] = [from, to].map((rt) => registries.get(rt.group, rt.version, rt.plural));
      if (!a || !b) throw new Error(`no conversion from ${apiVersionOf(from.group, from.version)} ${from.plural} to ${apiVersionOf(to.group, to.version)}`);
      const stored = a.deps.codec ? await a.deps.codec.toStorage(obj) : obj;
      return b.deps.codec ? b.deps.codec.toView(stored) : stored;
    },
    decode(obj, rt) {
      const r = registries.get(rt.group, rt.version, rt.plural);
      return r ? decodeObject(r.deps.decoder, obj, targetOf(r.rt), systemContext(obj.metadata?.namespace)) : obj;
    },
    get: (group, plural, namespace, name) => lookup(group, plural)?.peek(namespace, name)?.object,
    list: (group, plural, namespace) => {
      const r = lookup(group, plural);
      if (!r) return [];
      const prefix = listPrefix(r.rt, namespace);
      // Plugins ask on every request, mostly for kinds nobody made (webhook configurations, policy bindings, quotas):
      // a count is two binary searches and allocates nothing.
      if (r.deps.cacher.count(prefix) === 0) return [];
      return r.deps.cacher.list({ prefix }).items.map((kv) => kv.object);
    },
    async create(group, plural, namespace, obj) {
      const r = reg(group, plural);
      const ctx = systemContext(namespace);
      const res = await create(r, ctx, obj);
      // Later plugins read the cache: wait until it has the new object.
      await r.get(ctx, res.object.metadata!.name!);
    },
    async updateStatus(group, plural, namespace, name, change) {
      const r = reg(group, plural);
      await update(r, systemContext(namespace), {
        name,
        subresource: 'status',
        build: (current: KubeObject | undefined) => {
          const copy = cloneJson(current ?? {});
          const status = change(copy);
          return status === undefined ? copy : { ...copy, status };
        },
      });
    },
    authorize: authorizer && (async (c) => (await authorizer.authorize({
      user: c.user, verb: c.verb, isResourceRequest: true, path: '', namespace: c.namespace, apiGroup: c.apiGroup, apiVersion: '*',
      resource: c.resource, subresource: '', name: c.name,
    })).decision === 'allow'),
    review: authorizer && (async (q) => {
      try {
        const r = await authorizer.authorize({
          user: q.user, verb: q.verb, isResourceRequest: q.path === undefined, path: q.path ?? '', namespace: q.namespace ?? '', apiGroup: q.group ?? '',
          apiVersion: '*', resource: q.resource ?? '', subresource: q.subresource ?? '', name: q.name ?? '',
          fieldSelector: q.fieldSelector, labelSelector: q.labelSelector,
        });
        return { allowed: r.decision === 'allow', reason: r.reason };
      } catch (err) {
        return { allowed: false, reason: '', error: (err as Error).message };
      }
    }),
    watch(group, plural, onChange) {
      const r = reg(group, plural);
      return followCache(r.deps.cacher, resourcePrefix(r.rt), (ev) => onChange({
        type: ev.type,
        namespace: namespaceOfKey(r.rt, ev.key),
        get object() { return ev.kv.object; },
        get prev() { return ev.prev?.object; },
      }));
    },
  };
}

export function startAdmission(registries: RegistrySet, opts: {
  enable: string[]; disable: string[]; configFile?: string; logger: Logger; authorizer?: Authorizer; tolerationSeconds?: { notReady: number; unreachable: number };
  stopped: AbortSignal;
}): Promise<Admission> {
  return newAdmission(admissionDeps(registries, opts.stopped, opts.authorizer), {
    enable: opts.enable,
    disable: opts.disable,
    configFile: opts.configFile,
    tolerationSeconds: opts.tolerationSeconds,
    onError: (err, msg) => opts.logger.warn({ err }, msg),
  });
}
