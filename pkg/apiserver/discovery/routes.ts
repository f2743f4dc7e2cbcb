// Discovery routes on the apiserver's fastify instance. Documents are serialized once per served set and
// reused until the set changes (custom resources come and go).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { stringifyYaml as toYaml } from '../../apimachinery/yaml.js';
import { noRoute } from '../../apimachinery/errors.js';
import { sendStatusError } from '../errors.js';
import { anyMethod, restfulGet, routerMethodNotAllowed } from '../restful-paths.js';
import { buildAggregatedApis, buildAggregatedCore, type AggregatedVersion } from './aggregated.js';
import { findGroupVersion } from './groups.js';
import { buildApiGroup, buildApiGroupList, buildApiResourceList, buildApiVersions } from './legacy.js';
import { negotiateDiscovery } from './negotiate.js';
import { cachedBySource, keyedCacheBySource, type GroupVersionSource } from './source.js';

export interface DiscoveryOptions {
  /** The address /api advertises for 0.0.0.0/0; defaults to the local address the request came in on. */
  serverAddress?: (req: FastifyRequest) => string;
  /** Whether a path nothing serves is the REST router's 404 Status rather than the plain-text one (restful-paths.ts). */
  underRestfulRoot?: (path: string) => boolean;
}

interface Serialized {
  body: string;
  /** Quoted, as it travels in ETag / If-None-Match. */
  etag: string;
}

const serialize = (doc: unknown): Serialized => {
  const body = JSON.stringify(doc);
  return { body, etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"` };
};

const localAddress = (req: FastifyRequest): string => {
  const { localAddress: host = '127.0.0.1', localPort = 443 } = req.socket;
  const bare = host.startsWith('::ffff:') ? host.slice(7) : host;
  return bare.includes(':') ? `[${bare}]:${localPort}` : `${bare}:${localPort}`;
};

const sendLegacy = (reply: FastifyReply, contentType: string, doc: unknown) =>
  contentType === 'application/yaml'
    ? reply.type('application/yaml').send(toYaml(doc))
    : reply.type('application/json').send(JSON.stringify(doc));

export const registerDiscovery = (app: FastifyInstance, source: GroupVersionSource, options: DiscoveryOptions = {}) => {
  const serverAddress = options.serverAddress ?? localAddress;
  // a group or version nobody serves: a Status under a built-in group, else Go's plain-text http.NotFound
  const notFound = (req: FastifyRequest, reply: FastifyReply): void =>
    sendStatusError(req, reply, noRoute(options.underRestfulRoot?.(req.info.path) ?? false));
  const aggregated = keyedCacheBySource(source, (gvs, key) => {
    const [scope, version] = key.split('/') as ['api' | 'apis', AggregatedVersion];
    return serialize(scope === 'api' ? buildAggregatedCore(gvs, version) : buildAggregatedApis(gvs, version));
  });
  const groupList = cachedBySource(source, buildApiGroupList);
  const resourceLists = keyedCacheBySource(source, (gvs, key) => {
    const [group = '', version = ''] = key.split('/');
    const gv = findGroupVersion(gvs, group, version);
    return gv && serialize(buildApiResourceList(gv));
  });

  // A version's resource list: a built-in group's is a GET route of its REST router (another method, HEAD too, is
  // its 405); a custom resource's, served by upstream's crdHandler, answers every method alike.
  const resourceListRoute = async (req: FastifyRequest<{ Params: { group?: string; version: string } }>, reply: FastifyReply): Promise<unknown> => {
    const { group = '', version } = req.params;
    if (req.method !== 'GET' && findGroupVersion(source(), group, version) && options.underRestfulRoot?.(req.info.path)) throw routerMethodNotAllowed();
    return resourceList(group, version, req, reply);
  };

  const root = (scope: 'api' | 'apis') => async (req: FastifyRequest, reply: FastifyReply) => {
    const format = negotiateDiscovery(req.headers.accept);
    reply.header('Vary', 'Accept');
    if (format.kind === 'legacy') {
      return sendLegacy(reply, format.contentType,
        scope === 'api' ? buildApiVersions(source(), serverAddress(req)) : groupList());
    }
    // As upstream's aggregated handler: ETag over the document, 304 when the client already has it.
    const doc = aggregated(`${scope}/${format.version}`);
    reply.header('ETag', doc.etag).header('Cache-Control', 'public');
    if (req.headers['if-none-match'] === doc.etag) return reply.code(304).send();
    // A Buffer keeps fastify from rewriting the media type (it would quote the parameters and add a charset).
    return reply.header('Content-Type', format.contentType).send(Buffer.from(doc.body));
  };

  const resourceList = (group: string, version: string, req: FastifyRequest, reply: FastifyReply) => {
    const doc = resourceLists(`${group}/${version}`);
    if (!doc) return notFound(req, reply);
    const { contentType } = negotiateDiscovery(req.headers.accept);
    if (contentType === 'application/yaml') return sendLegacy(reply, contentType, JSON.parse(doc.body));
    return reply.type('application/json').send(doc.body);
  };

  // /api is the legacy group's REST router; /apis and /apis/<group> are the aggregator's handlers on the plain mux,
  // which answer every method alike
  for (const path of ['/api', '/api/']) restfulGet(app, path, root('api'));
  for (const path of ['/apis', '/apis/']) anyMethod(app, path, root('apis'));

  // Generated clients (@kubernetes/client-node, Python) call these with a trailing slash; upstream serves both.
  for (const slash of ['', '/']) {
    restfulGet(app, `/api/:version${slash}`, async (req, reply) =>
      resourceList('', (req.params as { version: string }).version, req, reply));

    anyMethod<{ group: string }>(app, `/apis/:group${slash}`, async (req, reply) => {
      const doc = buildApiGroup(source(), req.params.group);
      if (!doc) return notFound(req, reply);
      return sendLegacy(reply, negotiateDiscovery(req.headers.accept).contentType, doc);
    });
    anyMethod(app, `/apis/:group/:version${slash}`, resourceListRoute);
  }
};
