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

    expect(await writeAtomically(dir, { a: { data: 'one', mode: 0o644 }, 'sub/b': { data: 'two', mode: 0o600 } })).toBe(false);
    expect(await readlink(join(dir, '..data'))).toBe(first);

    expect(await writeAtomically(dir, { a: { data: 'uno', mode: 0o644 } })).toBe(true);
    expect(await readFile(join(dir, 'a'), 'utf8')).toBe('uno');
    await expect(lstat(join(dir, 'sub'))).rejects.toThrow();
    const entries = (await readdir(dir)).sort();
    expect(entries).toEqual(['..data', await readlink(join(dir, '..data')), 'a'].sort());
  });
});
