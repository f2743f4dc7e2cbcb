// pods/log, exec, attach and portforward, proxied to the kubelet of the pod's node as upstream's apiserver does:
// the node's first address of --kubelet-preferred-address-types and its daemonEndpoints port, authenticated with the
// apiserver's kubelet client certificate (--kubelet-client-certificate, default <dataDir>/pki/apiserver-kubelet-client.*).
// The kubelet's serving certificate is verified against --kubelet-certificate-authority, and not at all without it
// (as upstream). Logs are a plain request; exec, attach and portforward are
// upgrades (SPDY or WebSocket) whose socket is spliced to the kubelet's, as upstream's UpgradeAwareHandler does,
// but for exec and attach over WebSocket v5, which the apiserver serves itself (stream-translator.ts).
import { readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Agent } from 'undici';
import { undici } from '../../apimachinery/undici.js';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, fieldCause, internalError, invalid, notFound, serviceUnavailable, type StatusCause } from '../../apimachinery/errors.js';
import type { Registry } from '../../registry/generic/registry.js';
import { int64Param, isTrue } from '../request-info.js';
import { proxyTo, takeOver } from '../reverse-proxy.js';
import { dialTls, spliceUpgrade, upgradeHead } from '../upgrade.js';
import { offersStreamClose, translateStream } from './stream-translator.js';

export interface KubeletClientConfig {
  certFile: string;
  keyFile: string;
  /** --kubelet-certificate-authority: verify the kubelets' serving certificates against it. */
  caFile?: string;
  /** --kubelet-preferred-address-types: the node address used is the first of these types the node has. */
  preferredAddressTypes: string[];
  /** The TranslateStreamCloseWebsocketRequests gate (on unless turned off): exec and attach over v5 are translated. */
  translateStreamClose?: boolean;
}

/** How the apiserver dials a kubelet: its client certificate, and the CA its serving certificate must chain to. */
interface KubeletTls { cert?: string; key?: string; ca?: string; rejectUnauthorized: boolean }

const configs = new WeakMap<object, { config: KubeletClientConfig; tls?: Promise<KubeletTls>; agent?: Promise<Agent> }>();

/** Tells the server (a fastify instance) how it reaches kubelets. */
export const setKubeletClient = (server: object, config: KubeletClientConfig): void => { configs.set(server, { config }); };

const read = (f: string): Promise<string | undefined> => readFile(f, 'utf8').catch(() => undefined);

const tlsFor = (server: object): Promise<KubeletTls> => {
  const c = configs.get(server);
  if (!c) return Promise.resolve({ rejectUnauthorized: false });
  c.tls ??= Promise.all([read(c.config.certFile), read(c.config.keyFile), c.config.caFile ? read(c.config.caFile) : undefined])
    .then(([cert, key, ca]) => ({ cert, key, ca, rejectUnauthorized: c.config.caFile !== undefined }));
  return c.tls;
};

const agentFor = async (server: object): Promise<Agent> => {
  const { Agent } = await undici();
  const c = configs.get(server);
  if (!c) return new Agent({ connect: { rejectUnauthorized: false } });
  c.agent ??= tlsFor(server).then((tls) => new Agent({ connect: tls }));
  return c.agent;
};

/** kubeadm's order (upstream's bare default puts Hostname first; mini-kube's kubelets name themselves by --node-name). */
export const DEFAULT_KUBELET_ADDRESS_TYPES = ['InternalIP', 'ExternalIP', 'Hostname'];


/** The container a request names, or the pod's only one; upstream's messages when there is none. */
function containerOf(pod: KubeObject, requested: string | undefined): string {
  const name = pod.metadata!.name!;
  const containers = ((pod.spec?.containers ?? []) as { name: string }[]).map((c) => c.name);
  const inits = ((pod.spec?.initContainers ?? []) as { name: string }[]).map((c) => c.name);
  const ephemeral = ((pod.spec?.ephemeralContainers ?? []) as { name: string }[]).map((c) => c.name);
  let container = requested;
  if (!container) {
    if (containers.length !== 1) {
      throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`
        + `${inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : ''}${ephemeral.length ? ` or one of the ephemeral containers: [${ephemeral.join(' ')}]` : ''}`);
    }
    container = containers[0]!;
  }
  if (![...containers, ...inits, ...ephemeral].includes(container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}

/** host:port of the kubelet serving the pod's node. */
const kubeletOf = (reg: Registry, server: object, pod: KubeObject): { host: string; port: number } => kubeletOfNode(reg, server, pod.spec!.nodeName as string);

/** The node's first address of the preferred types and its daemonEndpoints' kubelet port. */
function kubeletOfNode(reg: Registry, server: object, nodeName: string): { host: string; port: number } {
  const node = reg.deps.peer('', 'nodes')?.peek(undefined, nodeName)?.object as KubeObject | undefined;
  if (!node) throw notFound({ group: '', resource: 'nodes' }, nodeName);
  const addresses = (node.status?.addresses ?? []) as { type: string; address: string }[];
  const types = configs.get(server)?.config.preferredAddressTypes ?? DEFAULT_KUBELET_ADDRESS_TYPES;
  const host = types.map((t) => addresses.find((a) => a.type === t)?.address).find(Boolean);
  if (!host) throw badRequest(`no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type} ${a.address}}`).join(' ')}]`);
  const port = (node.status?.daemonEndpoints as { kubeletEndpoint?: { Port?: number } } | undefined)?.kubeletEndpoint?.Port;
  if (!port) throw badRequest(`node ${nodeName} has no kubelet endpoint`);
  return { host, port };
}

/**
 * nodes/proxy: `<node>`, `<node>:<port>` or `<scheme>:<node>:<port>` (upstream's node ResourceLocation: https and
 * the kubelet's port by default) with the rest of the path and the query sent on, authenticated as the apiserver
 * (so `kubectl get --raw /api/v1/nodes/N/proxy/pods` reaches the kubelet's /pods).
 */
export async function proxyNode(reg: Registry, request: FastifyRequest, reply: FastifyReply, id: string, rest: string): Promise<unknown> {
  const parts = decodeURIComponent(id).split(':');
  const [scheme, name, port] = parts.length === 1 ? ['', parts[0]!, ''] : parts.length === 2 ? ['', parts[0]!, parts[1]!] : parts.length === 3 ? parts : [];
  if (!name || !['', 'http', 'https'].includes(scheme!) || (port && !/^\d+$/.test(port))) throw badRequest(`invalid node request ${JSON.stringify(id)}`);
  const kubelet = kubeletOfNode(reg, request.server, name);
  const query = request.raw.url?.split('?')[1];
  await proxyTo(request, reply, {
    scheme: (scheme || 'https') as 'http' | 'https', host: kubelet.host, port: port ? Number(port) : kubelet.port,
    path: `${rest}${query ? `?${query}` : ''}`, dispatcher: await agentFor(request.server), tls: await tlsFor(request.server),
  }, (err) => {
    throw serviceUnavailable(`error trying to reach service: ${err.message}`);
  });
  return reply;
}

const podPath = (pod: KubeObject): string => `${encodeURIComponent(pod.metadata!.namespace!)}/${encodeURIComponent(pod.metadata!.name!)}`;

/** PodLogOptions from the query: parsed as upstream's parameter codec (400), then validated as upstream (422). */
function checkLogOptions(q: Record<string, string | undefined>, name: string): void {
  const [tailLines, sinceSeconds, limitBytes] = [q.tailLines, q.sinceSeconds, q.limitBytes].map(int64Param);
  const causes: StatusCause[] = [];
  if (tailLines !== undefined && tailLines < 0) causes.push(fieldCause('FieldValueInvalid', 'tailLines', `Invalid value: ${tailLines}: must be greater than or equal to 0`));
  if (limitBytes !== undefined && limitBytes < 1) causes.push(fieldCause('FieldValueInvalid', 'limitBytes', `Invalid value: ${limitBytes}: must be greater than 0`));
  if (sinceSeconds !== undefined && q.sinceTime) causes.push(fieldCause('FieldValueForbidden', '', 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (sinceSeconds !== undefined && sinceSeconds < 1) causes.push(fieldCause('FieldValueInvalid', 'sinceSeconds', `Invalid value: ${sinceSeconds}: must be greater than 0`));
  if (causes.length) throw invalid('', 'PodLogOptions', name, causes);
}

/**
 * The kubelet's query from the decoded PodLogOptions, as upstream's LogLocation writes it: canonical values (a flag
 * only when set, as "true", whatever spelling the client used, e.g. the Python client's "True").
 */
function logQuery(q: Record<string, string | undefined>): URLSearchParams {
  const query = new URLSearchParams();
  for (const k of ['follow', 'previous', 'timestamps']) if (isTrue(q[k])) query.set(k, 'true');
  const sinceSeconds = int64Param(q.sinceSeconds);
  if (sinceSeconds !== undefined) query.set('sinceSeconds', String(sinceSeconds));
  if (q.sinceTime) query.set('sinceTime', q.sinceTime);
  for (const k of ['tailLines', 'limitBytes']) {
    const n = int64Param(q[k]);
    if (n !== undefined) query.set(k, String(n));
  }
  return query;
}

export async function proxyPodLog(reg: Registry, request: FastifyRequest, reply: FastifyReply, pod: KubeObject): Promise<unknown> {
  const q = request.query as Record<string, string | undefined>;
  const name = pod.metadata!.name!;
  checkLogOptions(q, name);
  const container = containerOf(pod, q.container);
  // Not scheduled yet: upstream's LogLocation gives no location, and a null stream is 204 No Content (kubectl logs
  // prints nothing and succeeds).
  if (!pod.spec?.nodeName) return reply.code(204).send();
  const { host, port } = kubeletOf(reg, request.server, pod);
  const query = logQuery(q);
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const url = `https://${hostPart}:${port}/containerLogs/${podPath(pod)}/${encodeURIComponent(container)}${query.size ? `?${query}` : ''}`;
  const ac = new AbortController();
  request.raw.once('close', () => ac.abort());
  let res;
  try {
    // a follow waits for the kubelet as long as the client does, as upstream's kubelet transport (no header timeout)
    const headersTimeout = query.has('follow') ? 0 : 30_000;
    res = await (await undici()).request(url, { dispatcher: await agentFor(request.server), signal: ac.signal, headersTimeout, bodyTimeout: 0 });
  } catch (err) {
    throw internalError(`Get "${url}": ${(err as Error).message}`);
  }
  if (res.statusCode !== 200) {
    const text = (await res.body.text()).trim();
    if (res.statusCode === 404 && /not found/.test(text)) throw notFound({ group: '', resource: 'pods' }, name);
    throw res.statusCode < 500 ? badRequest(text) : internalError(text);
  }
  if (!query.has('follow')) {
    reply.header('content-type', 'text/plain');
    return reply.send(res.body);
  }
  // A follow's headers go out now (the chain's too, as a watch's): HTTP/1.1 would hold them back until the first
  // line, which a quiet container may not write for a long time.
  takeOver(reply);
  reply.raw.writeHead(200, { 'content-type': 'text/plain' });
  reply.raw.flushHeaders();
  // a client that goes away ends the stream (the kubelet's request is aborted on close above)
  await pipeline(res.body, reply.raw).catch(() => undefined);
  return undefined;
}

/**
 * pods/exec, pods/attach, pods/portforward: the kubelet's /exec, /attach or /portForward with upstream's query
 * (command, input/output/error/tty = 1; port) from the request's options (as admission left them), the client's
 * upgraded socket spliced to the kubelet's; exec and attach over WebSocket v5 are translated instead
 * (stream-translator.ts), unless the TranslateStreamCloseWebsocketRequests gate is off.
 */
export async function proxyPodConnect(reg: Registry, request: FastifyRequest, reply: FastifyReply, pod: KubeObject, sub: 'exec' | 'attach' | 'portforward', options: KubeObject): Promise<unknown> {
  const raw = request.raw;
  const query = new URLSearchParams();
  let path: string;
  if (sub === 'portforward') {
    for (const port of (options.ports ?? []) as number[]) query.append('port', String(port));
    path = `/portForward/${podPath(pod)}`;
  } else {
    const container = containerOf(pod, options.container as string | undefined);
    if (sub === 'exec') for (const c of (options.command ?? []) as string[]) query.append('command', c);
    for (const [param, field] of [['input', 'stdin'], ['output', 'stdout'], ['error', 'stderr'], ['tty', 'tty']] as const) if (options[field] === true) query.set(param, '1');
    path = `/${sub}/${podPath(pod)}/${encodeURIComponent(container)}`;
  }
  const { host, port } = kubeletOf(reg, request.server, pod);
  // as upstream's: the location (container, node) is resolved first, then the proxy handler asks for an upgrade
  if (!upgradeHead(raw)) throw badRequest('Upgrade request required');
  const tls = await tlsFor(request.server);
  const servername = /^[\d.:]+$/.test(host) ? undefined : host;
  const hostPort = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const pathAndQuery = `${path}${query.size ? `?${query}` : ''}`;
  if (sub !== 'portforward' && configs.get(request.server)?.config.translateStreamClose !== false && offersStreamClose(raw)) {
    reply.hijack();
    const streams = { stdin: options.stdin === true, stdout: options.stdout === true, stderr: options.stderr === true, tty: options.tty === true };
    translateStream(raw, streams, { url: `https://${hostPort}${pathAndQuery}`, host, port, servername, tls }).catch((err: unknown) => {
      request.log.warn({ err }, 'exec/attach stream translation failed');
      raw.socket.destroy();
    });
    return reply;
  }
  const upstream = await dialTls({ host, port, ...tls, servername })
    .catch((err: unknown) => { throw internalError(`error dialing backend: ${(err as Error).message}`); });
  reply.hijack();
  spliceUpgrade(raw, upstream, pathAndQuery, hostPort);
  return reply;
}
