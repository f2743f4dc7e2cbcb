import { describe, expect, it } from 'vitest';
import { invalidDeploymentYaml } from './testdata/field-validation.js';
import { parseYaml, parseYamlBody, stringifyYaml } from './yaml.js';

describe('parseYaml', () => {
  it('reads YAML 1.1 as upstream does, timestamps left as strings', () => {
    expect(parseYaml('a: yes\nb: off\nc: 0644\nd: 0x1F\ne: 2001-01-01\nf: "yes"\n')).toEqual({ a: true, b: false, c: 420, d: 31, e: '2001-01-01', f: 'yes' });
    expect(parseYaml('base: &b {a: "1"}\ndata:\n  <<: *b\n  c: "2"\n')).toEqual({ base: { a: '1' }, data: { a: '1', c: '2' } });
  });

  it('quotes what YAML 1.1 would read as something else, so it round-trips', () => {
    const data = { a: 'y', b: 'on', c: '0644', d: '2001-01-01', e: 'plain', f: 'true' };
    const text = stringifyYaml({ data });
    expect(text).toContain('a: "y"');
    expect(stringifyYaml({ b: [{ q: 1, p: 2 }], a: 1 })).toBe('a: 1\nb:\n- p: 2\n  q: 1\n');
    expect(parseYaml(text)).toEqual({ data });
  });

  it('refuses duplicate keys when strict', () => {
    expect(() => parseYaml('a: 1\na: 2\n', true)).toThrow(/unique/);
  });
});

describe('parseYamlBody', () => {
  it('reports repeated keys as go-yaml does, by the line of the repetition, and keeps the last value', () => {
    const { value, duplicates } = parseYamlBody(invalidDeploymentYaml('d'), true);
    expect(duplicates).toEqual([
      'line 5: key "name" already set in map',
      'line 12: key "unknownDupe" already set in map',
      'line 14: key "paused" already set in map',
      'line 28: key "imagePullPolicy" already set in map',
    ]);
    const d = value as { metadata: { name: string }; spec: { paused: boolean; unknownDupe: string; template: { spec: { containers: { imagePullPolicy: string }[] } } } };
    expect(d.metadata.name).toBe('d');
    expect(d.spec.paused).toBe(false);
    expect(d.spec.unknownDupe).toBe('valDupe2');
    expect(d.spec.template.spec.containers[0]!.imagePullPolicy).toBe('Never');
  });

  it('reads JSON (an apply body) the same way, and replaces a repeated map whole', () => {
    const { value, duplicates } = parseYamlBody('{\n  "spec": {"a": 1},\n  "spec": {"b": 2},\n  "n": 1, "n": 2\n}', true);
    expect(value).toEqual({ spec: { b: 2 }, n: 2 });
    expect(duplicates).toEqual(['line 3: key "spec" already set in map', 'line 4: key "n" already set in map']);
  });

  it('words keys as Go prints them, a value\'s own repetitions first, and merges are no repetition', () => {
    expect(parseYamlBody('1: a\n1: b\nyes: c\ntrue: d\n', true).duplicates).toEqual(['line 2: key 1 already set in map', 'line 4: key true already set in map']);
    expect(parseYamlBody('m:\n  p: 1\nm:\n  q: 1\n  q: 2\n', true).duplicates).toEqual(['line 5: key "q" already set in map', 'line 4: key "m" already set in map']);
    expect(parseYamlBody('base: &b {a: "1"}\ndata:\n  <<: *b\n  c: "2"\n', true)).toEqual({ value: { base: { a: '1' }, data: { a: '1', c: '2' } }, duplicates: [] });
    expect(parseYamlBody('a: 1\na: 2\n', false)).toEqual({ value: { a: 2 }, duplicates: [] });
  });

  it('still refuses what is no YAML', () => {
    expect(() => parseYamlBody('a: [1\n', true)).toThrow();
  });
});
