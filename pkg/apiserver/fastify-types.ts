// What the request chain attaches to every fastify request, and what the server knows of its settings.
import type { Deadline } from '../apimachinery/deadline.js';
import type { UserInfo } from '../authentication/interface.js';
import type { RequestInfo } from './request-info.js';

declare module 'fastify' {
  interface FastifyRequest {
    info: RequestInfo;
    user?: UserInfo;
    /** When a request that is not long-running is answered 504 Timeout (request-deadline.ts). */
    deadline?: Deadline;
    /** What admission and the registry add to the request's audit event, merged into it as the response completes. */
    auditAnnotations?: Record<string, string>;
    /**
     * The request's warning recorder: what the handlers, decode and admission warn of, sent as Warning headers with
     * whatever response goes out, an error's too (upstream's recorder writes each into the headers as it comes).
     */
    warnings?: string[];
  }
  interface FastifyInstance {
    /** The APIResponseCompression feature gate (on unless turned off): large responses gzipped for clients that accept it. */
    responseCompression: boolean;
    /** --min-request-timeout (seconds): a watch without timeoutSeconds lasts between it and twice it. */
    minRequestTimeoutSeconds: number;
  }
}
