// pods/proxy and services/proxy (upstream: registry/core/pod/strategy.go and service/storage ResourceLocation):
// `<name>`, `<name>:<port>` or `<scheme>:<name>:<port>` names the target; a pod is reached at its IP (the port
// defaults to its first declared container port), a service at a random ready address of its Endpoints for the
// named or numbered service port, that address backed by a pod of the namespace that has this IP (upstream's
// isValidAddress: hand-written addresses without a targetRef are never dialed, nor is an ExternalName). The rest of
// the path after /proxy goes to the backend as upstream's location.Path (decoded, cleaned), the query as it came;
// backends' certificates are not verified, as upstream's.
import { posix } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Agent } from 'undici';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, notFound, serviceUnavailable } from '../../apimachinery/errors.js';
import { escapeGoPath } from '../../apimachinery/go-url.js';
import { undici } from '../../apimachinery/undici.js';
import type { Registry } from '../../registry/generic/registry.js';
import type { RequestInfo } from '../request-info.js';
import { proxyTo } from '../reverse-proxy.js';
import { proxyPathOf } from './connect-admission.js';
import { dialPort } from './dial-port.js';

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
  if (!p) return { scheme: (scheme || 'http') as Target['scheme'], host: ip, port: defaultPort(scheme) };
  const dial = dialPort(p);
  if ('error' in dial) throw serviceUnavailable(`error trying to reach service: ${dial.error}`);
  return { scheme: (scheme || 'http') as Target['scheme'], host: ip, port: dial.port };
}

interface ServicePort { name?: string; port: number }
interface Address { ip: string; targetRef?: { kind?: string; namespace?: string; name?: string } }
interface Subset { addresses?: Address[]; ports?: { name?: string; port: number }[] }

/** Whether an endpoint address is a pod of the namespace that has this IP (upstream's isValidAddress). */
function podBacked(reg: Registry, namespace: string, addr: Address): boolean {
  const ref = addr.targetRef;
  if (!ref?.name || ref.namespace !== namespace) return false;
  const pod = reg.deps.peer('', 'pods')?.peek(namespace, ref.name)?.object;
  return ((pod?.status?.podIPs ?? []) as { ip: string }[]).some((p) => p.ip === addr.ip);
}

/** The items rotated to a random start: upstream starts at a random subset and address, then tries the others in turn. */
const fromRandom = <T>(items: T[]): T[] => {
  const seed = Math.floor(Math.random() * items.length);
  return items.map((_, i) => items[(seed + i) % items.length]!);
};

/**
 * As upstream, the Service itself is only read to turn a port number into the port's name; everything else comes
 * from the Endpoints of that name (so a missing one is `endpoints "<name>" not found`, whatever the Service is).
 */
function serviceLocation(reg: Registry, namespace: string, id: string, split: { scheme: string; name: string; port: string }): Target {
  const { name } = split;
  let portName = split.port;
  if (/^[+-]?\d+$/.test(portName)) {
    const svc = reg.peek(namespace, name)?.object;
    if (!svc) throw notFound(reg.gr, name);
    const num = Number(portName);
    const sp = ((svc.spec?.ports ?? []) as ServicePort[]).find((p) => p.port === num);
    if (!sp) throw serviceUnavailable(`no service port ${num} found for service ${JSON.stringify(name)}`);
    portName = sp.name ?? '';
  }
  const eps = reg.deps.peer('', 'endpoints')?.peek(namespace, name)?.object;
  if (!eps) throw notFound({ group: '', resource: 'endpoints' }, name);
  const subsets = (eps.subsets ?? []) as Subset[];
  if (!subsets.length) throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
  for (const subset of fromRandom(subsets)) {
    if (!subset.addresses?.length) continue;
    const ep = (subset.ports ?? []).find((p) => (p.name ?? '') === portName);
    if (!ep) continue;
    const addr = fromRandom(subset.addresses).find((a) => podBacked(reg, namespace, a));
    if (addr) return { scheme: (split.scheme || 'http') as Target['scheme'], host: addr.ip, port: ep.port };
  }
  // here upstream quotes the whole id (scheme and port included), unlike the empty-subsets case above
  throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(id)}`);
}


/**
 * The path on the backend: as upstream's proxy REST sets location.Path, the options' path (the decoded parts after
 * `proxy`, so an escaped `/` separates segments) joined and cleaned (`..` stays below the root), its trailing slash
 * kept. Undefined once a GET of `.../proxy` itself was answered with upstream's redirect to `.../proxy/` (so that
 * relative links resolve below it); other methods go to the backend's root.
 */
export function proxyPath(request: FastifyRequest, reply: FastifyReply, info: RequestInfo): string | undefined {
  const opt = proxyPathOf(info);
  if (opt) return escapeGoPath(posix.normalize(opt));
  if (request.method !== 'GET' && request.method !== 'HEAD') return '/';
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
  let target: Target;
  if (kind === 'pod') {
    const pod = reg.peek(namespace, split.name)?.object;
    if (!pod) throw notFound(reg.gr, split.name);
    target = podLocation(pod, split.scheme, split.port);
  } else {
    target = serviceLocation(reg, namespace, id, split);
  }

  const rest = proxyPath(request, reply, info);
  if (rest === undefined) return reply;
  const query = request.raw.url?.split('?')[1];
  await proxyTo(request, reply, { ...target, path: `${rest}${query ? `?${query}` : ''}`, dispatcher: await backendAgent() }, (err) => {
    throw serviceUnavailable(`error trying to reach service: ${err.message}`);
  });
  return reply;
}
