// /healthz, /livez, /readyz with their named checks (?verbose lists them, /readyz/<check> asks
// one), and /version with the Kubernetes release we serve.
import { KUBERNETES_RELEASE, RELEASE_MAJOR, RELEASE_MINOR } from '../apimachinery/release.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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

/** `ready` serve /healthz and /readyz, `live` /livez; `shutdown` is upstream's last readyz check (not a healthz one). */
export function registerHealth(app: FastifyInstance, checks: { live: Check[]; ready: Check[]; shutdown: Check }): void {
  const serve = (endpoint: string, list: Check[]) => async (request: FastifyRequest, reply: FastifyReply) => {
    const only = (request.params as { check?: string }).check;
    const selected = only ? list.filter((c) => c.name === only) : list;
    if (only && selected.length === 0) return reply.code(404).type('text/plain').send('404 page not found\n');
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
  const lists: Array<[string, Check[]]> = [['healthz', checks.ready], ['livez', checks.live], ['readyz', [...checks.ready, checks.shutdown]]];
  for (const [endpoint, list] of lists) {
    app.get(`/${endpoint}`, serve(endpoint, list));
    app.get(`/${endpoint}/:check`, serve(endpoint, list));
  }
  // Upstream's go-restful WebService answers /version/ too; the Python client's VersionApi asks that path.
  const version = async (_req: FastifyRequest, reply: FastifyReply) => reply.type('application/json').send(Buffer.from(JSON.stringify(VERSION_INFO, null, 2)));
  app.get('/version', version);
  app.get('/version/', version);
}
