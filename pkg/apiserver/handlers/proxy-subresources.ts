// pods/proxy and services/proxy (upstream: registry/core/pod/strategy.go and service/storage ResourceLocation):
// `<name>`, `<name>:<port>` or `<scheme>:<name>:<port>` names the target; a pod is reached at its IP (the port
// defaults to its first declared container port), a service at a random ready address of its Endpoints for the
// named or numbered service port (an ExternalName service at its external name). The rest of the path after
// /proxy and the query go to the backend as they came; backends' certificates are not verified, as upstream's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Agent } from 'undici';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, notFound, serviceUnavailable } from '../../apimachinery/errors.js';
import { undici } from '../../apimachinery/undici.js';
import type { Registry } from '../../registry/generic/registry.js';
import type { RequestInfo } from '../request-info.js';
import { proxyTo } from '../reverse-proxy.js';

interface Target { scheme: 'http' | 'https'; host: string; port: number }

let agent: Promise<Agent> | undefined;
const backendAgent = (): Promise<Agent> => (agent ??= undici().then(({ Agent }) => new Agent({ connect: { rejectUnauthorized: false } })));

/** upstream's SplitSchemeNamePort. */
function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  const [scheme, name, port] = parts.length === 1 ? ['', parts[0]!, ''] : parts.length === 2 ? ['', parts[0]!, parts[1]!] : parts.length === 3 ? parts as [string, string, string] : [];
  if (name === undefined || !name || !['', 'http', 'https'].includes(scheme!)) return undefined;
  return { scheme: scheme!, name, port: port! };
}

const defaultPort = (scheme: string): number => (scheme === 'https' ? 443 : 80);

function podLocation(pod: KubeObject, scheme: string, port: string): Target {
  const ip = pod.status?.podIP as string | undefined;
  if (!ip) throw badRequest('address not allowed');
  let p = port;
  if (!p) {
    for (const c of (pod.spec?.containers ?? []) as { ports?: { containerPort: number }[] }[]) {
      if (c.ports?.length) { p = String(c.ports[0]!.containerPort); break; }
    }
  }
  return { scheme: (scheme || 'http') as Target['scheme'], host: ip, port: p ? Number(p) : defaultPort(scheme) };
}

interface ServicePort { name?: string; port: number }
interface Subset { addresses?: { ip: string }[]; ports?: { name?: string; port: number }[] }

function serviceLocation(reg: Registry, svc: KubeObject, namespace: string, scheme: string, port: string): Target {
  const name = svc.metadata!.name!;
  const s = (scheme || 'http') as Target['scheme'];
  if (svc.spec?.type === 'ExternalName') return { scheme: s, host: String(svc.spec.externalName), port: port ? Number(port) : defaultPort(scheme) };
  let portName = port;
  if (/^\d+$/.test(port)) portName = ((svc.spec?.ports ?? []) as ServicePort[]).find((sp) => sp.port === Number(port))?.name ?? '';
  const eps = reg.deps.peer('', 'endpoints')?.peek(namespace, name)?.object;
  for (const subset of (eps?.subsets ?? []) as Subset[]) {
    const ep = (subset.ports ?? []).find((p) => (p.name ?? '') === portName);
    const addresses = subset.addresses ?? [];
    if (ep && addresses.length) return { scheme: s, host: addresses[Math.floor(Math.random() * addresses.length)]!.ip, port: ep.port };
  }
  throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
}

/**
 * The path below `.../proxy` that goes to the backend; undefined once `.../proxy` itself was answered with upstream's
 * redirect to `.../proxy/` (so that relative links resolve below it).
 */
export function proxyPath(request: FastifyRequest, reply: FastifyReply, info: RequestInfo): string | undefined {
  // the path after <resource>/<name>/proxy, as sent (still escaped): skip as many segments as come before it
  let skip = info.path.split('/').filter(Boolean).length - Math.max(0, info.parts.length - 3);
  let at = 0;
  while (skip > 0 && at < info.path.length) {
    const next = info.path.indexOf('/', at + 1);
    if (info.path.slice(at + 1, next === -1 ? undefined : next)) skip--;
    at = next === -1 ? info.path.length : next;
  }
  const rest = info.path.slice(at);
  if (rest) return rest;
  const query = request.raw.url?.split('?')[1];
  void reply.code(301).header('location', `${info.path}/${query ? `?${query}` : ''}`).send();
  return undefined;
}

export async function proxySubresource(reg: Registry, request: FastifyRequest, reply: FastifyReply, info: RequestInfo): Promise<unknown> {
  const kind = reg.rt.plural === 'pods' ? 'pod' : 'service';
  const id = info.name;
  const split = splitSchemeNamePort(id);
  if (!split) throw badRequest(`invalid ${kind} request ${JSON.stringify(id)}`);
  const namespace = info.namespace;
  const obj = reg.peek(namespace, split.name)?.object;
  if (!obj) throw notFound(reg.gr, split.name);
  const target = kind === 'pod' ? podLocation(obj, split.scheme, split.port) : serviceLocation(reg, obj, namespace, split.scheme, split.port);

  const rest = proxyPath(request, reply, info);
  if (rest === undefined) return reply;
  const query = request.raw.url?.split('?')[1];
  await proxyTo(request, reply, { ...target, path: `${rest}${query ? `?${query}` : ''}`, dispatcher: await backendAgent() }, (err) => {
    throw serviceUnavailable(`error trying to reach service: ${err.message}`);
  });
  return reply;
}
