import { describe, expect, it } from 'vitest';
import { execStreaming } from './process-streams.js';

const output = async (tty: boolean, env: Record<string, string>): Promise<string> => {
  const s = await execStreaming(['sh', '-c', 'echo "term=$TERM"'], { PATH: process.env.PATH!, ...env }, '/', { stdin: false, tty });
  let out = '';
  s.stdout.on('data', (c: Buffer) => { out += c.toString(); });
  await s.exited;
  await new Promise((r) => setTimeout(r, 50));
  return out;
};

describe('execStreaming', () => {
  it('sets TERM=xterm for a terminal, over the container\'s own, as containerd\'s exec does; not without one', async () => {
    expect(await output(true, {})).toMatch(/term=xterm\r?\n/);
    expect(await output(true, { TERM: 'dumb' })).toMatch(/term=xterm\r?\n/);
    expect(await output(false, {})).toBe('term=\n');
    expect(await output(false, { TERM: 'dumb' })).toBe('term=dumb\n');
  });
});
