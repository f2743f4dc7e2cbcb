import { expect, it } from 'vitest';
import { CsvError, parseCsv } from './csv.js';

it('reads quoted fields, doubled quotes, CRLF and skips blank lines', () => {
  expect(parseCsv('a,b,c,"g1,g2"\r\n\n"x""y",,z\nlast')).toEqual([
    { line: 1, fields: ['a', 'b', 'c', 'g1,g2'] },
    { line: 3, fields: ['x"y', '', 'z'] },
    { line: 4, fields: ['last'] },
  ]);
});

it('keeps newlines inside quotes and reports the starting line', () => {
  expect(parseCsv('"multi\nline",b\nc')).toEqual([{ line: 1, fields: ['multi\nline', 'b'] }, { line: 3, fields: ['c'] }]);
});

it('rejects stray quotes with the line and column', () => {
  expect(() => parseCsv('ok,1\nbad"quote,2')).toThrow(new CsvError(2, 4, 'bare " in non-quoted field'));
  expect(() => parseCsv('"closed"x,1')).toThrow(/line 1, column 9: extraneous or missing "/);
  expect(() => parseCsv('a\n"never closed')).toThrow(/line 2, .*extraneous or missing "/);
});
