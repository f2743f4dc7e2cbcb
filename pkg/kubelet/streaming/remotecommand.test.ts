import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { StreamingSession } from '../runtime/types.js';
import { remoteCommandOptions, serveRemoteCommand } from './remotecommand.js';

describe('serveRemoteCommand over WebSocket channels', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => { if (server) server.close(() => resolve()); else resolve(); }));

  /** Serves one exec whose session `feed` drives; returns the frames the client saw, in order. */
  const execFrames = async (feed: (out: PassThrough) => Promise<number>): Promise<string[]> => {
    server = createServer();
    server.on('upgrade', (req, socket, head) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      serveRemoteCommand(req, socket, head, remoteCommandOptions(q), {
        exitCodes: true, describe: '[sh]', failure: 'error executing command in container', logger: pino({ level: 'silent' }),
        start: () => {
          const stdout = new PassThrough();
          const session: StreamingSession = { stdout, exited: feed(stdout), resize: () => undefined, close: () => undefined };
          return Promise.resolve(session);
        },
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/?output=1`, ['v5.channel.k8s.io']);
    const seen: string[] = [];
    client.on('message', (m: Buffer) => { if (m.length > 1) seen.push(`${m[0]}:${m.subarray(1).toString()}`); });
    await new Promise((resolve) => client.on('close', resolve));
    return seen;
  };

  it('writes the exit status only after all of the output, and closes without dropping any', async () => {
    // A quick command's output in several chunks, all within the hold after the handshake: they queue up behind
    // the first one, and the status must still come after them.
    const seen = await execFrames(async (out) => {
      for (const s of ['a\n', 'b\n', 'c\n', 'd\n', 'e\n']) { out.write(s); await new Promise((r) => setImmediate(r)); }
      out.end();
      return 0;
    });
    expect(seen).toEqual(['1:a\n', '1:b\n', '1:c\n', '1:d\n', '1:e\n', '3:{"metadata":{},"status":"Success"}']);
  });

  it('cuts output that outlives the command without failing the session', async () => {
    const seen = await execFrames(async (out) => {
      out.write('x\n');
      const t = setInterval(() => out.write('late\n'), 200);
      setTimeout(() => { clearInterval(t); out.end(); }, 2_600);
      return 0;
    });
    expect(seen[0]).toBe('1:x\n');
    expect(seen.at(-1)).toBe('3:{"metadata":{},"status":"Success"}');
  }, 10_000);

  it('resizes the terminal to the sizes on channel 4, whatever the case of their keys (as Go\'s json.Decoder reads them)', async () => {
    server = createServer();
    const sizes: [number, number][] = [];
    const stdout = new PassThrough();
    let exit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => { exit = resolve; });
    server.on('upgrade', (req, socket, head) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      serveRemoteCommand(req, socket, head, remoteCommandOptions(q), {
        exitCodes: true, describe: '[sh]', failure: 'error executing command in container', logger: pino({ level: 'silent' }),
        start: () => Promise.resolve({ stdout, exited, resize: (w, h) => { sizes.push([w, h]); if (sizes.length === 3) { stdout.end(); exit(0); } }, close: () => undefined }),
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/?output=1&tty=1`, ['v5.channel.k8s.io']);
    await new Promise((resolve) => client.on('open', resolve));
    // @kubernetes/client-node writes {"height":H,"width":W}; a zero size is skipped, as upstream's HandleResizing does
    for (const size of ['{"height":41,"width":101}', '{"Width":80,"Height":24}', '{"width":0,"height":9}', '{"WIDTH":120,', '"Height":40}']) {
      client.send(Buffer.concat([Buffer.from([4]), Buffer.from(size)]));
    }
    await new Promise((resolve) => client.on('close', resolve));
    expect(sizes).toEqual([[101, 41], [80, 24], [120, 40]]);
  });
});
