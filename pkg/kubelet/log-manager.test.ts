// Log rotation as upstream's container log manager does it, over a stand-in runtime whose one container writes to a
// file the test fills.
import { readdir, readFile, rm, stat, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../client/index.js';
import { ContainerLogManager, removeContainerAndLogs } from './log-manager.js';
import type { Runtime } from './runtime/types.js';

let dir = '';
afterEach(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

function standIn(path: string, state = 'running'): { runtime: Runtime; reopened: number } {
  const self = { reopened: 0, runtime: undefined as unknown as Runtime };
  self.runtime = {
    listContainers: () => [{ id: 'c1', state }],
    logPath: (id: string) => (id === 'c1' ? path : undefined),
    reopenContainerLog: async () => { self.reopened++; await writeFile(path, '', { flag: 'a' }); },
  } as unknown as Runtime;
  return self;
}

describe('ContainerLogManager', () => {
  it('rotates a log at its size limit, compresses the older copies and keeps at most maxFiles', async () => {
    dir = await mkdtemp(join(tmpdir(), 'log-manager-'));
    const path = join(dir, '0.log');
    const clock = new FakeClock(Date.parse('2026-03-04T05:06:07Z'));
    const rt = standIn(path);
    const m = new ContainerLogManager({ runtime: rt.runtime, clock, logger: pino({ level: 'silent' }), containerLogMaxSizeBytes: 100, containerLogMaxFiles: 3 });
    await writeFile(path, 'x'.repeat(99));
    await m.rotateLogs();
    expect(await readdir(dir)).toEqual(['0.log']); // under the limit
    for (let round = 1; round <= 4; round++) {
      await writeFile(path, `round ${round} `.padEnd(150, '.'), { flag: 'a' });
      await m.rotateLogs();
      await clock.advance(1_000);
    }
    expect(rt.reopened).toBe(4);
    // the live log, the latest rotated one as it was, and one compressed: three files, named <log>.<YYYYMMDD-hhmmss>
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(3);
    const [live, compressed, latest] = [files.find((f) => f === '0.log'), files.find((f) => /^0\.log\.\d{8}-\d{6}\.gz$/.test(f)), files.find((f) => /^0\.log\.\d{8}-\d{6}$/.test(f))];
    expect(live && compressed && latest).toBeTruthy();
    expect(compressed! < latest!).toBe(true);
    expect((await stat(path)).size).toBe(0);
    expect(await readFile(join(dir, latest!), 'utf8')).toMatch(/^round 4 /);
    expect(gunzipSync(await readFile(join(dir, compressed!))).toString()).toMatch(/^round 3 /);
  });

  it('leaves finished containers alone and refuses fewer than two files', async () => {
    dir = await mkdtemp(join(tmpdir(), 'log-manager-'));
    const path = join(dir, '0.log');
    await writeFile(path, 'x'.repeat(500));
    const rt = standIn(path, 'exited');
    await new ContainerLogManager({ runtime: rt.runtime, clock: new FakeClock(0), logger: pino({ level: 'silent' }), containerLogMaxSizeBytes: 100 }).rotateLogs();
    expect(await readdir(dir)).toEqual(['0.log']);
    expect(() => new ContainerLogManager({ runtime: rt.runtime, clock: new FakeClock(0), logger: pino({ level: 'silent' }), containerLogMaxFiles: 1 })).toThrow('invalid MaxFiles 1, must be > 1');
  });

  it('removes a container with its log and rotated copies, not the logs of its other attempts', async () => {
    dir = await mkdtemp(join(tmpdir(), 'log-manager-'));
    for (const f of ['0.log', '0.log.20260304-050607.gz', '0.log.20260304-050608', '1.log', '10.log']) await writeFile(join(dir, f), 'x');
    const removed: string[] = [];
    const runtime = { logPath: () => join(dir, '0.log'), removeContainer: async (id: string) => { removed.push(id); } } as unknown as Runtime;
    await removeContainerAndLogs(runtime, 'c1');
    expect(removed).toEqual(['c1']);
    expect((await readdir(dir)).sort()).toEqual(['1.log', '10.log']);
  });
});
