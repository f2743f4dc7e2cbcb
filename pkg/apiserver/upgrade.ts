// HTTP/1.1 upgrades proxied as upstream's UpgradeAwareHandler (exec, attach and port-forward to a kubelet; WebSocket
// or SPDY requests to an aggregated API): the request is written to the backend as it came, less the client's
// credentials and plus what the proxy asserts, then the two sockets are spliced so that the backend's 101 (or its
// error) and every frame after it pass through untouched, each chunk read from one side written to the other alone.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';

/** The bytes that came after an upgrade request's headers, kept by the server's 'upgrade' listener. */
const upgradeHeads = new WeakMap<IncomingMessage, Buffer>();
export const setUpgradeHead = (req: IncomingMessage, head: Buffer): void => { upgradeHeads.set(req, head); };
/** The head of an upgrade request; undefined for a plain request. */
export const upgradeHead = (req: IncomingMessage): Buffer | undefined => upgradeHeads.get(req);

/** Request headers that carry the client's credentials to us, not to the backend. */
const PRIVATE_HEADER = /^(authorization|proxy-authorization|impersonate-.*|x-remote-.*|host)$/i;

/** A TLS connection over HTTP/1.1 (upgrades have no HTTP/2 form here). */
export const dialTls = (o: ConnectionOptions): Promise<TLSSocket> => new Promise<TLSSocket>((resolve, reject) => {
  const s = tlsConnect({ ...o, ALPNProtocols: ['http/1.1'] });
  s.once('secureConnect', () => { s.off('error', reject); resolve(s); });
  s.once('error', reject);
});

/**
 * Sends `raw` (an upgrade request) to `upstream` as `pathAndQuery` with `host` and the extra headers, then splices
 * the client's socket and `upstream` until either closes.
 */
export function spliceUpgrade(raw: IncomingMessage, upstream: Socket, pathAndQuery: string, host: string, extra: Record<string, string | string[]> = {}): void {
  const head = upgradeHead(raw) ?? Buffer.alloc(0);
  const lines: string[] = [`${raw.method} ${pathAndQuery} HTTP/1.1`, `Host: ${host}`];
  for (let i = 0; i < raw.rawHeaders.length; i += 2) if (!PRIVATE_HEADER.test(raw.rawHeaders[i]!)) lines.push(`${raw.rawHeaders[i]}: ${raw.rawHeaders[i + 1]}`);
  for (const [h, v] of Object.entries(extra)) for (const x of ([] as string[]).concat(v)) lines.push(`${h}: ${x}`);
  upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (head.length) upstream.write(head);
  const client = raw.socket;
  const teardown = (): void => { client.destroy(); upstream.destroy(); };
  client.on('error', teardown);
  upstream.on('error', teardown);
  client.once('close', teardown);
  upstream.once('close', teardown);
  copyChunks(client, upstream);
  copyChunks(upstream, client);
}

/**
 * Copies as Go's io.Copy does, each chunk read written on its own once the one before it is written: from a TLS
 * peer a chunk is one record, and so it leaves as one. A stream pipe would hand the chunks that come while a write
 * is in flight to writev, which a TLS socket encrypts as one record, and a client that reads one WebSocket frame and
 * then waits on its socket would miss the next one decrypted with it (the Python client before
 * kubernetes-client/python#2646 hangs after exec's status when the close frame shares its record).
 */
function copyChunks(from: Socket, to: Socket): void {
  from.on('data', (chunk: Buffer) => {
    from.pause();
    to.write(chunk, (err) => { if (!err) from.resume(); });
  });
  from.once('end', () => to.end());
}
