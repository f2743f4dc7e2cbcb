// The secure serving of kube-scheduler and kube-controller-manager (upstream's SecureServingOptions with delegated
// authentication and authorization): the flags, the checks on them, and the start.
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Client, HealthCheck, SecureServingOptions } from '../pkg/client/index.js';
import type { Registry } from 'prom-client';
import { flag, FlagError } from './flags.js';

/** `serves`: the paths the component's HTTPS server answers, for the help (they differ upstream too). */
export const secureServingFlags = (defaultPort: number, serves: string, pairName: string) => ({
  'secure-port': flag.int(defaultPort, `Port of the HTTPS server (${serves}); 0 disables it`),
  'bind-address': flag.string('0.0.0.0', 'Address the HTTPS server listens on'),
  'cert-dir': flag.string('', `Directory of the self-signed serving certificate (${pairName}.crt, ${pairName}.key): made there once, used as it is at later starts; ignored with --tls-cert-file`),
  'tls-cert-file': flag.string('', 'Serving certificate (PEM, with its chain); default: a self-signed one for localhost, kept in memory (or in --cert-dir)'),
  'tls-private-key-file': flag.string('', 'Key of --tls-cert-file'),
  'authorization-always-allow-paths': flag.list(['/healthz', '/readyz', '/livez'], 'Paths served without a SubjectAccessReview (a trailing * is a prefix)'),
});

type ServingValues = { [K in keyof ReturnType<typeof secureServingFlags>]: ReturnType<typeof secureServingFlags>[K]['default'] };

/** Throws the FlagError upstream's validation gives for a wrong combination. */
export function checkSecureServingFlags(v: ServingValues): void {
  if (v['secure-port'] < 0 || v['secure-port'] > 65535) throw new FlagError(`--secure-port ${v['secure-port']} must be between 0 and 65535, inclusive. 0 for turning off secure port`);
  if (!isIP(v['bind-address'])) throw new FlagError(`--bind-address "${v['bind-address']}" is not a valid IP address`);
  if (!v['tls-cert-file'] !== !v['tls-private-key-file']) throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
}

export interface ComponentServing {
  client: Client;
  logger: Logger;
  registry: Registry;
  health: { healthz?: HealthCheck[]; livez?: HealthCheck[]; readyz?: HealthCheck[] };
  configz: () => unknown;
  signal: AbortSignal;
  /** Every other path, once authorized (the controller-manager's /debug/controllers/...). */
  handler?: SecureServingOptions['handler'];
  /** The name of the self-signed pair in --cert-dir (upstream's PairName: kube-scheduler, kube-controller-manager). */
  pairName: string;
}

/** The self-signed pair kept in --cert-dir, made (and said so, as upstream) when it cannot be read. */
async function keptSelfSigned(certDir: string, s: ComponentServing): Promise<{ cert: string; key: string }> {
  const { selfSignedServingPair } = await import('../pkg/client/self-signed-serving.js');
  const { generatedIn, ...pair } = await selfSignedServingPair({ certDir: resolve(certDir), pairName: s.pairName });
  if (generatedIn) s.logger.info(`Generated self-signed cert (${generatedIn.cert}, ${generatedIn.key})`);
  return pair;
}

/**
 * Serves in the background (unless --secure-port 0). As upstream's components, one that cannot listen (the port
 * taken, a certificate unreadable) exits 1 rather than run unwatched: tests and clusters sharing a machine give
 * --secure-port 0 or free ports, as `mini-kube up` does.
 */
export async function startComponentServing(v: ServingValues, s: ComponentServing): Promise<number | undefined> {
  if (v['secure-port'] === 0) return undefined;
  const { SecureServer } = await import('../pkg/client/secure-serving.js');
  const address = `${v['bind-address'].includes(':') ? `[${v['bind-address']}]` : v['bind-address']}:${v['secure-port']}`;
  try {
    const tls = v['tls-cert-file'] ? { cert: await readFile(v['tls-cert-file'], 'utf8'), key: await readFile(v['tls-private-key-file'], 'utf8') }
      : v['cert-dir'] ? await keptSelfSigned(v['cert-dir'], s) : undefined;
    const server = new SecureServer({
      client: s.client, logger: s.logger, bindAddress: v['bind-address'], port: v['secure-port'], ...(tls ? { tls } : {}),
      alwaysAllowPaths: v['authorization-always-allow-paths'], health: s.health, metrics: s.registry, configz: s.configz,
      ...(s.handler ? { handler: s.handler } : {}),
    });
    return await server.start(s.signal);
  } catch (err) {
    if (s.signal.aborted) return undefined;
    const code = (err as NodeJS.ErrnoException).code;
    const hint = code === 'EADDRINUSE' ? ' (choose another port with --secure-port, or 0 to serve none)' : code === 'EACCES' ? ' (ports under 1024 need root)' : '';
    s.logger.fatal({ err }, `failed to create listener: failed to listen on ${address}: ${(err as Error).message}${hint}`);
    s.logger.flush();
    process.exit(1);
  }
}
