import { describe, expect, it } from 'vitest';
import { flag, FlagError, parseFlags, setInvokedAs, usage } from './flags.js';

const spec = {
  'data-dir': flag.string('./.mini-kube', 'where data lives'),
  'secure-port': flag.int(6443, 'port'),
  'anonymous-auth': flag.bool(true, 'allow anonymous'),
  'leader-elect': flag.bool(false, 'elect'),
  'enable-admission-plugins': flag.list([], 'plugins'),
  'authorization-mode': flag.list(['AlwaysAllow'], 'modes'),
  'feature-gates': flag.boolMap('gates'),
  runtime: flag.string('process', 'runtime', ['process', 'fake']),
};

describe('parseFlags', () => {
  it('gives defaults when nothing is passed', () => {
    const { values, help, given } = parseFlags([], spec);
    expect(values).toEqual({
      'data-dir': './.mini-kube', 'secure-port': 6443, 'anonymous-auth': true, 'leader-elect': false,
      'enable-admission-plugins': [], 'authorization-mode': ['AlwaysAllow'], 'feature-gates': {}, runtime: 'process',
    });
    expect(help).toBe(false);
    expect(given.size).toBe(0);
  });

  it('takes both --flag value and --flag=value', () => {
    const { values, given } = parseFlags(['--data-dir', '/x', '--secure-port=7443', '--runtime=fake'], spec);
    expect(values['data-dir']).toBe('/x');
    expect(values['secure-port']).toBe(7443);
    expect(values.runtime).toBe('fake');
    expect([...given].sort()).toEqual(['data-dir', 'runtime', 'secure-port']);
  });

  it('reads booleans by presence or =value, never consuming the next word', () => {
    expect(parseFlags(['--leader-elect'], spec).values['leader-elect']).toBe(true);
    expect(parseFlags(['--anonymous-auth=false'], spec).values['anonymous-auth']).toBe(false);
    expect(() => parseFlags(['--anonymous-auth', 'false'], spec)).toThrow('unexpected argument "false"');
    expect(() => parseFlags(['--anonymous-auth=maybe'], spec)).toThrow('invalid argument "maybe" for "--anonymous-auth" flag');
  });

  it('splits lists on commas; a repeat appends, the first replaces the default', () => {
    expect(parseFlags(['--authorization-mode=Node,RBAC'], spec).values['authorization-mode']).toEqual(['Node', 'RBAC']);
    expect(parseFlags(['--enable-admission-plugins', 'A', '--enable-admission-plugins=B,C'], spec).values['enable-admission-plugins']).toEqual(['A', 'B', 'C']);
    expect(parseFlags(['--authorization-mode='], spec).values['authorization-mode']).toEqual([]);
  });

  it('reads feature gates as key=bool pairs', () => {
    expect(parseFlags(['--feature-gates=A=true,B=false', '--feature-gates', 'C=true'], spec).values['feature-gates']).toEqual({ A: true, B: false, C: true });
    expect(() => parseFlags(['--feature-gates=A'], spec)).toThrow('"A" is not key=true|false');
    expect(() => parseFlags(['--feature-gates=A=yes'], spec)).toThrow(FlagError);
  });

  it('refuses a feature gate it does not know, as featuregate.Set in pflag\'s words', () => {
    const gated = { 'feature-gates': flag.featureGates('gates', new Set(['Known', 'Other'])) };
    expect(parseFlags(['--feature-gates=Known=true,Other=false'], gated).values['feature-gates']).toEqual({ Known: true, Other: false });
    expect(() => parseFlags(['--feature-gates=Known=true', '--feature-gates', 'Known=false,Bogus=true'], gated))
      .toThrow(new FlagError('invalid argument "Known=false,Bogus=true" for "--feature-gates" flag: unrecognized feature gate: Bogus'));
  });

  it('rejects unknown flags, bad values, missing values and stray words clearly', () => {
    expect(() => parseFlags(['--nope'], spec)).toThrow(new FlagError('unknown flag: --nope'));
    expect(() => parseFlags(['--secure-port', 'abc'], spec)).toThrow('invalid argument "abc" for "--secure-port" flag: not an integer');
    expect(() => parseFlags(['--runtime=docker'], spec)).toThrow('must be one of process, fake');
    expect(() => parseFlags(['--data-dir'], spec)).toThrow('flag needs an argument: --data-dir');
    expect(() => parseFlags(['up'], spec)).toThrow('unexpected argument "up"');
    expect(() => parseFlags(['-x'], spec)).toThrow("unknown shorthand flag: 'x' in -x");
    expect(() => parseFlags(['--toString'], spec)).toThrow('unknown flag: --toString');
  });

  it('sees --help and -h anywhere', () => {
    expect(parseFlags(['--data-dir', 'x', '--help'], spec).help).toBe(true);
    expect(parseFlags(['-h'], spec).help).toBe(true);
  });

  it('does not let one parse leak into the defaults of the next', () => {
    parseFlags(['--enable-admission-plugins=A'], spec);
    expect(parseFlags([], spec).values['enable-admission-plugins']).toEqual([]);
  });
});

describe('usage', () => {
  it('lists every flag with its type and default', () => {
    const text = usage('apiserver', 'Runs the apiserver.', spec);
    expect(text).toContain('mini-kube apiserver [flags]');
    expect(text).toMatch(/--data-dir string +where data lives \(default "\.\/\.mini-kube"\)/);
    expect(text).toMatch(/--secure-port int +port \(default 6443\)/);
    expect(text).toMatch(/--anonymous-auth +allow anonymous \(default true\)/);
    expect(text).toMatch(/--authorization-mode strings +modes \(default \[AlwaysAllow\]\)/);
  });

  it('names the upstream binary it was run as (a link named kube-apiserver)', () => {
    setInvokedAs('kube-apiserver');
    try {
      const text = usage('apiserver', 'Runs the apiserver.', spec);
      expect(text).toContain('Usage:\n  kube-apiserver [flags]\n');
      expect(text).toMatch(/-h, --help +help for kube-apiserver\n/);
      expect(text).not.toContain('mini-kube apiserver');
    } finally {
      setInvokedAs(undefined);
    }
  });
});
