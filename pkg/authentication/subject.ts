// The common names and organizations of a certificate's subject, read from node's own parse of it (loading an
// ASN.1 library for this would cost the apiserver's start ~50 ms). Node prints the subject one attribute per
// line ("CN=jane\nO=dev"), the attributes of a multi-valued RDN joined by " + ", and escapes values as
// RFC 2253 does (`\,` `\+` ...) with control and other escaped bytes as `\XX` hex.
import type { X509Certificate } from 'node:crypto';

export interface SubjectFields {
  commonNames: string[];
  organizations: string[];
}

const hex = /^[0-9A-Fa-f]{2}$/;

/** Splits node's subject text into [key, value] pairs, undoing the escapes. */
const attributes = (text: string): [string, string][] => {
  const out: [string, string][] = [];
  let key = '';
  let bytes: number[] = [];
  let inValue = false;
  const flush = (): void => {
    if (key || bytes.length) out.push([key, Buffer.from(bytes).toString('utf8')]);
    key = '';
    bytes = [];
    inValue = false;
  };
  const push = (s: string): void => {
    if (inValue) bytes.push(...Buffer.from(s, 'utf8'));
    else key += s;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const pair = text.slice(i + 1, i + 3);
      if (hex.test(pair)) {
        bytes.push(parseInt(pair, 16));
        i += 2;
      } else {
        push(text[i + 1]!);
        i += 1;
      }
    } else if (c === '\n') {
      flush();
    } else if (c === ' ' && text.startsWith(' + ', i)) {
      flush();
      i += 2;
    } else if (c === '=' && !inValue) {
      inValue = true;
    } else {
      push(c);
    }
  }
  flush();
  return out;
};

export const subjectFields = (cert: X509Certificate): SubjectFields => {
  const fields: SubjectFields = { commonNames: [], organizations: [] };
  for (const [k, v] of attributes(cert.subject)) {
    if (k === 'CN') fields.commonNames.push(v);
    else if (k === 'O') fields.organizations.push(v);
  }
  return fields;
};
