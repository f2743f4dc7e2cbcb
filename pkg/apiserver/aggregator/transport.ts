// The HTTPS clients the aggregator talks to extension apiservers with (upstream: kube-aggregator
// pkg/controllers/status/remote BuildTransportConfig): the front-proxy client certificate as identity, the
// APIService's caBundle (or no verification with insecureSkipTLSVerify) for the server, whose certificate must
// be for <service>.<namespace>.svc.
import type { ConnectionOptions } from 'node:tls';
import type { Agent } from 'undici';
import { undici } from '../../apimachinery/undici.js';
import type { APIService } from '../../../api/apiregistration/v1/index.js';

export interface ProxyClientCert {
  cert: string;
  key: string;
}

const KEEP_ALIVE_MS = 30_000;

/** How the proxy connects to an APIService's server: front-proxy identity, caBundle, the service's DNS name. */
export function proxyTlsOptions(svc: APIService, client: ProxyClientCert | undefined): ConnectionOptions {
  const ref = svc.spec.service!;
  const ca = svc.spec.caBundle ? Buffer.from(svc.spec.caBundle, 'base64').toString('utf8') : undefined;
  return {
    ...(client ?? {}),
    ...(ca ? { ca } : {}),
    rejectUnauthorized: !svc.spec.insecureSkipTLSVerify,
    servername: `${ref.name}.${ref.namespace}.svc`,
  };
}

export async function proxyAgent(tls: ConnectionOptions): Promise<Agent> {
  const { Agent } = await undici();
  return new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: tls });
}

/**
 * The availability check's client: no server verification ("if someone owns the network and messes with your
 * status that's not so bad", upstream says), the front-proxy identity all the same.
 */
export async function checkAgent(client: ProxyClientCert | undefined): Promise<Agent> {
  const { Agent } = await undici();
  return new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: { ...(client ?? {}), rejectUnauthorized: false } });
}

/** Who the aggregator says it is when it asks for discovery itself: a system:masters identity, as upstream. */
export const AGGREGATOR_IDENTITY = { 'x-remote-user': 'system:kube-aggregator', 'x-remote-group': 'system:masters' };
