// Which 404s upstream answers with a Status and which with Go's plain-text http.NotFound. Its director hands a path
// to the go-restful container when the root path of one of its web services is a prefix of it at a segment boundary:
// /api (the legacy discovery), /apis/<group> of every built-in group served (that group's discovery), /version. A
// path there without a route is the container's generic 404 Status (/api/v2, /api//v1/pods, /apis/apps/v9/x); any
// other goes on to the not-found handler (/apis/nosuch.group/v1, a custom resource's unknown version, /version2).
// And which methods a path takes: a go-restful route exactly those it declares (restfulGet: another, HEAD too, is its
// 405); a handler on the plain mux (health checks, the aggregator's /apis) every method alike (anyMethod).
import type {
  FastifyInstance, HTTPMethods, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteHandlerMethod,
} from 'fastify';
import { methodNotAllowed, type StatusError } from '../apimachinery/errors.js';

/** Whether upstream's director gives `path` (no query) to its go-restful container. */
export function underRestfulRoot(path: string, servesBuiltinGroup: (group: string) => boolean): boolean {
  if (underRoot(path, '/api') || underRoot(path, '/version')) return true;
  if (!path.startsWith('/apis/')) return false;
  const group = path.slice('/apis/'.length).split('/', 1)[0]!;
  return group !== '' && servesBuiltinGroup(group);
}

const underRoot = (path: string, root: string): boolean => path === root || path.startsWith(`${root}/`);

/** The methods other than GET: go-restful routes exactly the methods a route declares, so HEAD too. */
const OTHER_METHODS: HTTPMethods[] = ['DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

/** A handler of upstream's plain mux (health checks, the aggregator's /apis): every method is answered alike. */
export function anyMethod<P = unknown>(app: FastifyInstance, url: string, handler: RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, { Params: P }>): void {
  app.route<{ Params: P }>({ method: ['GET', ...OTHER_METHODS], url, handler, exposeHeadRoute: false });
}

/** The REST router's answer to a method none of the routes of a path it serves takes. */
export const routerMethodNotAllowed = (): StatusError => methodNotAllowed('the server does not allow this method on the requested resource', {});

/** A GET-only path of the REST router (/version, /api, /logs): another method, HEAD included, is its 405. */
export function restfulGet(app: FastifyInstance, url: string, handler: RouteHandlerMethod): void {
  app.route({ method: 'GET', url, handler, exposeHeadRoute: false });
  app.route({ method: OTHER_METHODS, url, handler: async () => { throw routerMethodNotAllowed(); } });
}
