import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusError, unauthorized } from '../apimachinery/errors.js';
import { ensurePki, type PkiPaths } from '../pki/index.js';
import { anonymousAuthenticator } from './anonymous.js';
import { buildAuthenticator } from './index.js';
import type { Authenticator, AuthnRequest } from './interface.js';
import { unionAuthenticator } from './union.js';

const fixed = (name: string, result: 'null' | 'reject' | { user: string; groups: string[] }): Authenticator => ({
  name,
  authenticate: () => result === 'null' ? Promise.resolve(null)
    : result === 'reject' ? Promise.reject(unauthorized(`${name} says no`))
    : Promise.resolve({ user: { name: result.user, groups: result.groups } }),
});
const noCredential: AuthnRequest = { headers: {} };

describe('unionAuthenticator', () => {
  it('asks in order until one answers, and appends system:authenticated', async () => {
    const u = unionAuthenticator([fixed('a', 'null'), fixed('b', { user: 'bob', groups: ['dev'] }), fixed('c', 'reject')]);
    expect((await u.authenticate(noCredential)).user).toEqual({ name: 'bob', groups: ['dev', 'system:authenticated'] });
  });

  it('does not add system:authenticated twice', async () => {
    const u = unionAuthenticator([fixed('a', { user: 'x', groups: ['system:authenticated'] })]);
    expect((await u.authenticate(noCredential)).user.groups).toEqual(['system:authenticated']);
  });

  it('a rejected credential is 401 even with anonymous on, with the reasons kept as the cause', async () => {
    const u = unionAuthenticator([fixed('a', 'reject'), fixed('b', 'null')], anonymousAuthenticator);
    const err = (await u.authenticate(noCredential).catch((e: unknown) => e)) as StatusError;
    expect(err).toBeInstanceOf(StatusError);
    expect(err.toStatus()).toMatchObject({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
    expect(String((err.cause as Error).message)).toBe('a: a says no');
  });

  it('a later acceptance wins over an earlier rejection', async () => {
    const u = unionAuthenticator([fixed('a', 'reject'), fixed('b', { user: 'bob', groups: [] })]);
    expect((await u.authenticate(noCredential)).user.name).toBe('bob');
  });

  it('no credential: anonymous when enabled, else 401', async () => {
    expect((await unionAuthenticator([fixed('a', 'null')], anonymousAuthenticator).authenticate(noCredential)).user)
      .toEqual({ name: 'system:anonymous', groups: ['system:unauthenticated'] });
    await expect(unionAuthenticator([fixed('a', 'null')]).authenticate(noCredential)).rejects.toMatchObject({ code: 401 });
  });

  it('a bearer token nobody knew is 401, not anonymous', async () => {
    const u = unionAuthenticator([fixed('a', 'null')], anonymousAuthenticator);
    await expect(u.authenticate({ headers: { authorization: 'Bearer abc' } })).rejects.toMatchObject({ code: 401 });
  });

  it('an Authorization header of another scheme, or without a token, is no credential: anonymous', async () => {
    const u = unionAuthenticator([fixed('a', 'null')], anonymousAuthenticator);
    for (const authorization of ['Negotiate abc', 'Basic dTpw', 'Bearer', 'bearer ']) {
      expect((await u.authenticate({ headers: { authorization } })).user.name).toBe('system:anonymous');
    }
    await expect(unionAuthenticator([fixed('a', 'null')]).authenticate({ headers: { authorization: 'Basic dTpw' } })).rejects.toMatchObject({ code: 401 });
  });

  it('errors other than 401 are not swallowed', async () => {
    const boom: Authenticator = { name: 'boom', authenticate: () => Promise.reject(new Error('disk on fire')) };
    await expect(unionAuthenticator([boom], anonymousAuthenticator).authenticate(noCredential)).rejects.toThrow('disk on fire');
  });
});

describe('buildAuthenticator over a real TLS connection', () => {
  let dir: string;
  let pki: PkiPaths;
  let tokenFile: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authn-build-'));
    pki = await ensurePki(join(dir, 'pki'), { nodes: [] });
    tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, 'tok,carol,7,"qa"\n');
  });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  /** Connects with the given client certificate (or none) and returns what the server side saw. */
  const handshake = async (client?: { cert: string; key: string }): Promise<AuthnRequest> => {
    const [ca, cert, key] = await Promise.all([pki.ca.cert, pki.apiserver.cert, pki.apiserver.key].map((f) => readFile(f)));
    const server = createServer({ ca, cert, key, requestCert: true, rejectUnauthorized: false });
    const seen = new Promise<AuthnRequest>((resolve) => server.on('secureConnection', (s: TLSSocket) => {
      resolve({ headers: {}, peerCertificate: s.getPeerX509Certificate() });
      s.end();
    }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const sock = connect({ port, host: '127.0.0.1', servername: 'localhost', ca, ...(client ? { cert: await readFile(client.cert), key: await readFile(client.key) } : {}) });
    sock.on('error', () => undefined);
    const req = await seen;
    sock.destroy();
    await new Promise((r) => server.close(r));
    return req;
  };

  it('authenticates the admin certificate, a token, and falls back to anonymous', async () => {
    const authn = buildAuthenticator({ clientCaFile: pki.ca.cert, tokenAuthFile: tokenFile, anonymous: true });
    const viaCert = await handshake(pki.admin);
    expect(viaCert.peerCertificate).toBeInstanceOf(X509Certificate);
    expect((await authn.authenticate(viaCert)).user).toEqual({ name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });

    const bare = await handshake();
    expect(bare.peerCertificate).toBeUndefined();
    expect((await authn.authenticate(bare)).user.name).toBe('system:anonymous');
    expect(await authn.authenticate({ headers: { authorization: 'Bearer tok' } }))
      .toEqual({ user: { name: 'carol', uid: '7', groups: ['qa', 'system:authenticated'] }, consumedHeaders: ['authorization'] });
    await expect(authn.authenticate({ headers: { authorization: 'Bearer bad' } })).rejects.toMatchObject({ code: 401 });
  });

  it('fails at start on an unreadable client CA, naming it', () => {
    expect(() => buildAuthenticator({ clientCaFile: join(dir, 'nope.crt'), anonymous: false })).toThrow(/client CA file .*nope\.crt/);
  });
});
