import { afterEach, describe, expect, it, vi } from 'vitest';
import { commandLine, runCli, upstreamName } from './cli.js';

const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out.push(String(s)); return true; });
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => { err.push(String(s)); return true; });
  return { out: () => out.join(''), err: () => err.join('') };
};
afterEach(() => { vi.restoreAllMocks(); });

describe('runCli', () => {
  it('prints the version from package.json', async () => {
    const io = capture();
    expect(await runCli(['--version'])).toBe(0);
    expect(io.out()).toMatch(/^mini-kube v\d+\.\d+\.\d+\n$/);
  });

  it('lists the commands on --help and with no command', async () => {
    const io = capture();
    expect(await runCli(['--help'])).toBe(0);
    expect(await runCli([])).toBe(0);
    for (const c of ['up', 'apiserver', 'controller-manager', 'scheduler', 'kubelet']) expect(io.out()).toContain(`  ${c} `);
  });

  it('runs a component under its upstream name (a link named kube-apiserver, as envtest runs it)', () => {
    expect(commandLine('/assets/kube-apiserver', ['--secure-port=1'])).toEqual(['apiserver', '--secure-port=1']);
    expect(commandLine('/usr/bin/kube-controller-manager', [])).toEqual(['controller-manager']);
    expect(commandLine('kube-scheduler', ['-h'])).toEqual(['scheduler', '-h']);
    expect(commandLine('/x/kubelet', [])).toEqual(['kubelet']);
    expect(commandLine('/x/kube-proxy', [])).toEqual(['proxy']);
    expect(commandLine('/x/dist/bin/mini-kube.mjs', ['up'])).toEqual(['up']);
    expect(commandLine('/x/toString', ['up'])).toEqual(['up']);
    expect(commandLine(undefined, ['up'])).toEqual(['up']);
    expect([upstreamName('/assets/kube-apiserver'), upstreamName('/x/dist/bin/mini-kube.mjs'), upstreamName(undefined)]).toEqual(['kube-apiserver', undefined, undefined]);
  });

  it('refuses an unknown command with exit 2', async () => {
    const io = capture();
    expect(await runCli(['frobnicate'])).toBe(2);
    expect(io.err()).toContain('unknown command "frobnicate" for "mini-kube"');
  });

});
