// RFC 4180 records as Go's encoding/csv reads them (what upstream's token and password files go through):
// blank lines skipped, a field may be quoted, "" inside quotes is a quote, a stray quote is an error.

export interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  fields: string[];
}

export class CsvError extends Error {
  constructor(readonly line: number, readonly column: number, problem: string) {
    super(`line ${line}, column ${column}: ${problem}`);
    this.name = 'CsvError';
  }
}

export const parseCsv = (text: string): CsvRecord[] => {
  const records: CsvRecord[] = [];
  let line = 1;
  let col = 0;
  let i = 0;
  const at = (): string | undefined => text[i];
  const next = (): string | undefined => {
    const c = text[i++];
    if (c === '\n') { line++; col = 0; } else col++;
    return c;
  };

  while (i < text.length) {
    if (at() === '\n' || (at() === '\r' && text[i + 1] === '\n')) { // blank line
      if (at() === '\r') next();
      next();
      continue;
    }
    const record: CsvRecord = { line, fields: [] };
    for (;;) {
      let field = '';
      if (at() === '"') {
        next();
        for (;;) {
          const c = next();
          if (c === undefined) throw new CsvError(record.line, col, 'extraneous or missing " in quoted-field');
          if (c !== '"') { field += c; continue; }
          if (at() === '"') { next(); field += '"'; continue; }
          break;
        }
        const after = at();
        if (after !== undefined && after !== ',' && after !== '\n' && !(after === '\r' && text[i + 1] === '\n')) {
          throw new CsvError(line, col + 1, 'extraneous or missing " in quoted-field');
        }
      } else {
        while (at() !== undefined && at() !== ',' && at() !== '\n' && !(at() === '\r' && text[i + 1] === '\n')) {
          const c = next();
          if (c === '"') throw new CsvError(line, col, 'bare " in non-quoted field');
          field += c;
        }
      }
      record.fields.push(field);
      if (at() === ',') { next(); continue; }
      if (at() === '\r') next();
      next(); // the newline, or past the end
      break;
    }
    records.push(record);
  }
  return records;
};
