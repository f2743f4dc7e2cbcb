import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { localTls, wsFramesByRecord } from '../../test/support/tls-records.js';
import { dialTls, setUpgradeHead, spliceUpgrade } from './upgrade.js';

const listening = <T extends Server | ReturnType<typeof createTlsServer>>(s: T): Promise<number> =>
  new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));

const written = (s: TLSSocket, data: string | Buffer): Promise<void> => new Promise((resolve, reject) => s.write(data, (err) => (err ? reject(err) : resolve())));

describe('spliceUpgrade', () => {
  const closers: (() => void)[] = [];
  afterEach(() => { for (const c of closers.splice(0)) c(); });

  it('forwards each record the backend sent as its own record, as Go\'s io.Copy over tls.Conn does', async () => {
    const tls = await localTls();
    const frames = Array.from({ length: 40 }, (_, i) => Buffer.concat([Buffer.from([0x82, 2, 1]), Buffer.from(String.fromCharCode(97 + (i % 26)))]));
    // A backend writing one WebSocket frame per TLS record, each as soon as the one before it is written.
    const backend = createTlsServer({ cert: tls.cert, key: tls.key }, (s) => {
      s.once('data', async () => {
        await written(s, 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
        for (const f of frames) await written(s, f);
        await written(s, Buffer.from([0x88, 2, 0x03, 0xe8]));
      });
      s.on('error', () => undefined);
    });
    const backendPort = await listening(backend);
    const proxy = createHttpsServer({ cert: tls.cert, key: tls.key });
    proxy.on('upgrade', (req, _socket, head: Buffer) => {
      setUpgradeHead(req, head);
      void dialTls({ host: '127.0.0.1', port: backendPort, ca: tls.ca }).then((up) => spliceUpgrade(req, up, req.url!, `127.0.0.1:${backendPort}`));
    });
    const port = await listening(proxy);
    closers.push(() => proxy.close(), () => backend.close());

    const records = await wsFramesByRecord({ host: '127.0.0.1', port, ca: tls.ca }, '/ws', 'v4.channel.k8s.io');
    expect(records).toEqual([...frames.map((f) => [`1:${f.subarray(3).toString()}`]), ['close']]);
  });
});
