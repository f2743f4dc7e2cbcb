import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { localTls, wsFramesByRecord } from '../../../test/support/tls-records.js';
import { acceptWebSocket, WsChannels } from './wsstream.js';

describe('WsChannels', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => { if (server) server.close(() => resolve()); else resolve(); }));

  /** A server whose channels (held holdMs) send `script`'s messages at once and close; what the client saw, timed. */
  const session = async (holdMs: number, script: (ch: WsChannels) => void): Promise<{ at: number; data: string }[]> => {
    server = createServer();
    server.on('upgrade', (req, socket, head) => {
      void acceptWebSocket(req, socket, head, ['v5.channel.k8s.io']).then((ws) => { if (ws) script(new WsChannels(ws, false, holdMs)); });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`, ['v5.channel.k8s.io']);
    const seen: { at: number; data: string }[] = [];
    let opened = 0;
    client.on('open', () => { opened = performance.now(); });
    client.on('message', (m: Buffer) => seen.push({ at: performance.now() - opened, data: `${m[0]}:${m.subarray(1).toString()}` }));
    await new Promise((resolve) => client.on('close', resolve));
    seen.push({ at: performance.now() - opened, data: 'closed' });
    return seen;
  };

  it('holds what it sends after the handshake, then sends it in order and closes after it', async () => {
    const seen = await session(150, (ch) => {
      ch.send(1, Buffer.from('hello'));
      ch.send(2, Buffer.from('oops'));
      ch.output(1).end('more', () => ch.close());
    });
    expect(seen.map((m) => m.data)).toEqual(['1:hello', '2:oops', '1:more', 'closed']);
    // The client's clock starts a little after the server's, at its 'open'.
    expect(seen[0]!.at).toBeGreaterThanOrEqual(100);
  });

  it('closes only after what its outputs still have queued', async () => {
    const seen = await session(0, (ch) => {
      const out = ch.output(1);
      for (const s of ['a', 'b', 'c']) out.write(s);
      ch.close();
    });
    expect(seen.map((m) => m.data)).toEqual(['1:a', '1:b', '1:c', 'closed']);
  });

  it('without a hold sends at once', async () => {
    const seen = await session(0, (ch) => { ch.send(1, Buffer.from('now')); ch.close(); });
    expect(seen.map((m) => m.data)).toEqual(['1:now', 'closed']);
  });

  it('sends every frame in its own TLS record, the close frame after the status too (held or not)', async () => {
    const tls = await localTls();
    for (const holdMs of [50, 0]) {
      server = createHttpsServer({ cert: tls.cert, key: tls.key });
      server.on('upgrade', (req, socket, head) => {
        void acceptWebSocket(req, socket, head, ['v4.channel.k8s.io']).then((ws) => {
          if (!ws) return;
          // what exec sends: the streams-ready message, output, then the status and the close at once
          const ch = new WsChannels(ws, false, holdMs);
          ch.send(1, Buffer.alloc(0));
          ch.output(1).end('hi\n');
          ch.output(3).end('{"status":"Success"}', () => ch.close());
        });
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
      const records = await wsFramesByRecord({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, ca: tls.ca }, '/', 'v4.channel.k8s.io');
      expect(records, `held ${holdMs} ms`).toEqual([['1:'], ['1:hi\n'], ['3:{"status":"Success"}'], ['close']]);
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    }
  });
});
