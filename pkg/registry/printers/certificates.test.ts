// Expectations from upstream's TestPrintCertificateSigningRequest.
import { describe, expect, it } from 'vitest';
import { certificateSigningRequestPrinter } from './certificates.js';
import { NOW, obj } from './testing.js';

describe('certificate signing requests', () => {
  const csr = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
    certificateSigningRequestPrinter.cells(obj('csr1', { spec, status }, 60), NOW);

  it('prints signer, requestor, duration and condition', () => {
    expect(csr({ signerName: 'kubernetes.io/kube-apiserver-client', username: 'CSRRequestor', expirationSeconds: 10800 })).toEqual([
      'csr1',
      '60s',
      'kubernetes.io/kube-apiserver-client',
      'CSRRequestor',
      '3h',
      'Pending',
    ]);
    expect(csr({}).slice(2, 5)).toEqual(['<none>', '', '<none>']);
  });

  it('combines approval, failure and issuance', () => {
    expect(csr({}, { conditions: [{ type: 'Approved' }], certificate: 'Y2VydA==' })[5]).toBe('Approved,Issued');
    expect(csr({}, { conditions: [{ type: 'Approved' }, { type: 'Denied' }, { type: 'Failed' }] })[5]).toBe('Denied,Failed');
  });
});
