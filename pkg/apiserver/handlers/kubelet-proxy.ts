// pods/log, proxied to the kubelet of the pod's node as upstream's apiserver does: the node's InternalIP and
// daemonEndpoints port, /containerLogs/{ns}/{pod}/{container} with the same query, authenticated with the
// apiserver's kubelet client certificate (<dataDir>/pki/apiserver-kubelet-client.*). The kubelet's serving
// certificate is not verified (upstream without --kubelet-certificate-authority does the same).
import { readFile } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Agent, request as undiciRequest } from 'undici';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, internalError, notFound } from '../../apimachinery/errors.js';
import type { Registry } from '../../registry/generic/registry.js';

export interface KubeletClientFiles { certFile: string; keyFile: string }

const configs = new WeakMap<object, { files: KubeletClientFiles; agent?: Promise<Agent> }>();

/** Tells the server (a fastify instance) which client certificate it shows kubelets. */
export const setKubeletClient = (server: object, files: KubeletClientFiles): void => { configs.set(server, { files }); };

const agentFor = (server: object): Promise<Agent> => {
  const c = configs.get(server);
  if (!c) return Promise.resolve(new Agent({ connect: { rejectUnauthorized: false } }));
  c.agent ??= Promise.all([readFile(c.files.certFile, 'utf8'), readFile(c.files.keyFile, 'utf8')])
    .then(([cert, key]) => new Agent({ connect: { cert, key, rejectUnauthorized: false } }))
    .catch(() => new Agent({ connect: { rejectUnauthorized: false } }));
  return c.agent;
};

const LOG_QUERY = ['follow', 'previous', 'sinceSeconds', 'sinceTime', 'timestamps', 'tailLines', 'limitBytes'];

export async function proxyPodLog(reg: Registry, request: FastifyRequest, reply: FastifyReply, pod: KubeObject): Promise<unknown> {
  const q = request.query as Record<string, string | undefined>;
  const name = pod.metadata!.name!;
  const containers = ((pod.spec?.containers ?? []) as { name: string }[]).map((c) => c.name);
  const inits = ((pod.spec?.initContainers ?? []) as { name: string }[]).map((c) => c.name);
  let container = q.container;
  if (!container) {
    if (containers.length !== 1) {
      throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]${inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : ''}`);
    }
    container = containers[0]!;
  }
  if (!containers.includes(container) && !inits.includes(container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
  const nodeName = pod.spec!.nodeName as string;
  const node = reg.deps.peer('', 'nodes')?.peek(undefined, nodeName)?.object as KubeObject | undefined;
  if (!node) throw notFound({ group: '', resource: 'nodes' }, nodeName);
  const addresses = (node.status?.addresses ?? []) as { type: string; address: string }[];
  const host = (addresses.find((a) => a.type === 'InternalIP') ?? addresses.find((a) => a.type === 'Hostname'))?.address;
  const port = (node.status?.daemonEndpoints as { kubeletEndpoint?: { Port?: number } } | undefined)?.kubeletEndpoint?.Port;
  if (!host || !port) throw badRequest(`node ${nodeName} has no kubelet endpoint`);
  const query = new URLSearchParams();
  for (const k of LOG_QUERY) if (q[k] !== undefined) query.set(k, q[k]!);
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const url = `https://${hostPart}:${port}/containerLogs/${encodeURIComponent(pod.metadata!.namespace!)}/${encodeURIComponent(name)}/${encodeURIComponent(container)}${query.size ? `?${query}` : ''}`;
  const ac = new AbortController();
  request.raw.once('close', () => ac.abort());
  let res;
  try {
    res = await undiciRequest(url, { dispatcher: await agentFor(request.server), signal: ac.signal, headersTimeout: 30_000, bodyTimeout: 0 });
  } catch (err) {
    throw internalError(`Get "${url}": ${(err as Error).message}`);
  }
  if (res.statusCode !== 200) {
    const text = (await res.body.text()).trim();
    if (res.statusCode === 404 && /not found/.test(text)) throw notFound({ group: '', resource: 'pods' }, name);
    throw res.statusCode < 500 ? badRequest(text) : internalError(text);
  }
  reply.header('content-type', 'text/plain');
  return reply.send(res.body);
}
