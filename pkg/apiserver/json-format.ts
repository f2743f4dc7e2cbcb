// The last touch of JSON responses, as upstream's JSON serializer writes them. Compact JSON ends with a newline (Go's
// json.Encoder), so `kubectl get --raw` and curl leave the prompt on a line of its own. Pretty printing, as
// isPrettyPrint in the apiserver's negotiation decides it: `?pretty=true` (any value strconv.ParseBool takes), or,
// without the parameter, a User-Agent of curl, Wget or a browser, gets the JSON indented by two spaces and without
// the newline (json.MarshalIndent). Objects, lists, Status errors and discovery alike; the OpenAPI documents (served
// by kube-openapi, not the negotiated writer) and streamed bodies (watches, large lists: respond.ts ends those) as
// they are.
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

const NEWLINE = Buffer.from('\n');

export function installJsonFormatting(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (!(Buffer.isBuffer(payload) || typeof payload === 'string') || typeof type !== 'string' || !type.startsWith('application/json')
      || request.url.startsWith('/openapi/')) {
      done(null, payload);
      return;
    }
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (!prettyWanted(request)) {
      done(null, body.length === 0 || body[body.length - 1] === 0x0a ? body : Buffer.concat([body, NEWLINE], body.length + 1));
      return;
    }
    try {
      done(null, Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2)));
    } catch {
      done(null, body); // not JSON after all (a proxied body): as it came
    }
  });
}
