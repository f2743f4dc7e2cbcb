import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { afterEach, describe, expect, it } from 'vitest';
import { claimDataDir, dataDirInUseMessage, isStoreLocked, storeInUse } from './data-dir-lock.js';

let dir = '';
afterEach(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

describe('a data dir in use', () => {
  it('is seen by its store\'s lock, which up probes before claiming anything', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mini-kube-lock-'));
    expect(await storeInUse(dir)).toBe(false); // no store yet: none is created
    const db = new Level(join(dir, 'store'));
    await db.open();
    try {
      expect(await storeInUse(dir)).toBe(true);
      const err = await new Level(join(dir, 'store')).open().then(() => undefined, (e: unknown) => e);
      expect(isStoreLocked(err)).toBe(true);
    } finally {
      await db.close();
    }
    expect(await storeInUse(dir)).toBe(false);
    expect(isStoreLocked(new Error('Database failed to open'))).toBe(false);
    expect(dataDirInUseMessage('/d')).toBe('another mini-kube is using /d; stop it or pass --data-dir');
  });

  it('is claimed by up for as long as it runs, whether or not its apiserver holds the store, and named by its pid', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mini-kube-lock-'));
    const dataDir = join(dir, 'data');
    expect(await claimDataDir(dataDir)).toBeUndefined(); // created, and now held by this process
    expect(await claimDataDir(dataDir)).toBe(process.pid);
    // the same directory by another path
    await symlink(dataDir, join(dir, 'link'));
    expect(await claimDataDir(join(dir, 'link'))).toBe(process.pid);
    // another directory is free
    await mkdir(join(dir, 'other'));
    expect(await claimDataDir(join(dir, 'other'))).toBeUndefined();
    expect(dataDirInUseMessage('/d', 42)).toBe('another mini-kube (pid 42) is using /d; stop it or pass --data-dir');
  });
});
