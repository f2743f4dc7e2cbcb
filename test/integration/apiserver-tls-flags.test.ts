// --tls-min-version and --tls-cipher-suites as kube-apiserver reads them (Go's names): what a client may negotiate.
import { connect, type ConnectionOptions } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

const running: TestApiServer[] = [];
afterAll(async () => { for (const s of running) await s.close(); });
const start = async (o: { tlsMinVersion?: string; tlsCipherSuites?: string[] }): Promise<TestApiServer> => {
  const s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [], ...o });
  running.push(s);
  return s;
};

/** The negotiated protocol and cipher, or the handshake's error. */
const handshake = (s: TestApiServer, o: ConnectionOptions): Promise<string> => new Promise((resolve) => {
  const socket = connect({ host: '127.0.0.1', port: s.server.port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], ...o }, () => {
    resolve(`${socket.getProtocol()} ${socket.getCipher().name}`);
    socket.end();
  });
  socket.on('error', (err) => resolve(`error: ${err.message}`));
});

describe('serving TLS flags', () => {
  it('takes TLS 1.2 and 1.3 by default, AES-128-GCM first for TLS 1.3 as Go', async () => {
    const s = await start({});
    expect(await handshake(s, {})).toBe('TLSv1.3 TLS_AES_128_GCM_SHA256');
    expect(await handshake(s, { maxVersion: 'TLSv1.2' })).toMatch(/^TLSv1\.2 ECDHE-ECDSA-/);
    expect(await handshake(s, { maxVersion: 'TLSv1.1', minVersion: 'TLSv1' })).toMatch(/^error: /);
  });

  it('--tls-min-version=VersionTLS13 refuses TLS 1.2 clients', async () => {
    const s = await start({ tlsMinVersion: 'VersionTLS13' });
    expect(await handshake(s, { maxVersion: 'TLSv1.2' })).toMatch(/^error: .*(protocol version|alert)/);
    expect(await handshake(s, {})).toBe('TLSv1.3 TLS_AES_128_GCM_SHA256');
  });

  it('--tls-cipher-suites limits TLS 1.2 to the named suites', async () => {
    const s = await start({ tlsCipherSuites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_AES_128_GCM_SHA256'] });
    expect(await handshake(s, { maxVersion: 'TLSv1.2' })).toBe('TLSv1.2 ECDHE-ECDSA-AES256-GCM-SHA384');
    expect(await handshake(s, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' })).toMatch(/^error: /);
    expect(await handshake(s, {})).toBe('TLSv1.3 TLS_AES_128_GCM_SHA256');
  });
});
