// GET / (and /index.html): upstream's index handler, the paths the server lists (metav1.RootPaths) sorted and
// indented as Go's json.MarshalIndent writes them: the root path of each REST web service (/api, /api/v1, /apis,
// each group and group version served, aggregated ones and custom resources' too, /version, /logs, the OpenID
// discovery) and the listed paths of its mux (/healthz, /livez, /readyz and each of their checks, /metrics,
// /openapi/v2, /openapi/v3). `kubectl get --raw /` prints it.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { GroupVersion } from '../../api/types.js';

/** The paths of the discovery documents of `served`, the legacy group's under /api. */
export const discoveryPaths = (served: readonly Pick<GroupVersion, 'group' | 'version'>[]): string[] => [
  '/api', '/apis', '/apis/',
  ...served.flatMap(({ group, version }) => (group ? [`/apis/${group}`, `/apis/${group}/${version}`] : [`/api/${version}`])),
];

export function registerIndex(app: FastifyInstance, paths: () => Iterable<string>): void {
  const index = async (_request: unknown, reply: FastifyReply): Promise<FastifyReply> =>
    reply.type('application/json').send(Buffer.from(JSON.stringify({ paths: [...new Set(paths())].sort() }, null, 2)));
  app.get('/', index);
  app.get('/index.html', index);
}
