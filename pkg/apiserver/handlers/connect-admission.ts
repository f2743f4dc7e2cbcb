// CONNECT admission, as upstream's ConnectResource: before a pod's exec, attach or port-forward, or a pod's, service's
// or node's proxy, goes anywhere, the mutating and then the validating plugins that handle CONNECT (webhooks,
// ValidatingAdmissionPolicy) see the request's options object, so that a policy can refuse `kubectl exec`.
import type { KubeObject } from '../../../api/types.js';
import type { RequestContext } from '../../registry/context.js';
import type { Registry } from '../../registry/generic/registry.js';
import { isTrue, queryValues, type RequestInfo } from '../request-info.js';


/** A proxy's path as upstream's getRequestOptions sets it: what follows `proxy`, with a leading slash, and the URL's trailing one. */
export function proxyPathOf(info: RequestInfo): string | undefined {
  let p = info.parts.slice(3).join('/');
  if (p && !p.startsWith('/')) p = `/${p}`;
  if (info.path.endsWith('/') && !p.endsWith('/')) p += '/';
  return p || undefined;
}

/** The options object (v1 PodExecOptions and the like) of a connect request, its fields as Go omits the empty ones. */
export function connectOptions(reg: Registry, info: RequestInfo, q: Record<string, unknown>): KubeObject {
  const kind = reg.rt.subresources?.find((s) => s.name === info.subresource)?.kind ?? '';
  const out: KubeObject = { kind, apiVersion: 'v1' };
  if (info.subresource === 'proxy') {
    const path = proxyPathOf(info);
    if (path) out.path = path;
    return out;
  }
  if (info.subresource === 'portforward') {
    const ports = queryValues(q.ports).flatMap((p) => p.split(',')).map(Number).filter(Number.isInteger);
    if (ports.length) out.ports = ports;
    return out;
  }
  for (const f of ['stdin', 'stdout', 'stderr', 'tty']) if (isTrue(q[f])) out[f] = true;
  const container = queryValues(q.container)[0];
  if (container) out.container = container;
  // command carries no omitempty upstream: an exec without one shows null
  if (info.subresource === 'exec') out.command = q.command === undefined ? null : queryValues(q.command);
  return out;
}

export async function admitConnect(reg: Registry, ctx: RequestContext, info: RequestInfo, options: KubeObject): Promise<void> {
  await reg.admission('mutate', 'CONNECT', ctx, options, undefined, info.name, info.subresource);
  await reg.admission('validate', 'CONNECT', ctx, options, undefined, info.name, info.subresource);
}
