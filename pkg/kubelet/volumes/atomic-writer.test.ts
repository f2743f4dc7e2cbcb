import { lstat, mkdtemp, readFile, readdir, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeAtomically } from './atomic-writer.js';

describe('writeAtomically', () => {
  let dir = '';
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'atomic-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('lays files out behind ..data, swaps them on change, and removes keys that went', async () => {
    expect(await writeAtomically(dir, { a: { data: 'one', mode: 0o644 }, 'sub/b': { data: Buffer.from('two'), mode: 0o600 } }, new Date(Date.UTC(2024, 0, 2, 3, 4, 5)))).toBe(true);
    const first = await readlink(join(dir, '..data'));
    expect(first).toMatch(/^\.\.2024_01_02_03_04_05\./);
    expect(await readlink(join(dir, 'a'))).toBe('..data/a');
    expect(await readFile(join(dir, 'sub/b'), 'utf8')).toBe('two');
    expect((await stat(join(dir, 'sub/b'))).mode & 0o777).toBe(0o600);
    // every directory may be traversed by anyone: containers run as any user
    for (const d of [first, `${first}/sub`]) expect((await stat(join(dir, d))).mode & 0o7777).toBe(0o755);

    expect(await writeAtomically(dir, { a: { data: 'one', mode: 0o644 }, 'sub/b': { data: 'two', mode: 0o600 } })).toBe(false);
    expect(await readlink(join(dir, '..data'))).toBe(first);

    expect(await writeAtomically(dir, { a: { data: 'uno', mode: 0o644 } })).toBe(true);
    expect(await readFile(join(dir, 'a'), 'utf8')).toBe('uno');
    await expect(lstat(join(dir, 'sub'))).rejects.toThrow();
    const entries = (await readdir(dir)).sort();
    expect(entries).toEqual(['..data', await readlink(join(dir, '..data')), 'a'].sort());
  });

  it.skipIf(process.getuid?.() !== 0)('with an fsGroup, gives the group everything as upstream\'s SetVolumeOwnership (read-only volume)', async () => {
    const payload = { secret: { data: 's', mode: 0o400 }, 'nested/token': { data: 't', mode: 0o600, uid: 1234 } };
    expect(await writeAtomically(dir, payload, undefined, 2000)).toBe(true);
    const ts = await readlink(join(dir, '..data'));
    const st = async (p: string) => { const x = await lstat(join(dir, p)); return { uid: x.uid, gid: x.gid, mode: x.mode & 0o7777 }; };
    expect(await st(`${ts}/secret`)).toEqual({ uid: 0, gid: 2000, mode: 0o440 });
    expect(await st(`${ts}/nested/token`)).toEqual({ uid: 1234, gid: 2000, mode: 0o640 });
    for (const d of ['.', ts, `${ts}/nested`]) expect(await st(d)).toMatchObject({ gid: 2000, mode: 0o2755 });
    for (const l of ['..data', 'secret', 'nested']) expect((await st(l)).gid).toBe(2000);
    // the modes it gave are the ones it asked for: nothing to rewrite on the next sync
    expect(await writeAtomically(dir, payload, undefined, 2000)).toBe(false);
  });
});
