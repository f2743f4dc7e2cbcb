import { describe, expect, it } from 'vitest';
import { base64CorruptAt, canonicalBase64, goBase64Error } from './go-base64.js';

describe("Go's base64.StdEncoding", () => {
  it('decodes padded base64 with line breaks anywhere', () => {
    for (const ok of ['', 'YQ==', 'YWI=', 'YWJj', 'YWJj\nZA==', 'YW\r\nJj', 'YQ=\n=', 'YWJj\n', 'YR==']) expect(base64CorruptAt(ok), ok).toBeUndefined();
  });

  it('stops where Go does', () => {
    const cases: [string, number][] = [
      ['s3cr3t!', 6], // '!' is no symbol
      ['YWJ', 0], // unpadded: the quantum's start
      ['YQ', 0],
      ['Y', 0],
      ['YQ=', 3], // one '=' of two: the input's end
      ['YQ=x', 2], // the second '=' expected before x
      ['=', 0],
      ['Y===', 1],
      ['YQ===', 4], // past the padding
      ['aGVsbG8=aGVsbG8=', 8],
      ['YW Jj', 2],
      ['éYQ==', 0],
      ['YQ==é', 4],
      ['YWJjZA', 4],
    ];
    for (const [text, at] of cases) expect(base64CorruptAt(text), JSON.stringify(text)).toBe(at);
    expect(goBase64Error('s3cr3t!')).toBe('illegal base64 data at input byte 6');
    expect(goBase64Error('YQ==')).toBeUndefined();
  });

  it('writes back the standard encoding', () => {
    expect(canonicalBase64('YWJj\nZA==')).toBe('YWJjZA==');
    expect(canonicalBase64('YR==')).toBe('YQ==');
  });
});
