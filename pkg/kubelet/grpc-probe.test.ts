// The gRPC probe against a small grpc.health.v1 server on node:http2 (plaintext, as a pod's would be).
import { createServer, type Http2Server } from 'node:http2';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcProbe, healthCheckRequest, servingStatus } from './grpc-probe.js';

const frame = (status: number): Buffer => {
  const msg = status ? Buffer.from([0x08, status]) : Buffer.alloc(0);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(msg.length, 1);
  return Buffer.concat([head, msg]);
};

/** The service name of a framed HealthCheckRequest (what a server reads). */
const serviceOf = (body: Buffer): string => (body.length > 5 ? body.subarray(7, 7 + body[6]!).toString() : '');

describe('grpc probe', () => {
  let server: Http2Server;
  let port = 0;
  const seen: Record<string, unknown>[] = [];

  beforeAll(async () => {
    server = createServer();
    server.on('stream', (stream, headers) => {
      seen.push(headers);
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (headers[':path'] !== '/grpc.health.v1.Health/Check') {
          stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12', 'grpc-message': 'unknown service grpc.health.v1.Health' }, { endStream: true });
          return;
        }
        const service = serviceOf(Buffer.concat(chunks));
        if (service === 'slow') return; // never answers
        if (service === 'nope') {
          stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5', 'grpc-message': 'unknown service' }, { endStream: true });
          return;
        }
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(frame(service === 'down' ? 2 : 1));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => { await new Promise((r) => server.close(r)); });

  it('frames the request and reads the response as protobuf', () => {
    expect(healthCheckRequest('')).toEqual(Buffer.from([0, 0, 0, 0, 0]));
    expect(serviceOf(healthCheckRequest('db'))).toBe('db');
    expect(servingStatus(frame(1))).toBe(1);
    expect(servingStatus(frame(0))).toBe(0);
  });

  it('succeeds on SERVING; fails with upstream\'s messages otherwise', async () => {
    expect(await grpcProbe('127.0.0.1', port, '', 1)).toEqual({ ok: true });
    expect(seen.at(-1)).toMatchObject({ 'content-type': 'application/grpc', 'user-agent': 'kube-probe/1.32' });
    expect(await grpcProbe('127.0.0.1', port, 'down', 1)).toEqual({ ok: false, message: 'service unhealthy (responded with "NOT_SERVING")' });
    expect(await grpcProbe('127.0.0.1', port, 'nope', 1)).toEqual({ ok: false, message: 'error: health rpc probe failed: rpc error: code = NotFound desc = unknown service' });
    expect(await grpcProbe('127.0.0.1', port, 'slow', 1)).toEqual({ ok: false, message: 'timeout: health rpc did not complete within 1s' });
  });

  it('reports a closed port and a server without the health service', async () => {
    const free = createTcpServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const closed = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    expect(await grpcProbe('127.0.0.1', closed, '', 1)).toEqual({
      ok: false, message: `error: failed to connect service at "127.0.0.1:${closed}": connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:${closed}: connect: connection refused"`,
    });
  });
});
