// The baseline: a bare fastify HTTPS server with the apiserver's TLS setup (HTTP/2 with HTTP/1.1 fallback,
// client certificates requested and checked against the same CA) and the least a JSON object server does:
// POST parses the body and keeps it in a Map, GET returns one, a list returns all, a watch is a chunked
// stream and POST /events writes one line to every watcher. No auth chain, validation, storage or fsync.
// Run as its own process by run.ts: node bare-server.js <port> <cert> <key> <ca>
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import Fastify from 'fastify';

const [portArg, certFile, keyFile, caFile] = process.argv.slice(2);
if (!portArg || !certFile || !keyFile || !caFile) {
  process.stderr.write('usage: bare-server <port> <cert> <key> <ca>\n');
  process.exit(2);
}

type Obj = { metadata?: { name?: string } };
const collections = new Map<string, Map<string, Obj>>();
const collection = (name: string): Map<string, Obj> => {
  let c = collections.get(name);
  if (!c) collections.set(name, (c = new Map()));
  return c;
};
const watchers = new Set<ServerResponse>();

const app = Fastify({
  http2: true,
  https: { allowHTTP1: true, key: readFileSync(keyFile), cert: readFileSync(certFile), ca: readFileSync(caFile), requestCert: true, rejectUnauthorized: false },
  bodyLimit: 3 * 1024 * 1024,
  logger: false,
});

app.get('/readyz', async (_req, reply) => reply.type('text/plain').send('ok'));

app.post<{ Params: { coll: string } }>('/objects/:coll', async (request, reply) => {
  const obj = request.body as Obj;
  const name = obj.metadata?.name;
  if (!name) return reply.code(400).send({ message: 'metadata.name required' });
  collection(request.params.coll).set(name, obj);
  return reply.code(201).send(obj);
});

// Replaces a collection with a List's items: loads the objects exactly as the apiserver stored them (defaults,
// managedFields), so that the list and memory figures compare the same data.
app.put<{ Params: { coll: string } }>('/objects/:coll', { bodyLimit: 512 * 1024 * 1024 }, async (request, reply) => {
  const items = (request.body as { items: Obj[] }).items;
  collections.set(request.params.coll, new Map(items.map((o) => [o.metadata!.name!, o])));
  return reply.code(200).send({ count: items.length });
});

app.get<{ Params: { coll: string; name: string } }>('/objects/:coll/:name', async (request, reply) => {
  const obj = collection(request.params.coll).get(request.params.name);
  if (!obj) return reply.code(404).send({ message: 'not found' });
  return reply.send(obj);
});

app.get<{ Params: { coll: string } }>('/objects/:coll', async (request, reply) => {
  return reply.send({ kind: 'List', apiVersion: 'v1', metadata: {}, items: [...collection(request.params.coll).values()] });
});

app.get('/watch', (request, reply) => {
  reply.hijack();
  const res = reply.raw as unknown as ServerResponse;
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
  res.flushHeaders();
  watchers.add(res);
  const drop = (): void => {
    watchers.delete(res);
  };
  res.on('close', drop);
  request.raw.on('close', drop);
});

app.post('/events', async (request, reply) => {
  const obj = request.body as Obj;
  const frame = Buffer.from(`{"type":"ADDED","object":${JSON.stringify(obj)}}\n`);
  for (const w of watchers) w.write(frame);
  return reply.code(201).send(obj);
});

app.listen({ host: '127.0.0.1', port: Number(portArg) }).catch((err: unknown) => {
  process.stderr.write(`bare-server: ${String(err)}\n`);
  process.exit(1);
});

// Nothing to flush: keep-alive connections from the load generator need not be waited for.
const stop = (): void => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
