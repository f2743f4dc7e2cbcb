// Probe actions against real sockets on loopback: HTTP and TCP failures in Go's words (as upstream's prober hands
// err.Error() on), the kube-probe/<major>.<minor> User-Agent of the kubelet's version, exec probes' output.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goDialError, goTransportError } from '../apimachinery/go-net-errors.js';
import { KUBELET_VERSION, PROBE_USER_AGENT } from './node-status.js';
import { execProbe, runAction } from './probes.js';
import type { ExecResult, Runtime } from './runtime/types.js';

/** A port nothing listens on (taken, then given back). */
const closedPort = async (): Promise<number> => {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
};

const noRuntime = {} as Runtime;
const errno = (code: string, syscall = 'connect'): NodeJS.ErrnoException => Object.assign(new Error(`${syscall} ${code} 10.244.0.27:80`), { code, syscall });

describe('probe actions', () => {
  let server: Server;
  let port = 0;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url === '/hangup') { req.socket.destroy(); return; }
      if (req.url === '/slow') return; // never answers
      res.writeHead(req.url === '/bad' ? 503 : 200).end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const http = (path: string, p = port): Promise<{ ok: boolean; message?: string }> =>
    runAction(noRuntime, 'c1', { httpGet: { path, port: p } }, { podIp: '127.0.0.1', timeoutSeconds: 1 });

  it('sends kube-probe/<major>.<minor> of the kubelet\'s own version', async () => {
    expect(KUBELET_VERSION).toMatch(/^v1\.32\./);
    expect(PROBE_USER_AGENT).toBe('kube-probe/1.32');
    expect(await http('/')).toEqual({ ok: true });
    expect(seen.at(-1)!['user-agent']).toBe('kube-probe/1.32');
    expect(await http('/bad')).toEqual({ ok: false, message: 'HTTP probe failed with statuscode: 503' });
  });

  it('reports HTTP transport failures as Go\'s http.Client', async () => {
    const closed = await closedPort();
    expect(await http('/', closed)).toEqual({ ok: false, message: `Get "http://127.0.0.1:${closed}/": dial tcp 127.0.0.1:${closed}: connect: connection refused` });
    expect(await http('/hangup')).toEqual({ ok: false, message: `Get "http://127.0.0.1:${port}/hangup": EOF` });
    expect(await http('/slow')).toEqual({ ok: false, message: `Get "http://127.0.0.1:${port}/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
  });

  it('reports TCP dial failures as Go\'s net.Dial', async () => {
    const closed = await closedPort();
    expect(await runAction(noRuntime, 'c1', { tcpSocket: { port } }, { podIp: '127.0.0.1', timeoutSeconds: 1 })).toEqual({ ok: true });
    expect(await runAction(noRuntime, 'c1', { tcpSocket: { port: closed } }, { podIp: '127.0.0.1', timeoutSeconds: 1 }))
      .toEqual({ ok: false, message: `dial tcp 127.0.0.1:${closed}: connect: connection refused` });
  });

  it('words the usual errnos as Go does', () => {
    expect(goDialError('10.244.0.27', 80, errno('EHOSTUNREACH'))).toBe('dial tcp 10.244.0.27:80: connect: no route to host');
    expect(goDialError('10.244.0.27', 80, errno('ENETUNREACH'))).toBe('dial tcp 10.244.0.27:80: connect: network is unreachable');
    expect(goDialError('10.244.0.27', 80, errno('ECONNRESET'))).toBe('dial tcp 10.244.0.27:80: connect: connection reset by peer');
    expect(goDialError('10.244.0.27', 80, errno('ETIMEDOUT'))).toBe('dial tcp 10.244.0.27:80: i/o timeout');
    expect(goDialError('fd00::5', 8080, errno('ECONNREFUSED'))).toBe('dial tcp [fd00::5]:8080: connect: connection refused');
    expect(goDialError('web.invalid', 80, errno('ENOTFOUND', 'getaddrinfo'))).toBe('dial tcp: lookup web.invalid: no such host');
    expect(goTransportError('10.244.0.27', 80, errno('ECONNRESET', 'read'), { address: '10.244.0.1', port: 51234 }))
      .toBe('read tcp 10.244.0.1:51234->10.244.0.27:80: read: connection reset by peer');
  });

  it('an exec probe\'s message is the command\'s output, whatever its exit code; a timeout says so', async () => {
    const answering = (r: ExecResult): Runtime => ({ execSync: () => Promise.resolve(r) }) as unknown as Runtime;
    expect(await execProbe(answering({ stdout: '', stderr: 'cat: /tmp/healthy: No such file or directory\n', exitCode: 1 }), 'c1', ['cat', '/tmp/healthy'], 1))
      .toEqual({ ok: false, message: 'cat: /tmp/healthy: No such file or directory\n' });
    expect(await execProbe(answering({ stdout: '', stderr: '', exitCode: 1 }), 'c1', ['false'], 1)).toEqual({ ok: false, message: '' });
    expect(await execProbe(answering({ stdout: 'fine\n', stderr: '', exitCode: 0 }), 'c1', ['true'], 1)).toEqual({ ok: true, message: 'fine\n' });
    expect(await execProbe(answering({ stdout: 'x'.repeat(20_000), stderr: '', exitCode: 1 }), 'c1', ['big'], 1)).toMatchObject({ message: 'x'.repeat(10_240) });
    expect(await execProbe(answering({ stdout: '', stderr: '', exitCode: 126, timedOut: true }), 'c1', ['sleep', '10'], 1))
      .toEqual({ ok: false, message: 'command "sleep 10" timed out' });
  });
});
