import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePki, type PkiPaths } from '../pkg/pki/index.js';
import { waitForReady } from './readiness.js';

let dir: string;
let pki: PkiPaths;
let ca: string;
let cert: string;
let key: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ready-'));
  pki = await ensurePki(dir, { nodes: [] });
  [ca, cert, key] = await Promise.all([pki.ca.cert, pki.admin.cert, pki.admin.key].map((f) => readFile(f, 'utf8'))) as [string, string, string];
});
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** An HTTPS server that demands a client certificate from the cluster CA and answers 503 `failures` times. */
const serve = async (failures: number): Promise<{ url: string; server: Server; callers: string[] }> => {
  const callers: string[] = [];
  let left = failures;
  const server = createServer({ ca, cert: await readFile(pki.apiserver.cert), key: await readFile(pki.apiserver.key), requestCert: true, rejectUnauthorized: true }, (req, res) => {
    callers.push((req.socket as TLSSocket).getPeerCertificate().subject.CN as string);
    if (left-- > 0) { res.statusCode = 503; res.end('[-]etcd failed'); return; }
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `https://127.0.0.1:${(server.address() as { port: number }).port}/readyz`, server, callers };
};
const close = (s: Server): Promise<void> => new Promise((r) => { s.closeAllConnections(); s.close(() => r()); });

describe('waitForReady', () => {
  it('polls with the client certificate until the server answers 200', async () => {
    const { url, server, callers } = await serve(3);
    await waitForReady({ url, ca, cert, key, timeoutMs: 10_000, intervalMs: 5 });
    expect(callers).toEqual(Array(4).fill('kubernetes-admin'));
    await close(server);
  });

  it('gives up at the deadline with the last answer', async () => {
    const { url, server } = await serve(Infinity);
    await expect(waitForReady({ url, ca, cert, key, timeoutMs: 200, intervalMs: 10 })).rejects.toThrow(/not ready after 0.2s \(last: HTTP 503: \[-\]etcd failed\)/);
    await close(server);
  });

  it('stops at once when aborted', async () => {
    const { url, server } = await serve(Infinity);
    const stop = new AbortController();
    const waiting = waitForReady({ url, ca, cert, key, timeoutMs: 60_000, intervalMs: 10, signal: stop.signal });
    stop.abort(new Error('apiserver died'));
    await expect(waiting).rejects.toThrow();
    await close(server);
  });

  it('reports a refused connection as the last error', async () => {
    const { url, server } = await serve(0);
    await close(server);
    await expect(waitForReady({ url, ca, cert, key, timeoutMs: 100, intervalMs: 10 })).rejects.toThrow(/ECONNREFUSED/);
  });
});
