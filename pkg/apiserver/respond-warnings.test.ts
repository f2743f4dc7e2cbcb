import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { setWarnings } from './respond.js';

const headerOf = (warnings: string[]): string[] | undefined => {
  let value: string[] | undefined;
  setWarnings({ header: (_: string, v: string[]) => { value = v; } } as unknown as FastifyReply, warnings);
  return value;
};

describe('Warning headers, as upstream\'s warning recorder writes them', () => {
  it('writes each text once, in order', () => {
    expect(headerOf(['unknown field "spec.foo"', 'b', 'unknown field "spec.foo"', ''])).toEqual(['299 - "unknown field \\"spec.foo\\""', '299 - "b"']);
    expect(headerOf([])).toBeUndefined();
  });

  it('past 4096 runes cuts every warning to 256 runes and adds none once the total reaches 4096', () => {
    const long = (c: string) => c.repeat(1000);
    const out = headerOf([long('a'), long('b'), long('c'), long('d'), long('é')])!;
    expect(out).toHaveLength(5); // the fifth crosses the limit: all five cut to 256 (1,280 runes)
    expect(out.every((h) => [...JSON.parse(h.slice('299 - '.length))].length === 256)).toBe(true);
    expect(out[4]).toBe(`299 - "${'é'.repeat(256)}"`);
    const many = headerOf(Array.from({ length: 40 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(298)}`))!;
    // 13 fit (3,900 runes); the 14th truncates all 14 to 256 (3,584); two more reach 4,096; the rest are left out
    expect(many).toHaveLength(16);
  });
});
