// Starting a container's shim: one that exits before it listens (it could not load, as while the package's bundle
// is rebuilt under it) has run nothing, and another is started instead of the container failing to start.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShimHandle } from './shim-client.js';

/** A stand-in shim (node): listens on the spec's socket and tells each client the container started, never exits. */
const FAKE_SHIM = `
const { readFileSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const dir = process.argv[2];
const spec = JSON.parse(readFileSync(dir + '/spec.json', 'utf8'));
const started = JSON.stringify({ shimPid: process.pid, pid: process.pid, startedAt: Date.now() });
writeFileSync(dir + '/pid.json', started);
const body = Buffer.from(started);
const head = Buffer.alloc(5); head[0] = 0x53; head.writeUInt32BE(body.length, 1);
createServer((s) => s.write(Buffer.concat([head, body]))).listen(spec.socket);
`;

describe('ShimHandle.start', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts another shim when the first exits before it listens', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mini-kube-shim-'));
    const script = join(dir, 'fake-shim.cjs');
    await writeFile(script, FAKE_SHIM);
    // the first launch fails as a shim whose bundle is missing would; the next runs
    const command = ['sh', '-c', `if [ -e "$0/tried" ]; then exec '${process.execPath}' '${script}' "$0"; fi; : > "$0/tried"; exit 1`];
    const spec = { argv: ['true'], env: {}, cwd: dir, logPath: join(dir, 'log'), socket: join(dir, 's.sock'), stdin: false, tty: false };
    const h = await ShimHandle.start(command, dir, spec);
    try {
      expect(h.exit).toBeUndefined();
      expect(h.started?.shimPid).toBeGreaterThan(0);
    } finally {
      h.detach();
      if (h.started) process.kill(h.started.shimPid, 'SIGKILL');
    }
  });
});
