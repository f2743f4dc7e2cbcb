// --pod-sandbox: `host` never sandboxes; `auto` without what sandboxes need keeps pods on the host network with one
// warning saying why; `netns` refuses instead; a malformed --pod-cidr is an error in any mode but host; without
// --pod-cidr sandboxes are still chosen (their range comes from the Node's spec.podCIDR).
import { execFileSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { choosePodSandboxes, sandboxesUnavailable } from './probe.js';

const unavailable = await sandboxesUnavailable();

const capture = () => {
  const lines: { level: number; msg: string; reason?: string }[] = [];
  const logger = pino({ level: 'debug' }, new Writable({ write(chunk: Buffer, _e, cb) { lines.push(JSON.parse(chunk.toString())); cb(); } }));
  return { logger, lines };
};

describe('choosePodSandboxes', () => {
  it('host: no sandboxes and nothing logged', async () => {
    const { logger, lines } = capture();
    expect(await choosePodSandboxes('host', '10.244.0.0/24', logger)).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('refuses a malformed --pod-cidr', async () => {
    const { logger } = capture();
    await expect(choosePodSandboxes('auto', '10.244.0.1/24', logger)).rejects.toThrow('--pod-cidr: invalid CIDR address: 10.244.0.1/24 (host bits set)');
  });

  it.each(['10.244.0.0/24', ''])('auto with --pod-cidr "%s" follows what the machine allows', async (cidr) => {
    const { logger, lines } = capture();
    const got = await choosePodSandboxes('auto', cidr, logger);
    expect(got === undefined).toBe(unavailable !== undefined);
    expect(lines.filter((l) => l.level === 40).map((l) => l.reason)).toEqual(unavailable ? [unavailable] : []);
    if (unavailable) {
      expect(lines[0]!.msg).toContain('pods share the host network and get the node\'s IP');
      await expect(choosePodSandboxes('netns', cidr, logger)).rejects.toThrow(`--pod-sandbox=netns: ${unavailable}`);
    }
  });

  it.skipIf(unavailable !== undefined)('removes probe namespaces that kubelets killed while probing left behind', async () => {
    const stale = 'mk-probe-4194303'; // no such process
    execFileSync('ip', ['netns', 'add', stale]);
    expect(await sandboxesUnavailable()).toBeUndefined();
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toContain(stale);
  });
});
