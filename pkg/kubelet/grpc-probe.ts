// The gRPC probe (upstream pkg/probe/grpc): one grpc.health.v1.Health/Check call over plaintext HTTP/2. The request
// is a length-prefixed HealthCheckRequest { string service = 1 }, the answer a HealthCheckResponse
// { ServingStatus status = 1 } and a grpc-status trailer. Results and messages as upstream's prober.
import { connect, constants } from 'node:http2';
import { realClock } from '../client/index.js';
import { goDialError, joinHostPort } from '../apimachinery/go-net-errors.js';
import { PROBE_USER_AGENT } from './node-status.js';
import type { ProbeResult } from './probes.js';

const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'];
const GRPC_CODES = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied',
  'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];

const varint = (n: number): Buffer => {
  const out: number[] = [];
  while (n > 0x7f) { out.push((n & 0x7f) | 0x80); n >>>= 7; }
  out.push(n);
  return Buffer.from(out);
};

/** A gRPC message frame (uncompressed) around the HealthCheckRequest for `service`. */
export const healthCheckRequest = (service: string): Buffer => {
  const name = Buffer.from(service);
  const msg = name.length ? Buffer.concat([Buffer.from([0x0a]), varint(name.length), name]) : Buffer.alloc(0);
  const head = Buffer.alloc(5);
  head.writeUInt32BE(msg.length, 1);
  return Buffer.concat([head, msg]);
};

const readVarint = (b: Buffer, at: number): [value: number, next: number] => {
  let value = 0;
  let shift = 0;
  let i = at;
  while (i < b.length) {
    const x = b[i++]!;
    value += (x & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(x & 0x80)) break;
  }
  return [value, i];
};

/** The status field of a framed HealthCheckResponse (0, UNKNOWN, when absent). */
export const servingStatus = (frame: Buffer): number => {
  const msg = frame.subarray(5, 5 + (frame.length >= 5 ? frame.readUInt32BE(1) : 0));
  for (let i = 0; i < msg.length;) {
    const [tag, afterTag] = readVarint(msg, i);
    const [value, next] = readVarint(msg, afterTag);
    if ((tag & 7) === 0 && tag >> 3 === 1) return value;
    if ((tag & 7) === 0) i = next;
    else if ((tag & 7) === 2) i = next + value;
    else return 0; // no other wire types in this message
  }
  return 0;
};

const goSeconds = (s: number): string => (s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`);


export function grpcProbe(host: string, port: number, service: string, timeoutSeconds: number): Promise<ProbeResult> {
  const addr = joinHostPort(host, port);
  const timeout = goSeconds(timeoutSeconds);
  return new Promise<ProbeResult>((resolve) => {
    let connected = false;
    let done = false;
    const session = connect(`http://${addr}`);
    const finish = (r: ProbeResult): void => {
      if (done) return;
      done = true;
      timer.cancel();
      session.destroy();
      resolve(r);
    };
    const timer = realClock.setTimer(() => finish({
      ok: false,
      message: connected ? `timeout: health rpc did not complete within ${timeout}` : `timeout: failed to connect service "${addr}" within ${timeout}: context deadline exceeded`,
    }), timeoutSeconds * 1000);
    session.on('error', (e: NodeJS.ErrnoException) => finish({
      ok: false, message: connected ? `error: health rpc probe failed: rpc error: code = Unavailable desc = ${e.message}` : `error: failed to connect service at "${addr}": connection error: desc = "transport: Error while dialing: ${goDialError(host, port, e)}"`,
    }));
    session.on('connect', () => { connected = true; });
    const req = session.request({
      [constants.HTTP2_HEADER_METHOD]: 'POST', [constants.HTTP2_HEADER_PATH]: '/grpc.health.v1.Health/Check',
      'content-type': 'application/grpc', te: 'trailers', 'user-agent': PROBE_USER_AGENT, 'grpc-timeout': `${timeoutSeconds}S`,
    });
    const chunks: Buffer[] = [];
    let status: string | undefined;
    let message = '';
    const grpcStatus = (h: Record<string, unknown>): void => {
      if (h['grpc-status'] !== undefined) { status = String(h['grpc-status']); message = decodeURIComponent(String(h['grpc-message'] ?? '')); }
    };
    req.on('response', (h) => {
      grpcStatus(h);
      const code = Number(h[':status']);
      if (code !== 200 && status === undefined) finish({ ok: false, message: `error: health rpc probe failed: rpc error: code = Unknown desc = unexpected HTTP status code received from server: ${code}` });
    });
    req.on('trailers', (h) => grpcStatus(h));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => undefined); // the session's error handler answers
    req.on('end', () => {
      const code = Number(status ?? 2);
      if (code === 12) return finish({ ok: false, message: `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${message}` });
      if (code === 4) return finish({ ok: false, message: `timeout: health rpc did not complete within ${timeout}` });
      if (code !== 0) return finish({ ok: false, message: `error: health rpc probe failed: rpc error: code = ${GRPC_CODES[code] ?? `Code(${code})`} desc = ${message}` });
      const serving = servingStatus(Buffer.concat(chunks));
      finish(serving === 1 ? { ok: true } : { ok: false, message: `service unhealthy (responded with "${SERVING_STATUS[serving] ?? String(serving)}")` });
    });
    req.end(healthCheckRequest(service));
  });
}
