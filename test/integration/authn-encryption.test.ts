// Encryption at rest: with an EncryptionConfiguration, secrets reach LevelDB only as k8s:enc:aescbc:v1:<key>: (or
// secretbox) ciphertext, read back in the clear through the API, survive a restart, and move to a new key (or
// provider) when re-written.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

const SECRET_VALUE = 'correct-horse-battery-staple-0451';
const CONFIG_VALUE = 'plain-configmap-marker-7781';
const key1 = randomBytes(32).toString('base64');
const key2 = randomBytes(32).toString('base64');

const config = (providers: string): string => `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
${providers}`;
const aescbc = (...keys: [string, string][]): string => `      - aescbc:
          keys:
${keys.map(([n, k]) => `            - {name: ${n}, secret: "${k}"}`).join('\n')}
`;

const secretbox = (name: string, key: string): string => `      - secretbox:
          keys: [{name: ${name}, secret: "${key}"}]
`;
const sbKey = randomBytes(32).toString('base64');

let dataDir = '';
let s: TestApiServer | undefined;

const start = async (providers: string): Promise<TestApiServer> => {
  const file = join(dataDir, 'encryption.yaml');
  await writeFile(file, config(providers));
  // The test reads what LevelDB holds on disk, whichever backend the other tests use.
  return startTestApiServer({ dataDir, encryptionProviderConfig: file, storageBackend: 'leveldb' });
};

/** Every byte LevelDB wrote (logs, tables). */
const storeBytes = async (): Promise<Buffer> => {
  const dir = join(dataDir, 'store');
  const files = await readdir(dir);
  return Buffer.concat(await Promise.all(files.map((f) => readFile(join(dir, f)).catch(() => Buffer.alloc(0)))));
};

/**
 * The stored form of one object's newest state, read with LevelDB itself (the server must be stopped): the
 * newest event record holding it (compaction keeps or rewrites that record, never drops it).
 */
const storedRecord = async (key: string): Promise<string> => {
  const db = new Level<string, Buffer>(join(dataDir, 'store'), { keyEncoding: 'utf8', valueEncoding: 'buffer' });
  await db.open();
  try {
    for await (const value of db.values({ gte: 'e', lt: 'f', reverse: true })) {
      const text = value.toString('utf8');
      const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { k: string };
      if (header.k === key) return text;
    }
    return '';
  } finally {
    await db.close();
  }
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mini-kube-enc-'));
});

afterAll(async () => {
  await s?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('encryption at rest', () => {
  it('stores secrets encrypted with the first provider, serves them in the clear', async () => {
    s = await start(aescbc(['key1', key1]) + '      - identity: {}\n');
    const created = await s.kubectl('create', 'secret', 'generic', 'db', `--from-literal=password=${SECRET_VALUE}`);
    expect(created.stderr).toBe('');
    expect((await s.kubectl('create', 'configmap', 'cfg', `--from-literal=v=${CONFIG_VALUE}`)).code).toBe(0);
    const got = await s.api('GET', '/api/v1/namespaces/default/secrets/db');
    expect(Buffer.from(got.body.data.password, 'base64').toString()).toBe(SECRET_VALUE);
    const listed = await s.api('GET', '/api/v1/secrets');
    expect(listed.body.items.find((x: any) => x.metadata.name === 'db').data.password).toBe(got.body.data.password);
    await s.stop();
    s = undefined;

    const bytes = await storeBytes();
    expect(bytes.includes(CONFIG_VALUE)).toBe(true); // configmaps are not configured: in the clear, so the search works
    expect(bytes.includes(SECRET_VALUE)).toBe(false);
    expect(bytes.includes(Buffer.from(SECRET_VALUE).toString('base64'))).toBe(false);
    expect(bytes.includes('k8s:enc:aescbc:v1:key1:')).toBe(true);
    const record = await storedRecord('/registry/secrets/default/db');
    expect(record).toContain('"k8s:enc":"k8s:enc:aescbc:v1:key1:');
    expect(record).not.toContain('"password"');
  });

  it('reads them back after a restart, and a second key decrypts what the first wrote', async () => {
    s = await start(aescbc(['key2', key2], ['key1', key1]) + '      - identity: {}\n');
    const got = await s.api('GET', '/api/v1/namespaces/default/secrets/db');
    expect(got.status).toBe(200);
    expect(Buffer.from(got.body.data.password, 'base64').toString()).toBe(SECRET_VALUE);
  });

  it('rotates by re-writing: a replace that changes nothing re-encrypts with the first key', async () => {
    const json = await s!.kubectl('get', 'secret', 'db', '-o', 'json');
    const replaced = await s!.kubectlWithInput(json.stdout, 'replace', '-f', '-');
    expect(replaced.stderr).toBe('');
    const watchers = await s!.api('GET', '/api/v1/namespaces/default/secrets/db');
    expect(Buffer.from(watchers.body.data.password, 'base64').toString()).toBe(SECRET_VALUE);
    await s!.stop();
    s = undefined;
    const record = await storedRecord('/registry/secrets/default/db');
    expect(record).toContain('k8s:enc:aescbc:v1:key2:');
    expect(record).not.toContain('k8s:enc:aescbc:v1:key1:');
  });

  it('moves to secretbox by re-writing, and reads it back with secretbox alone', async () => {
    s = await start(secretbox('sb1', sbKey) + aescbc(['key2', key2]));
    const json = await s.kubectl('get', 'secret', 'db', '-o', 'json');
    expect((await s.kubectlWithInput(json.stdout, 'replace', '-f', '-')).stderr).toBe('');
    expect((await s.kubectl('create', 'secret', 'generic', 'boxed', `--from-literal=token=${SECRET_VALUE}-boxed`)).code).toBe(0);
    await s.stop();
    s = undefined;
    const bytes = await storeBytes();
    expect(bytes.includes(SECRET_VALUE)).toBe(false);
    expect(bytes.includes(Buffer.from(`${SECRET_VALUE}-boxed`).toString('base64'))).toBe(false);
    for (const name of ['db', 'boxed']) {
      const record = await storedRecord(`/registry/secrets/default/${name}`);
      expect(record).toContain('"k8s:enc":"k8s:enc:secretbox:v1:sb1:');
      expect(record).not.toContain(SECRET_VALUE);
    }
    s = await start(secretbox('sb1', sbKey));
    const got = await s.kubectl('get', 'secret', 'boxed', '-o', 'jsonpath={.data.token}');
    expect(Buffer.from(got.stdout, 'base64').toString()).toBe(`${SECRET_VALUE}-boxed`);
    await s.stop();
    s = undefined;
  });

  it('refuses a configuration it cannot honour at start', async () => {
    await expect(start('      - secretbox:\n          keys: [{name: k, secret: "c2hvcnQ="}]\n')).rejects.toThrow(/secretbox: key k: the secret must be a base64 32 byte key/);
    await expect(start('      - aescbc:\n          keys: [{name: k, secret: "c2hvcnQ="}]\n')).rejects.toThrow(/16, 24, 32 byte/);
  });
  it('without the key (and without identity) the stored secrets cannot be read: the apiserver does not start', async () => {
    await expect(start(aescbc(['key3', randomBytes(32).toString('base64')]))).rejects.toThrow(/no matching prefix found/);
  });
});
