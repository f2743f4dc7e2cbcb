// What the request chain attaches to every fastify request.
import type { UserInfo } from '../authentication/interface.js';
import type { RequestInfo } from './request-info.js';

declare module 'fastify' {
  interface FastifyRequest {
    info: RequestInfo;
    user?: UserInfo;
  }
}
