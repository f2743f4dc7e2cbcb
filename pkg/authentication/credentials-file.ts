// Upstream's static credential files share one shape: `secret,user,uid[,"group1,group2"]`, one user per line.
import { readFileSync } from 'node:fs';
import type { UserInfo } from './interface.js';
import { CsvError, parseCsv } from './csv.js';

export interface CredentialEntry {
  secret: string;
  user: UserInfo;
}

/** Reads the whole file at start-up; any malformed line aborts with the file and the line in the message. */
export const loadCredentialsFile = (path: string, secretName: 'token' | 'password'): CredentialEntry[] => {
  const fail = (line: number, problem: string): never => {
    throw new Error(`${secretName} file ${path}: line ${line}: ${problem}`);
  };
  let records;
  try {
    records = parseCsv(readFileSync(path, 'utf8'));
  } catch (e) {
    if (e instanceof CsvError) return fail(e.line, `column ${e.column}: ${e.message.replace(/^line \d+, column \d+: /, '')}`);
    throw new Error(`${secretName} file ${path}: ${(e as Error).message}`);
  }
  const entries: CredentialEntry[] = [];
  for (const { line, fields } of records) {
    const [secret = '', name = '', uid = '', groups] = fields;
    if (fields.length < 3) fail(line, `must have at least 3 columns (${secretName}, user name, user uid), found ${fields.length}`);
    if (secret === '') fail(line, `empty ${secretName}`);
    if (name === '') fail(line, 'empty user name');
    const user: UserInfo = { name, uid, groups: groups ? groups.split(',').filter((g) => g !== '') : [] };
    entries.push({ secret, user });
  }
  return entries;
};
