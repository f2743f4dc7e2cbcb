import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { execStreaming, onPty, PTY_AVAILABLE, resizePty } from './process-streams.js';

const output = async (tty: boolean, env: Record<string, string>): Promise<string> => {
  const s = await execStreaming(['sh', '-c', 'echo "term=$TERM"'], { PATH: process.env.PATH!, ...env }, '/', { stdin: false, tty });
  let out = '';
  s.stdout.on('data', (c: Buffer) => { out += c.toString(); });
  await s.exited;
  await new Promise((r) => setTimeout(r, 50));
  return out;
};

/** Polls `done` every 10 ms, for up to 5 s. */
const until = async (done: () => boolean): Promise<void> => {
  for (const deadline = Date.now() + 5_000; !done(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() > deadline) throw new Error('timed out');
  }
};

/** Waits (up to 5 s) for the terminal to be 40 rows by 120 columns, then prints its size. */
const SIZE_AWAITED = 'i=0; until [ "$(stty size)" = "40 120" ] || [ $i -ge 100 ]; do sleep 0.05; i=$((i+1)); done; stty size';

describe('execStreaming', () => {
  it('sets TERM=xterm for a terminal, over the container\'s own, as containerd\'s exec does; not without one', async () => {
    expect(await output(true, {})).toMatch(/term=xterm\r?\n/);
    expect(await output(true, { TERM: 'dumb' })).toMatch(/term=xterm\r?\n/);
    expect(await output(false, {})).toBe('term=\n');
    expect(await output(false, { TERM: 'dumb' })).toBe('term=dumb\n');
  });

  // kubectl 1.30+ (WebSocket) sends its first size as soon as the exec starts, before `script` has its pty: as
  // upstream's runtime, every size is applied in order once there is a terminal, so the latest one stays
  it.skipIf(!PTY_AVAILABLE)('applies the sizes asked for at once, before the pty is there, the latest last', async () => {
    const s = await execStreaming(['sh', '-c', SIZE_AWAITED], { PATH: process.env.PATH! }, '/', { stdin: false, tty: true });
    s.resize(121, 41);
    s.resize(120, 40);
    let out = '';
    s.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    await s.exited;
    await new Promise((r) => setTimeout(r, 50));
    expect(out).toBe('40 120\r\n');
  });
});

describe('resizePty', () => {
  // a tty container's terminal (the shim's `script`), sized by a client attaching before `script` has its pty: here
  // `script` is held back (its process stopped before it execs) until the size has been asked for
  it.skipIf(!PTY_AVAILABLE)('keeps a size asked for before `script` has its pty, and applies it once it has', async () => {
    const argv = onPty(['sh', '-c', SIZE_AWAITED])!;
    const child = spawn('sh', ['-c', 'kill -STOP $$; exec "$@"', 'sh', ...argv], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
    const closed = new Promise((r) => child.once('close', r));
    await until(() => /^\S+ \(.*\) T/s.test(readFileSync(`/proc/${child.pid}/stat`, 'utf8')));
    const applied = resizePty(child.pid!, 120, 40);
    // a resize that gives up on a pty not there yet has settled by now; one that waits for it has not
    await Promise.race([applied, new Promise((r) => setTimeout(r, 200))]);
    process.kill(child.pid!, 'SIGCONT');
    await applied;
    await closed;
    expect(out).toBe('40 120\r\n');
  });
});
