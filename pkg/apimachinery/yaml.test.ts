import { describe, expect, it } from 'vitest';
import { parseYaml, stringifyYaml } from './yaml.js';

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
