import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCa, issueCertificate } from '../pki/index.js';
import { x509 } from '../pki/x509.js';
import { subjectFields } from './subject.js';

describe('subjectFields', () => {
  // An independent ASN.1 parser is the judge: every name must come back as @peculiar/x509 reads it.
  const names: [string, string[]][] = [
    ['system:node:node-1', ['system:nodes']],
    ['jane', ['dev', 'ops', 'system:authenticated']],
    ['a,b+c"d<f>g;h=i', ['with + plus', ' leading and trailing ', 'mid#hash']],
    ['ünïcödé 名前', ['グループ', 'tab\there', 'line\nbreak']],
    ['only-cn', []],
  ];
  it.each(names)('reads CN %j and its organizations as an ASN.1 parser does', async (cn, orgs) => {
    const ca = await createCa('subject-test-ca', 1);
    const leaf = await issueCertificate(ca, { subject: { commonName: cn, organizations: orgs }, usage: 'client', days: 1 });
    const judge = new x509.X509Certificate(leaf.certPem).subjectName;
    const got = subjectFields(new X509Certificate(leaf.certPem));
    expect(got).toEqual({ commonNames: judge.getField('CN'), organizations: judge.getField('O') });
    expect(got.commonNames).toHaveLength(1);
    expect(got.organizations).toHaveLength(orgs.length);
  });
});
