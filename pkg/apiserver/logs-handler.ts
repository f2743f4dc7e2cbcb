// /logs/: the files of a log directory, as upstream's --enable-logs-handler serves /var/log (routes.Logs, through Go's
// http.ServeFile): a directory is an HTML list of links (its path without a trailing slash first redirects to one with
// it), a file its bytes. Ours is the data dir's logs/, where `mini-kube up` writes every component's log:
// `kubectl get --raw /logs/apiserver.log`. Only who may get the non-resource URL /logs/* reaches it (cluster-admin).
import { createReadStream } from 'node:fs';
import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { posix } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeGoPath } from '../apimachinery/go-url.js';
import { restfulGet } from './restful-paths.js';

/** Go's http.Error: plain text, a newline, and no sniffing. */
const httpError = (reply: FastifyReply, code: number, text: string): FastifyReply =>
  reply.code(code).header('x-content-type-options', 'nosniff').type('text/plain; charset=utf-8').send(Buffer.from(`${text}\n`));

/** http.ServeFile's redirect relative to the request's path, its query kept; no body. */
const localRedirect = (reply: FastifyReply, request: FastifyRequest, to: string): FastifyReply => {
  const query = request.url.split('?')[1];
  return reply.code(301).header('location', query === undefined ? to : `${to}?${query}`).send();
};

/** html.EscapeString's five characters, as Go's directory listing escapes a name. */
const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c]!);

/** A name as url.URL{Path: name}.String() writes it: escaped, and a colon in it kept from reading as a scheme. */
const href = (name: string): string => {
  const escaped = escapeGoPath(name);
  return escaped.split('/', 1)[0]!.includes(':') ? `./${escaped}` : escaped;
};

/** Go's http.DetectContentType for text, which is all a log directory is expected to hold; else octet-stream. */
async function sniff(file: FileHandle): Promise<string> {
  const head = Buffer.alloc(512);
  const { bytesRead } = await file.read(head, 0, 512, 0);
  const binary = head.subarray(0, bytesRead).some((b) => b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f));
  return binary ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

/** Whether If-Modified-Since is at or after the modification time, to the second (Go's checkIfModifiedSince). */
const notModified = (request: FastifyRequest, mtime: Date): boolean => {
  const since = Date.parse(String(request.headers['if-modified-since'] ?? ''));
  return !Number.isNaN(since) && Math.floor(mtime.getTime() / 1000) * 1000 <= since;
};

async function serveDirectory(request: FastifyRequest, reply: FastifyReply, dir: string, mtime: Date): Promise<FastifyReply> {
  if (notModified(request, mtime)) return reply.code(304).send();
  // sorted by name as Go compares strings, byte by byte
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  const links = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).map((n) => `<a href="${href(n)}">${escapeHtml(n)}</a>\n`).join('');
  return reply.header('last-modified', mtime.toUTCString()).type('text/html; charset=utf-8')
    .send(Buffer.from(`<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n${links}</pre>\n`));
}

async function serveFile(request: FastifyRequest, reply: FastifyReply, file: string): Promise<FastifyReply> {
  const handle = await open(file, 'r');
  try {
    const st = await handle.stat();
    if (notModified(request, st.mtime)) return reply.code(304).send();
    reply.header('last-modified', st.mtime.toUTCString()).header('content-length', String(st.size)).type(await sniff(handle));
  } finally {
    await handle.close();
  }
  return reply.send(createReadStream(file));
}

/** ServeFile's answer for `name` at the request's path (`urlPath`, decoded). */
async function serve(request: FastifyRequest, reply: FastifyReply, urlPath: string, name: string): Promise<FastifyReply> {
  if (urlPath.split(/[/\\]/).includes('..')) return httpError(reply, 400, 'invalid URL path');
  if (urlPath.endsWith('/index.html')) return localRedirect(reply, request, './');
  let st;
  try {
    st = await stat(name);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // upstream checks the name's length first: a name too long is not there
    if (code === 'ENAMETOOLONG') return httpError(reply, 404, 'file not found');
    if (code === 'EACCES' || code === 'EPERM') return httpError(reply, 403, '403 Forbidden');
    return httpError(reply, 404, '404 page not found');
  }
  if (!st.isDirectory()) return serveFile(request, reply, name);
  if (!urlPath.endsWith('/')) return localRedirect(reply, request, `${posix.basename(urlPath)}/`);
  const index = await stat(posix.join(name, 'index.html')).catch(() => undefined);
  if (index?.isFile()) return serveFile(request, reply, posix.join(name, 'index.html'));
  return serveDirectory(request, reply, name, st.mtime);
}

/** Serves `dir` under /logs/: upstream's go-restful routes are GETs, so any other method (HEAD too) is the router's 405. */
export function registerLogsHandler(app: FastifyInstance, dir: string): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const urlPath = request.info.path;
    const rest = urlPath.slice('/logs'.length).replace(/^\//, '');
    return serve(request, reply, urlPath, rest ? posix.join(dir, rest) : dir);
  };
  for (const url of ['/logs', '/logs/*']) restfulGet(app, url, handler);
}
