// Subresources: status (the object, status only), scale (autoscaling/v1 Scale over spec.replicas),
// pods/binding, pods/eviction, pods/ephemeralcontainers (spec.ephemeralContainers only), namespaces/finalize
// (all but status) and certificatesigningrequests/approval (Approved/Denied only). The node-facing ones
// (log, exec, attach, portforward) go to the pod's kubelet; pods/proxy and services/proxy to the pod or a service
// endpoint.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, methodNotAllowed, noRoute, notFound, serviceUnavailable } from '../../apimachinery/errors.js';
import { patchBuilder } from '../../registry/generic/patch.js';
import type { Registry } from '../../registry/generic/registry.js';
import { putRequest, update, type UpdateRequest } from '../../registry/generic/update.js';
import { recordWarning, requestContext } from '../context.js';
import { decodeBody, patchTypeOf } from '../negotiation.js';
import { sendObject, type Responder } from '../respond.js';
import { isTrue, objectVerb } from '../request-info.js';
import { proxyNode, proxyPodConnect, proxyPodLog } from './kubelet-proxy.js';
import { proxyPath, proxySubresource } from './proxy-subresources.js';
import { admitConnect, connectOptions } from './connect-admission.js';
import { approvalUpdate } from '../../registry/strategies/certificatesigningrequests.js';
import { finalizeUpdate } from '../../registry/strategies/namespaces.js';
import { evictPod } from './eviction.js';
import { bindPod } from './binding.js';
import { decodeScale, getScale, scaleUpdate } from './scale.js';

export async function subresourceHandler(reg: Registry, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const info = request.info;
  const sub = reg.rt.subresources?.find((s) => s.name === info.subresource);
  // A custom resource's undefined subresource is NotFound for the object (upstream's crdHandler); a built-in
  // resource's has no route at all.
  if (!sub) throw isCustomResource(reg) ? notFound(reg.gr, info.name) : noRoute(true);
  // an empty name (`pods//status`) still finds the object's route, whose handler then wants a name
  const verb = info.name ? info.verb : objectVerb(request.method);
  if (!(sub.verbs as string[]).includes(verb)) throw methodNotAllowed('the server does not allow this method on the requested resource');
  if (!info.name) throw badRequest('name must be provided');
  // a deprecated version's warning comes first, before the options are read (upstream adds it ahead of the handler)
  if (reg.rt.warning) recordWarning(request, reg.rt.warning);
  const ctx = requestContext(request, info);
  const r: Responder = { rt: reg.rt, request, reply, warnings: ctx.warnings, now: ctx.now };
  const q = request.query as Record<string, string | undefined>;
  const body = (): unknown => decodeBody(request.body as Buffer, request.headers['content-type'], ctx, info.verb === 'patch');

  switch (info.subresource) {
    case 'status':
    case 'finalize':
    case 'ephemeralcontainers':
    case 'approval': {
      if (info.verb === 'get') {
        const kv = await reg.get(ctx, info.name);
        return sendObject(r, kv);
      }
      const req: UpdateRequest = info.verb === 'patch'
        ? patchBuilder(reg, ctx, info.name, patchTypeOf(request.headers['content-type'], reg.strategy.strategicMergePatch !== false), body(), isTrue(q.force), info.subresource)
        : putRequest(reg, ctx, info.name, body(), { subresource: info.subresource });
      const field = SPEC_FIELD_OF[info.subresource];
      const shape = SHAPE_OF[info.subresource];
      const res = await update(reg, ctx, field ? specFieldRequest(req, field) : shape ? shapedRequest(req, shape) : req);
      return sendObject(r, res);
    }
    case 'scale': {
      const scaleRt = { ...reg.rt, group: sub.group, version: sub.version, kind: sub.kind };
      const rs: Responder = { ...r, rt: scaleRt, tableOf: reg.rt };
      if (info.verb === 'get') return sendObject(rs, { object: getScale(reg, (await reg.get(ctx, info.name)).object) });
      const patchType = info.verb === 'patch' ? patchTypeOf(request.headers['content-type'], reg.strategy.strategicMergePatch !== false) : undefined;
      const res = await update(reg, ctx, scaleUpdate(reg, ctx, info.name, patchType ? body() : decodeScale(body(), ctx), patchType, isTrue(q.force)));
      return sendObject(rs, { object: getScale(reg, res.object) });
    }
    case 'binding':
      return sendObject(r, { object: await bindPod(reg, ctx, info.name, body()) }, 201);
    case 'eviction':
      return sendObject(r, { object: await evictPod(reg, ctx, info.name, body()) }, 201);
    default: {
      const connect = info.subresource === 'proxy' || info.subresource === 'exec' || info.subresource === 'attach' || info.subresource === 'portforward';
      const options = connect ? connectOptions(reg, info, q) : undefined;
      if (options) await admitConnect(reg, ctx, info, options);
      if (info.subresource === 'proxy' && (reg.rt.plural === 'pods' || reg.rt.plural === 'services')) return proxySubresource(reg, request, reply, info);
      if (info.subresource === 'proxy' && reg.rt.plural === 'nodes') {
        const rest = proxyPath(request, reply, info);
        return rest === undefined ? reply : proxyNode(reg, request, reply, info.name, rest);
      }
      const pod = (await reg.get(ctx, info.name)).object as KubeObject;
      if (reg.rt.plural === 'pods' && info.subresource === 'log') return proxyPodLog(reg, request, reply, pod);
      if (reg.rt.plural === 'pods' && !pod.spec?.nodeName) throw badRequest(`pod ${info.name} does not have a host assigned`);
      if (reg.rt.plural === 'pods' && options && info.subresource !== 'proxy') return proxyPodConnect(reg, request, reply, pod, info.subresource as 'exec' | 'attach' | 'portforward', options);
      throw serviceUnavailable(`no kubelet serves ${reg.rt.plural}/${info.subresource} yet: the node agent arrives with the kubelet`);
    }
  }
}

/** Whether a CustomResourceDefinition serves the resource: one named <plural>.<group>, as upstream's crdHandler finds it. */
export const isCustomResource = (reg: Registry): boolean =>
  reg.deps.peer('apiextensions.k8s.io', 'customresourcedefinitions')?.peek(undefined, `${reg.rt.plural}.${reg.rt.group}`) !== undefined;

/**
 * The subresources whose strategy makes the object written from the sent and the stored one (upstream: their
 * PrepareForUpdate): certificatesigningrequests/approval the Approved and Denied conditions only, namespaces/finalize
 * all but the status.
 */
const SHAPE_OF: Record<string, (next: KubeObject, current: KubeObject) => KubeObject> = {
  approval: approvalUpdate,
  finalize: finalizeUpdate,
};

function shapedRequest(req: UpdateRequest, shape: (next: KubeObject, current: KubeObject) => KubeObject): UpdateRequest {
  return {
    ...req,
    build: async (current) => {
      const next = await req.build(current);
      const out = shape(next, current!);
      const rv = next.metadata?.resourceVersion;
      return rv ? { ...out, metadata: { ...out.metadata, resourceVersion: rv } } : out;
    },
  };
}

/** The subresources that change one field of the spec and nothing else (upstream: their strategies' PrepareForUpdate). */
const SPEC_FIELD_OF: Record<string, string> = {
  ephemeralcontainers: 'ephemeralContainers',
};

function specFieldRequest(req: UpdateRequest, field: string): UpdateRequest {
  return {
    ...req,
    build: async (current) => {
      const next = await req.build(current);
      const spec: Record<string, unknown> = { ...(current!.spec ?? {}) };
      const value = next.spec?.[field];
      if (value === undefined) delete spec[field];
      else spec[field] = value;
      // the body's name, namespace and resourceVersion still count: mismatches and stale writes are refused
      const { name, namespace, resourceVersion } = next.metadata ?? {};
      const meta = { ...current!.metadata, ...(name !== undefined ? { name } : {}), ...(namespace !== undefined ? { namespace } : {}), ...(resourceVersion ? { resourceVersion } : {}) };
      return { ...current!, metadata: meta, spec };
    },
  };
}
