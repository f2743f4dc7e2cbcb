import { describe, expect, it } from 'vitest';
import { parseRequestYaml } from './yaml.js';

describe('parseRequestYaml', () => {
  it('reads YAML 1.1 as upstream does, timestamps left as strings', () => {
    expect(parseRequestYaml('a: yes\nb: off\nc: 0644\nd: 0x1F\ne: 2001-01-01\nf: "yes"\n')).toEqual({ a: true, b: false, c: 420, d: 31, e: '2001-01-01', f: 'yes' });
    expect(parseRequestYaml('base: &b {a: "1"}\ndata:\n  <<: *b\n  c: "2"\n')).toEqual({ base: { a: '1' }, data: { a: '1', c: '2' } });
  });

  it('refuses duplicate keys when strict', () => {
    expect(() => parseRequestYaml('a: 1\na: 2\n', true)).toThrow(/unique/);
  });
});
