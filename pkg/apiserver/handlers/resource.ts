// The resource endpoints: one handler per verb, each a few lines over the registry. Which registry
// and verb come from RequestInfo, worked out by the chain before authorization.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, isStatusError, methodNotAllowed, noRoute } from '../../apimachinery/errors.js';
import type { DeleteOptions, ListOptions } from '../../registry/context.js';
import { create } from '../../registry/generic/create.js';
import { deleteObject, validateDeleteOptions } from '../../registry/generic/delete.js';
import type { Registry } from '../../registry/generic/registry.js';
import { putRequest, update } from '../../registry/generic/update.js';
import { patchBuilder } from '../../registry/generic/patch.js';
import { decodeAs } from '../../registry/generic/decode.js';
import { recordWarning, requestContext } from '../context.js';
import { decodeBody, decodeObjectBody, patchTypeOf } from '../negotiation.js';
import { sendList, sendObject, successStatus, type Responder } from '../respond.js';
import type { RequestInfo } from '../request-info.js';
import { int64Param, isTrue, queryValues } from '../request-info.js';
import { serveWatch } from './watch.js';
import { waitForInitialized } from '../../registry/initializers/wait.js';
import { isCustomResource, subresourceHandler } from './subresources.js';
import { bindLegacy, isLegacyBindings } from './binding.js';

export interface ResourceLookup {
  registry(group: string, version: string, resource: string): Registry | undefined;
  /** Whether a path upstream routes nowhere is its REST router's 404 Status there, not the plain-text one (restful-paths.ts). */
  underRestfulRoot(path: string): boolean;
}

type Query = Record<string, string | undefined>;

const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * A write's work (decoding, admission, validation: most of its CPU) waits for the I/O already pending, instead of
 * running inside its socket's read callback: a store batch made durable meanwhile is then answered before the
 * requests that arrived with it are worked through, and the group commit's next batch starts sooner. Under 64
 * concurrent writers that was a tenth more creates a second (the fsync's completion had waited ~1.5 ms behind them).
 */
const afterPendingIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function handleResource(lookup: ResourceLookup, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const info = request.info;
  const reg = lookup.registry(info.apiGroup, info.apiVersion, info.resource);
  // Built-in groups have a REST router of their own; custom resources' paths go to upstream's crdHandler, which
  // passes what it does not serve on to the not-found handler.
  if (!reg) throw noRoute(lookup.underRestfulRoot(info.path));
  if (!reg.rt.namespaced && info.namespaceInPath) throw noRoute(!isCustomResource(reg));
  if (info.watchPath) checkWatchPath(reg, info, request.method);
  // a built-in group's REST router declares HEAD routes for proxies alone; a custom resource's crdHandler serves
  // it as a GET
  if (request.method === 'HEAD' && !isCustomResource(reg) && info.subresource !== 'proxy') throw methodNotAllowed('the server does not allow this method on the requested resource');
  if (WRITES.has(info.verb)) await afterPendingIo();
  if (info.subresource) return subresourceHandler(reg, request, reply);
  // the router's refusals come before anything of the request is read
  checkVerb(reg, info);
  // a deprecated version's warning comes first, before the options are read (upstream adds it ahead of the handler)
  if (reg.rt.warning) recordWarning(request, reg.rt.warning);
  const ctx = requestContext(request, info);
  const r: Responder = { rt: reg.rt, request, reply, warnings: ctx.warnings, now: ctx.now };
  const q = request.query as Query;

  switch (info.verb) {
    case 'get': {
      refuseExport(q.export);
      const kv = await reg.get(ctx, info.name, q.resourceVersion);
      return sendObject(r, kv);
    }
    case 'list': {
      int64Param(q.timeoutSeconds); // ListOptions carries it: a list has no use for it, but it must parse
      const list = await reg.list(ctx, listOptions(q));
      return sendList(r, list.items, { resourceVersion: list.resourceVersion, continue: list.continue, remainingItemCount: list.remainingItemCount });
    }
    case 'watch':
      return serveWatch(reg, ctx, request, reply, { ...listOptions(q), allowWatchBookmarks: isTrue(q.allowWatchBookmarks) }, info.name, int64Param(q.timeoutSeconds));
    case 'create': {
      reg.strategy.refuseCreate?.(reg.gr);
      const body = decodeObjectBody(request.body as Buffer, request.headers['content-type'], ctx, reg.rt.kind);
      // core/v1 bindings store nothing: they bind the pod they name
      if (isLegacyBindings(reg)) return sendObject(r, { object: await bindLegacy(reg, ctx, body) }, 201);
      const res = await create(reg, ctx, body);
      const initialized = reg.deps.initializers && !ctx.dryRun && !isTrue(q.includeUninitialized) ? await waitForInitialized(reg, res, q.timeout) : res;
      return sendObject(r, initialized, 201);
    }
    case 'update': {
      const body = decodeObjectBody(request.body as Buffer, request.headers['content-type'], ctx, reg.rt.kind);
      const res = await update(reg, ctx, putRequest(reg, ctx, info.name, body, { createIfMissing: reg.strategy.allowCreateOnUpdate }));
      return sendObject(r, res, res.created ? 201 : 200);
    }
    case 'patch': {
      const type = patchTypeOf(request.headers['content-type'], reg.strategy.strategicMergePatch !== false);
      const patch = decodeBody(request.body as Buffer, request.headers['content-type'], ctx, true);
      const res = await update(reg, ctx, patchBuilder(reg, ctx, info.name, type, patch, isTrue(q.force)));
      return sendObject(r, res, res.created ? 201 : 200);
    }
    case 'delete': {
      const opts = deleteOptions(reg, request, q);
      warnOfDefaultOrphaning(reg, opts, ctx.warnings);
      if (opts.dryRun?.includes('All')) ctx.dryRun = true;
      reg.strategy.refuseDelete?.(info.name);
      const res = await deleteObject(reg, ctx, info.name, opts);
      const body: KubeObject = res.deleted && !reg.strategy.returnDeletedObject ? successStatus(reg.rt, res.object) : res.object;
      // upstream's DeleteResource: 202 for an object not deleted at once whose client asked orphanDependents=false
      return sendObject(r, body === res.object ? res : { object: body }, !res.deleted && opts.orphanDependents === false ? 202 : 200);
    }
    case 'deletecollection': {
      const opts = deleteOptions(reg, request, q);
      warnOfDefaultOrphaning(reg, opts, ctx.warnings);
      if (opts.dryRun?.includes('All')) ctx.dryRun = true;
      // Uninitialized objects go too (upstream's namespace deleter asks for them).
      const list = await reg.list(ctx, { ...listOptions(q), includeUninitialized: true });
      const deleted: KubeObject[] = [];
      for (const kv of list.items) {
        const c = { ...ctx, namespace: kv.object.metadata?.namespace };
        try {
          deleted.push((await deleteObject(reg, c, kv.object.metadata!.name!, opts)).object);
        } catch (err) {
          if (!(isStatusError(err) && err.code === 404)) throw err; // deleted meanwhile
        }
      }
      return sendList(r, deleted.map((object) => ({ key: '', object, bytes: Buffer.from(JSON.stringify(object)), modRevision: 0, createRevision: 0 })), { resourceVersion: list.resourceVersion });
    }
    default:
      throw methodNotAllowed(`the server does not allow this method on the requested resource`);
  }
}

/**
 * The old /watch/ paths: upstream installs them for GET of a resource that can be watched (its collections and
 * objects, no subresource); another method there finds the path but not the method.
 */
function checkWatchPath(reg: Registry, info: RequestInfo, method: string): void {
  if (!(reg.rt.verbs as string[]).includes('watch') || info.subresource) throw noRoute(true);
  if (method !== 'GET') throw methodNotAllowed('the server does not allow this method on the requested resource');
}

/** The verbs of an object's path: without any, the resource has no such route (upstream's installer). */
const OBJECT_VERBS: string[] = ['get', 'update', 'patch', 'delete'];

/** Upstream's GetResource: ?export, gone since 1.18, is refused unless false ("0" or "false", any case). */
function refuseExport(value: string | string[] | undefined): void {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === '0' || first.toLowerCase() === 'false') return;
  throw badRequest('the export parameter, deprecated since v1.14, is no longer supported');
}

function checkVerb(reg: Registry, info: RequestInfo): void {
  if (info.name && !reg.rt.verbs.some((v) => OBJECT_VERBS.includes(v))) throw noRoute(true);
  // a collection's routes are GET, POST and DELETE only; an object's have no POST
  const routed = info.name ? info.verb !== 'create' : info.verb !== 'update' && info.verb !== 'patch';
  if (!routed || !(reg.rt.verbs as string[]).includes(info.verb)) {
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  }
}

export function listOptions(q: Query): ListOptions {
  // as upstream, a limit of 0 or below asks for everything
  const n = int64Param(q.limit);
  const limit = n !== undefined && n > 0 ? n : undefined;
  // resourceVersionMatch is checked by the registry, whose rules differ for list and watch.
  const match = q.resourceVersionMatch ?? '';
  return {
    labelSelector: q.labelSelector, fieldSelector: q.fieldSelector, limit, continue: q.continue, resourceVersion: q.resourceVersion,
    resourceVersionMatch: match as ListOptions['resourceVersionMatch'], includeUninitialized: isTrue(q.includeUninitialized),
    sendInitialEvents: q.sendInitialEvents === undefined ? undefined : isTrue(q.sendInitialEvents),
  };
}

const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';

/** Upstream's Job REST.Delete and DeleteCollection: warned before the store is asked, when no policy is named. */
function warnOfDefaultOrphaning(reg: Registry, opts: DeleteOptions, warnings: string[]): void {
  const { defaultGarbageCollectionPolicy, defaultOrphanWarning } = reg.strategy;
  if (!defaultOrphanWarning || defaultGarbageCollectionPolicy !== 'Orphan') return;
  if (opts.propagationPolicy === undefined && opts.orphanDependents === undefined) warnings.push(defaultOrphanWarning);
}

/**
 * DeleteOptions from the body (kubectl sends one; its JSON types checked, a wrong one 400 where upstream's decoder
 * error is a 500) and from query parameters.
 */
function deleteOptions(reg: Registry, request: FastifyRequest, q: Query): DeleteOptions {
  const raw = request.body as Buffer | undefined;
  const body = raw && raw.length ? decodeBody(raw, request.headers['content-type'] ?? 'application/json') : {};
  const opts = decodeAs(reg.deps.decoder, body, DELETE_OPTIONS, 'DeleteOptions', 'v1') as DeleteOptions;
  const grace = int64Param(q.gracePeriodSeconds);
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  if (q.propagationPolicy !== undefined) opts.propagationPolicy = q.propagationPolicy as DeleteOptions['propagationPolicy'];
  if (q.orphanDependents !== undefined) opts.orphanDependents = isTrue(q.orphanDependents);
  if (opts.dryRun === undefined && q.dryRun !== undefined) opts.dryRun = queryValues(q.dryRun);
  if (opts.gracePeriodSeconds !== undefined && !Number.isInteger(opts.gracePeriodSeconds)) throw badRequest('gracePeriodSeconds must be an integer');
  // as upstream's DELETE handlers, before looking anything up
  validateDeleteOptions(opts);
  return opts;
}
