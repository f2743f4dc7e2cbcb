// CertificateSigningRequest validation as upstream's validateCertificateSigningRequest words and orders it.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import type { RequestContext } from '../context.js';
import { certificateSigningRequestStrategy as strategy } from './certificatesigningrequests.js';

const msgs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const csr = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({ metadata: { name: 'x' }, spec, status });
const validate = (o: KubeObject): string[] => msgs(strategy.validate!(o, {} as RequestContext));

describe('CertificateSigningRequest validation', () => {
  it('reports request, usages, signerName and expirationSeconds in upstream\'s order, the request as Go prints a []byte', () => {
    const got = validate(csr({ request: Buffer.from('no').toString('base64'), signerName: 'nope', usages: ['flying', 'client auth', 'client auth', 'flying'], expirationSeconds: 60 }));
    expect(got[0]).toBe('spec.request: Invalid value: []byte{0x6e, 0x6f}: PEM block type must be CERTIFICATE REQUEST');
    expect(got[1]).toMatch(/^spec\.usages\[0\]: Unsupported value: "flying": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", /);
    expect(got.slice(2)).toEqual([
      expect.stringMatching(/^spec\.usages\[3\]: Unsupported value: "flying"/),
      'spec.usages[2]: Duplicate value: "client auth"',
      'spec.usages[3]: Duplicate value: "flying"',
      "spec.signerName: Invalid value: \"nope\": must be a fully qualified domain and path of the form 'example.com/signer-name'",
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
  });

  it('words an absent request and empty usages as upstream', () => {
    expect(validate(csr({ signerName: 'example.com/s', usages: [] }))).toEqual([
      'spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST',
      'spec.usages: Required value',
    ]);
  });

  it('takes the legacy signer\'s refusal instead of the name checks', () => {
    expect(validate(csr({ signerName: 'kubernetes.io/legacy-unknown', usages: ['client auth'] })).slice(1)).toEqual([
      'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version',
    ]);
  });

  it('checks conditions in order: type, status, exclusivity, duplicates; refuses removing one', () => {
    const valid = { request: undefined, signerName: 'example.com/s', usages: ['client auth'] };
    const got = validate(csr(valid, { conditions: [{ type: 'Approved', status: '' }, { type: 'Denied', status: 'True' }, { type: 'Denied', status: 'True' }] })).slice(1);
    expect(got).toEqual([
      'status.conditions[0].status: Required value',
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].type: Duplicate value: "Denied"',
    ]);
    const old = csr(valid, { conditions: [{ type: 'Failed', status: 'True' }] });
    expect(msgs(strategy.validateSubresource!(csr(valid, {}), old, {} as RequestContext, 'status'))).toEqual([
      'status.conditions: Forbidden: updates may not remove a condition of type "Failed"',
    ]);
  });
});
