import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installJsonFormatting } from './json-format.js';

const app = Fastify();
installJsonFormatting(app);
const body = Buffer.from('{"kind":"Status","code":404}');
app.get('/api/thing', (_req, reply) => reply.type('application/json').send(body));
app.get('/openapi/v3', (_req, reply) => reply.type('application/json').send(body));
app.get('/healthz', (_req, reply) => reply.type('text/plain').send(Buffer.from('{"ok":1}')));

const get = async (url: string, agent = 'kubectl/v1.32.3'): Promise<string> => (await app.inject({ url, headers: { 'user-agent': agent } })).body;
const INDENTED = '{\n  "kind": "Status",\n  "code": 404\n}';

describe('JSON responses', () => {
  it('end compact JSON with a newline, as Go\'s json.Encoder', async () => {
    expect(await get('/api/thing')).toBe(`${body.toString()}\n`);
  });

  it('indents JSON for ?pretty=true and for curl, Wget and browsers, as upstream, without the newline', async () => {
    expect(await get('/api/thing?pretty=true')).toBe(INDENTED);
    expect(await get('/api/thing?pretty=1')).toBe(INDENTED);
    expect(await get('/api/thing', 'curl/8.5.0')).toBe(INDENTED);
    expect(await get('/api/thing', 'Wget/1.21')).toBe(INDENTED);
    expect(await get('/api/thing', 'Mozilla/5.0 (X11)')).toBe(INDENTED);
  });

  it('leaves it compact when asked (or asked with a value that is not a boolean), and other bodies alone', async () => {
    expect(await get('/api/thing?pretty=false', 'curl/8.5.0')).toBe(`${body.toString()}\n`);
    expect(await get('/api/thing?pretty=yes', 'curl/8.5.0')).toBe(`${body.toString()}\n`);
    expect(await get('/api/thing?pretty=', 'curl/8.5.0')).toBe(INDENTED);
    expect(await get('/openapi/v3', 'curl/8.5.0')).toBe(body.toString());
    expect(await get('/healthz?pretty=true')).toBe('{"ok":1}');
  });
});
