import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicFileAuthenticator } from './basic-file.js';
import { tokenFileAuthenticator } from './token-file.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'authn-files-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

const file = async (name: string, text: string): Promise<string> => {
  const p = join(dir, name);
  await writeFile(p, text);
  return p;
};
const bearer = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
const basic = (u: string, p: string) => ({ headers: { authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` } });

describe('tokenFileAuthenticator', () => {
  it('maps a bearer token to its user, uid and groups and consumes the header', async () => {
    const a = tokenFileAuthenticator(await file('tokens.csv', 'abc123,alice,1001,"dev,ops"\nxyz,bob,1002\n'));
    expect(await a.authenticate(bearer('abc123'))).toEqual({ user: { name: 'alice', uid: '1001', groups: ['dev', 'ops'] }, consumedHeaders: ['authorization'] });
    expect((await a.authenticate({ headers: { authorization: 'bearer xyz' } }))?.user).toEqual({ name: 'bob', uid: '1002', groups: [] });
  });

  it('passes on other schemes and absent headers, rejects unknown tokens with 401', async () => {
    const a = tokenFileAuthenticator(await file('tokens2.csv', 'abc123,alice,1001\n'));
    expect(await a.authenticate({ headers: {} })).toBeNull();
    expect(await a.authenticate(basic('alice', 'abc123'))).toBeNull();
    expect(await a.authenticate({ headers: { authorization: 'Bearer ' } })).toBeNull();
    await expect(a.authenticate(bearer('nope'))).rejects.toMatchObject({ code: 401, reason: 'Unauthorized' });
  });

  it('fails at start on a malformed file, naming the file and the line', async () => {
    const short = await file('short.csv', 'ok,user,1\nonly,two\n');
    expect(() => tokenFileAuthenticator(short)).toThrow(`token file ${short}: line 2: must have at least 3 columns (token, user name, user uid), found 2`);
    const quote = await file('quote.csv', 'ok,user,1\n\nbad,us"er,2\n');
    expect(() => tokenFileAuthenticator(quote)).toThrow(`token file ${quote}: line 3: column 7: bare " in non-quoted field`);
    expect(() => tokenFileAuthenticator(join(dir, 'missing.csv'))).toThrow(/token file .*missing\.csv: ENOENT/);
  });
});

describe('basicFileAuthenticator', () => {
  it('checks the password of the named user', async () => {
    const a = basicFileAuthenticator(await file('basic.csv', 's3cret,admin,1,"system:masters"\n'));
    expect(await a.authenticate(basic('admin', 's3cret'))).toEqual({ user: { name: 'admin', uid: '1', groups: ['system:masters'] }, consumedHeaders: ['authorization'] });
    await expect(a.authenticate(basic('admin', 'wrong'))).rejects.toMatchObject({ code: 401 });
    await expect(a.authenticate(basic('nobody', 's3cret'))).rejects.toMatchObject({ code: 401 });
    expect(await a.authenticate(bearer('s3cret'))).toBeNull();
  });

  it('fails at start on a malformed file', async () => {
    const p = await file('basic-bad.csv', 'pw,admin\n');
    expect(() => basicFileAuthenticator(p)).toThrow(`password file ${p}: line 1: must have at least 3 columns (password, user name, user uid), found 2`);
  });
});

describe('the shipped examples in config/examples', () => {
  it('parse', async () => {
    const examples = join(import.meta.dirname, '..', '..', 'config', 'examples');
    expect((await tokenFileAuthenticator(join(examples, 'token-auth.csv')).authenticate(bearer('31ada4fd-adec-460c-809a-9e56ceb75269')))?.user)
      .toEqual({ name: 'alice', uid: '1001', groups: ['developers', 'qa'] });
    expect((await basicFileAuthenticator(join(examples, 'basic-auth.csv')).authenticate(basic('admin', 'change-me')))?.user.groups).toEqual(['system:masters']);
  });
});
