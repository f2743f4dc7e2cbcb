import { describe, expect, it } from 'vitest';
import {
  generateName, generateNameSuffix, isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName,
  isValidLabelValue, nameIsDNSSubdomain, nameIsPathSegment,
} from './names.js';

describe('DNS names', () => {
  it('accepts valid subdomains and rejects others with upstream wording', () => {
    expect(isDNS1123Subdomain('web.example-1.com')).toEqual([]);
    expect(isDNS1123Subdomain('Web')).toEqual([
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });

  it('words label errors, with the dots special case', () => {
    expect(isDNS1123Label('my-name')).toEqual([]);
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('-a')[0]).toBe(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    expect(isDNS1035Label('1abc')[0]).toContain("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character");
    expect(isDNS1035Label('abc-1')).toEqual([]);
  });

  it('masks a trailing dash of a generateName prefix', () => {
    expect(nameIsDNSSubdomain('web-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('web-', false)).toHaveLength(1);
  });

  it('validates path segment names', () => {
    expect(nameIsPathSegment('..', false)).toEqual(["may not be '..'"]);
    expect(nameIsPathSegment('a/b%c', false)).toEqual(["may not contain '/'", "may not contain '%'"]);
    expect(nameIsPathSegment('system:admin', false)).toEqual([]);
  });
});

describe('qualified names and label values', () => {
  it('checks prefix and name parts', () => {
    expect(isQualifiedName('app.kubernetes.io/name')).toEqual([]);
    expect(isQualifiedName('/name')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('Bad_Prefix/name')[0]).toMatch(/^prefix part a lowercase RFC 1123 subdomain/);
    expect(isQualifiedName('a/')).toEqual(['name part must be non-empty', expect.stringMatching(/^name part must consist of/)]);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e.g. 'example.com\/MyName'\)$/);
    expect(isQualifiedName('-x')).toEqual([
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    expect(isQualifiedName('x'.repeat(64))).toEqual(['name part must be no more than 63 characters']);
  });

  it('allows empty label values but not bad ones', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('v1.2_3')).toEqual([]);
    expect(isValidLabelValue('bad value')[0]).toMatch(/^a valid label must be an empty string or consist of/);
    expect(isValidLabelValue('x'.repeat(64))).toContain('must be no more than 63 characters');
  });
});

describe('generateName', () => {
  it('appends five characters of the consonant-digit alphabet', () => {
    for (let i = 0; i < 50; i++) expect(generateNameSuffix()).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(generateName('web-')).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('cuts a long base so the result fits a label', () => {
    const n = generateName('x'.repeat(80));
    expect(n).toHaveLength(63);
    expect(n.startsWith('x'.repeat(58))).toBe(true);
  });
});
