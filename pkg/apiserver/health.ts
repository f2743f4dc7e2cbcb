// /healthz, /livez, /readyz with their named checks (?verbose lists them, /readyz/<check> asks
// one), and /version with the Kubernetes release we serve.
import { KUBERNETES_RELEASE, RELEASE_MAJOR, RELEASE_MINOR } from '../apimachinery/release.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { anyMethod, restfulGet } from './restful-paths.js';

export type Check = { name: string; check: () => boolean | Promise<boolean> };

/** The release kubectl's version dispatcher picks its client by. */
export const VERSION_INFO = {
  major: RELEASE_MAJOR,
  minor: RELEASE_MINOR,
  gitVersion: `${KUBERNETES_RELEASE}+mini-kube`,
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-11-01T00:00:00Z',
  goVersion: 'go1.23.6',
  compiler: 'gc',
  platform: `${process.platform === 'win32' ? 'windows' : process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

/** How often the log check flushes the log, and how long a flush may stay pending before it fails: upstream's. */
const LOG_FLUSH_EVERY_MS = 60_000;
const LOG_BLOCKED_AFTER_MS = 120_000;

/**
 * Upstream's `log` check: from its first use on, the log is flushed every minute; the check fails once no flush has
 * completed for two minutes (a log writer that blocks). `stop` ends the flushing.
 */
export function logCheck(flush: (done: (err?: Error) => void) => void): Check & { stop(): void } {
  let verified = 0;
  let timer: NodeJS.Timeout | undefined;
  const verify = (): void => flush((err) => {
    if (!err) verified = Date.now();
  });
  return {
    name: 'log',
    check: () => {
      if (!timer) {
        verified = Date.now();
        timer = setInterval(verify, LOG_FLUSH_EVERY_MS).unref();
        verify();
      }
      return Date.now() - verified < LOG_BLOCKED_AFTER_MS;
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * Upstream's post-start hooks as health checks: each fails until its step of the start has been done. They come
 * after the built-in checks of /healthz, /livez and /readyz alike (AddBootSequenceHealthChecks), in this order.
 */
export class PostStartHooks {
  private readonly done = new Set<string>();

  constructor(private readonly names: readonly string[]) {}

  get checks(): Check[] {
    return this.names.map((name) => ({ name: `poststarthook/${name}`, check: () => this.done.has(name) }));
  }

  /** Marks `name` done; names are checked so that a renamed hook cannot go unnoticed. */
  finished(...names: string[]): void {
    for (const name of names) {
      if (!this.names.includes(name)) throw new Error(`unknown post-start hook ${name}`);
      this.done.add(name);
    }
  }
}

/**
 * /healthz, /livez and /readyz: the `base` checks, then the `hooks`; /readyz ends with `shutdown` (upstream's last).
 * Returns the paths the index lists: each endpoint and each of its checks.
 */
export function registerHealth(app: FastifyInstance, checks: { base: Check[]; hooks: Check[]; shutdown: Check }): string[] {
  const serve = (endpoint: string, list: Check[]) => async (request: FastifyRequest, reply: FastifyReply) => {
    const only = (request.params as { '*'?: string })['*'];
    // `/readyz/` names no check: upstream has no handler for it
    const selected = only !== undefined ? list.filter((c) => c.name === only) : list;
    if (only !== undefined && selected.length === 0) return reply.code(404).type('text/plain').send('404 page not found\n');
    const excluded = new Set(([] as string[]).concat((request.query as { exclude?: string | string[] }).exclude ?? []));
    const results = await Promise.all(selected.map(async (c) => ({ name: c.name, excluded: excluded.has(c.name), ok: excluded.has(c.name) || (await c.check()) })));
    const ok = results.every((r) => r.ok);
    const verbose = (request.query as Record<string, unknown>).verbose !== undefined || !ok;
    reply.code(ok ? 200 : 500).type('text/plain; charset=utf-8').header('x-content-type-options', 'nosniff');
    if (only) return reply.send(ok ? 'ok' : `[-]${only} failed: reason withheld\n`);
    if (!verbose) return reply.send('ok');
    const lines = results.map((r) => (r.excluded ? `[+]${r.name} excluded: ok` : r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed: reason withheld`));
    // upstream's handleRootHealth: names excluded that no check has are reported, sorted and quoted
    const unmatched = [...excluded].filter((name) => !selected.some((c) => c.name === name)).sort();
    if (unmatched.length > 0) lines.push(`warn: some health checks cannot be excluded: no matches for ${unmatched.map((n) => JSON.stringify(n)).join(',')}`);
    return reply.send(`${lines.join('\n')}\n${endpoint} check ${ok ? 'passed' : 'failed'}\n`);
  };
  const health = [...checks.base, ...checks.hooks];
  const lists: Array<[string, Check[]]> = [['healthz', health], ['livez', health], ['readyz', [...health, checks.shutdown]]];
  for (const [endpoint, list] of lists) {
    // on upstream's plain mux: every method is answered alike
    anyMethod(app, `/${endpoint}`, serve(endpoint, list));
    // a check's name may hold slashes (poststarthook/rbac/bootstrap-roles)
    anyMethod(app, `/${endpoint}/*`, serve(endpoint, list));
  }
  // Upstream's go-restful WebService answers /version/ too; the Python client's VersionApi asks that path.
  const version = async (_req: FastifyRequest, reply: FastifyReply) => reply.type('application/json').send(Buffer.from(JSON.stringify(VERSION_INFO, null, 2)));
  for (const url of ['/version', '/version/']) restfulGet(app, url, version);
  return ['/version', ...lists.flatMap(([endpoint, list]) => [`/${endpoint}`, ...list.map((c) => `/${endpoint}/${c.name}`)])];
}
