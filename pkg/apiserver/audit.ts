// Audit: one audit.k8s.io/v1 Event per request at ResponseComplete, Metadata level, as JSON lines
// (upstream's log backend). Policies with per-rule levels and the other stages arrive with the
// security chain; without --audit-log-path nothing is recorded.
import { createWriteStream, type WriteStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface Audit {
  begin(request: FastifyRequest, reply: FastifyReply): void;
  close(): Promise<void>;
}

const micro = (d: Date): string => d.toISOString().replace('Z', '000Z');

export function createAudit(logPath: string | undefined): Audit {
  if (!logPath) return { begin: () => {}, close: async () => {} };
  const out: WriteStream = createWriteStream(logPath, { flags: 'a' });
  return {
    begin(request, reply) {
      const received = new Date();
      const auditID = randomUUID();
      reply.header('audit-id', auditID);
      reply.raw.once('finish', () => {
        const i = request.info;
        const event = {
          kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID, stage: 'ResponseComplete',
          requestURI: request.url, verb: i.verb, user: request.user, sourceIPs: [request.ip],
          userAgent: request.headers['user-agent'],
          objectRef: i.isResourceRequest ? { resource: i.resource, namespace: i.namespace || undefined, name: i.name || undefined, apiGroup: i.apiGroup || undefined, apiVersion: i.apiVersion, subresource: i.subresource || undefined } : undefined,
          responseStatus: { metadata: {}, code: reply.statusCode },
          requestReceivedTimestamp: micro(received), stageTimestamp: micro(new Date()),
        };
        out.write(JSON.stringify(event) + '\n');
      });
    },
    close: () => new Promise((resolve) => out.end(resolve)),
  };
}
