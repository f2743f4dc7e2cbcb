// Upstream's pretty printing of JSON responses (isPrettyPrint in the apiserver's negotiation): `?pretty=true` (any
// value strconv.ParseBool takes), or, without the parameter, a User-Agent of curl, Wget or a browser, get the JSON
// indented by two spaces (Go's json.MarshalIndent). Objects, lists, Status errors and discovery alike; the OpenAPI
// documents (served by kube-openapi, not the negotiated writer) and streamed bodies (watches, large lists) as they are.
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What Go's strconv.ParseBool reads as true. */
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** Whether the client asked for indented JSON, as upstream decides it. */
export function prettyWanted(request: FastifyRequest): boolean {
  const url = request.url;
  const q = url.indexOf('?');
  if (q >= 0 && url.includes('pretty', q)) {
    const value = new URLSearchParams(url.slice(q + 1)).get('pretty');
    // a value ParseBool refuses counts as false, as upstream's ignored error leaves it
    if (value) return TRUE.has(value);
  }
  const agent = request.headers['user-agent'];
  return agent !== undefined && (agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0'));
}

export function installPrettyPrint(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!(Buffer.isBuffer(payload) || typeof payload === 'string') || !prettyWanted(request) || request.url.startsWith('/openapi/')) {
      done(null, payload);
      return;
    }
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) {
      done(null, payload);
      return;
    }
    try {
      done(null, Buffer.from(JSON.stringify(JSON.parse(payload.toString()), null, 2)));
    } catch {
      done(null, payload); // not JSON after all (a proxied body): as it came
    }
  });
}
