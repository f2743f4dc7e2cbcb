// Node's socket errors in the words of Go's net package, as upstream's probers and proxies print them (pkg/probe/tcp and
// pkg/probe/http hand err.Error() on as the probe's output): "dial tcp 10.244.0.27:80: connect: connection refused",
// not "connect ECONNREFUSED 10.244.0.27:80".
import { isIP } from 'node:net';

/** Go's text of the errnos a probe meets (syscall.Errno.Error()). */
const ERRNO_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by peer',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network is unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'broken pipe',
  EADDRNOTAVAIL: 'cannot assign requested address',
};

/** net.JoinHostPort: an IPv6 address in brackets. */
export const joinHostPort = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** Whether the error is a timeout (Node's ETIMEDOUT): Go's dialer, given the probe's timeout, reports its deadline. */
export const isTimeout = (e: NodeJS.ErrnoException): boolean => e.code === 'ETIMEDOUT';

/**
 * A failed dial as Go's net.Dial reports it (an *net.OpError): "dial tcp <addr>: connect: <errno text>", a host
 * that does not resolve "dial tcp: lookup <host>: no such host", a timeout "dial tcp <addr>: i/o timeout".
 */
export const goDialError = (host: string, port: number, e: NodeJS.ErrnoException): string => {
  const addr = joinHostPort(host, port);
  if (isTimeout(e)) return `dial tcp ${addr}: i/o timeout`;
  if (e.code === 'ENOTFOUND') return `dial tcp: lookup ${host}: no such host`;
  const text = e.code ? ERRNO_TEXT[e.code] : undefined;
  return text ? `dial tcp ${addr}: connect: ${text}` : `dial tcp ${addr}: ${e.message}`;
};

/**
 * An HTTP request's transport error after Go's http.Client: a dial failure as above; the connection closed before
 * an answer "EOF" (Node's "socket hang up"); a reset while reading "read tcp <local>-><remote>: read: connection
 * reset by peer".
 */
export const goTransportError = (host: string, port: number, e: NodeJS.ErrnoException, local?: { address?: string; port?: number }): string => {
  if (e.message === 'socket hang up') return 'EOF';
  if (e.syscall === 'read' && e.code && ERRNO_TEXT[e.code]) {
    const from = local?.address && local.port ? `${joinHostPort(local.address, local.port)}->` : '';
    return `read tcp ${from}${joinHostPort(host, port)}: read: ${ERRNO_TEXT[e.code]}`;
  }
  return goDialError(host, port, e);
};

/** Node's certificate-verification codes that Go words as an unknown authority. */
const UNKNOWN_AUTHORITY = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']);

/** Go's x509.HostnameError for a certificate that does not name the host (`san`: Node's subjectaltname). */
function hostnameError(host: string, san: string | undefined): string {
  const entries = (san ?? '').split(', ').filter(Boolean);
  const isIp = isIP(host) !== 0;
  const names = entries.filter((e) => e.startsWith(isIp ? 'IP Address:' : 'DNS:')).map((e) => e.slice(e.indexOf(':') + 1));
  if (isIp && !names.length) return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
  return `x509: certificate is valid for ${names.join(', ')}, not ${host}`;
}

/** A failed HTTPS connection in Go's words (crypto/tls, net): what upstream's url.Error prints after `Post "<url>": `. */
export function goHttpsTransportError(e: NodeJS.ErrnoException & { cert?: { subjectaltname?: string } }, host: string, port: number, servername: string | undefined): string {
  if (e.code && UNKNOWN_AUTHORITY.has(e.code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (e.code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `tls: failed to verify certificate: ${hostnameError(servername ?? host, e.cert?.subjectaltname)}`;
  // a plain-HTTP server answering the handshake
  if (e.code === 'ERR_SSL_WRONG_VERSION_NUMBER') return 'tls: first record does not look like a TLS handshake';
  return goTransportError(host, port, e);
}
