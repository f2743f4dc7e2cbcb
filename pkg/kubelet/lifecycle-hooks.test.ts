// Lifecycle hook failures in upstream's words (a failed postStart's waiting message): an exec's CRI error and its
// output, an HTTP GET that fails only when it cannot be sent, a sleep cut short.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../client/index.js';
import { runHook } from './lifecycle-hooks.js';
import type { ExecResult, Runtime } from './runtime/types.js';

const pod = { metadata: { name: 'p', namespace: 'ns', uid: 'u-1' } };
const exiting = (r: Partial<ExecResult>): Runtime => ({ execSync: async () => ({ exitCode: 0, stdout: '', stderr: '', ...r }) } as unknown as Runtime);

describe('lifecycle hooks', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('words a failed exec with the command, the CRI error and the output', async () => {
    const failure = await runHook(exiting({ exitCode: 3, stdout: 'hi\n', stderr: 'oops' }), 'c1', { exec: { command: ['sh', '-c', 'echo hi; exit 3'] } },
      { pod, container: 'c', timeoutSeconds: 0 });
    expect(failure).toBe('Exec lifecycle hook ([sh -c echo hi; exit 3]) for Container "c" in Pod "p_ns(u-1)" failed - error: '
      + 'command \'sh -c echo hi; exit 3\' exited with 3: oops, message: "hi\\noops"');
    expect(await runHook(exiting({}), 'c1', { exec: { command: ['true'] } }, { pod, container: 'c', timeoutSeconds: 0 })).toBeUndefined();
  });

  it('takes any HTTP answer as done, and words a GET that could not be sent', async () => {
    expect(await runHook({} as Runtime, 'c1', { httpGet: { path: '/hook', port } }, { pod, container: 'c', podIp: '127.0.0.1', timeoutSeconds: 0 })).toBeUndefined();
    // a port nothing listens on
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
    const closed = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    const failure = await runHook({} as Runtime, 'c1', { httpGet: { path: '/hook', port: closed } }, { pod, container: 'c', podIp: '127.0.0.1', timeoutSeconds: 0 });
    expect(failure).toBe(`HTTP lifecycle hook (/hook) for Container "c" in Pod "p_ns(u-1)" failed - error: Get "http://127.0.0.1:${closed}/hook": dial tcp 127.0.0.1:${closed}: connect: connection refused`);
  });

  it('sleeps on the kubelet\'s clock; one whose context ends first fails as upstream\'s runSleepHandler, not when its container stops', async () => {
    const clock = new FakeClock(0);
    const cancel = new AbortController();
    const stopped = new AbortController();
    const sleeping = runHook({} as Runtime, 'c1', { sleep: { seconds: 5 } }, { pod, container: 'c', timeoutSeconds: 0, clock, signal: cancel.signal, stopped: stopped.signal });
    stopped.abort();
    await clock.advance(5_000);
    expect(await sleeping).toBeUndefined();
    const cut = runHook({} as Runtime, 'c1', { sleep: { seconds: 5 } }, { pod, container: 'c', timeoutSeconds: 0, clock, signal: cancel.signal });
    cancel.abort();
    expect(await cut).toBe('Sleep lifecycle hook (5) for Container "c" in Pod "p_ns(u-1)" failed - error: container terminated before sleep hook finished');
  });
});
