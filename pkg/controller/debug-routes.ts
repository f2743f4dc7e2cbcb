// /debug/controllers/<name>/... of the controller-manager's secure port: each controller that offers a debugging
// endpoint (the garbage collector's /graph) answers below its name, as upstream mounts them with StripPrefix.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { send } from '../client/index.js';
import type { DebugHandler } from './shared/types.js';

const PREFIX = /^\/debug\/controllers\/([^/]+)(\/.*)?$/;

export class DebugRoutes {
  private readonly handlers = new Map<string, DebugHandler>();

  set(name: string, handler: DebugHandler): void {
    this.handlers.set(name, handler);
  }

  /** The secure server's handler of every path it does not serve itself. */
  readonly serve = (_req: IncomingMessage, res: ServerResponse, _who: unknown, url: URL): void => {
    const m = PREFIX.exec(url.pathname);
    const handler = m ? this.handlers.get(m[1]!) : undefined;
    if (!handler) { send(res, 404, '404 page not found\n'); return; }
    const r = handler(m![2] ?? '', url.searchParams);
    res.writeHead(r.status, { 'content-type': r.contentType, 'x-content-type-options': 'nosniff' });
    res.end(r.body);
  };
}
