import { describe, expect, it } from 'vitest';
import { shouldDelete } from './csr.js';
import { signerRefusal, type CsrFacts } from './signer-rules.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const H = 3600_000;
const csr = (conditions: { type: string; lastUpdateTime: string }[] = [], certificate?: string) => ({
  metadata: { name: 'x', creationTimestamp: '2026-01-01T00:00:00Z' }, status: { conditions, certificate },
});

describe('csrcleaner', () => {
  it('deletes issued, denied and failed requests after an hour, pending ones after a day, expired ones at once', () => {
    const at = '2026-01-01T00:00:00Z';
    expect(shouldDelete(csr([{ type: 'Approved', lastUpdateTime: at }], 'cert'), T0 + 30 * 60_000)).toBe(false);
    expect(shouldDelete(csr([{ type: 'Approved', lastUpdateTime: at }], 'cert'), T0 + 2 * H)).toBe(true);
    expect(shouldDelete(csr([{ type: 'Approved', lastUpdateTime: at }]), T0 + 2 * H)).toBe(false);
    expect(shouldDelete(csr([{ type: 'Denied', lastUpdateTime: at }]), T0 + 2 * H)).toBe(true);
    expect(shouldDelete(csr([{ type: 'Failed', lastUpdateTime: at }]), T0 + 2 * H)).toBe(true);
    expect(shouldDelete(csr(), T0 + 23 * H)).toBe(false);
    expect(shouldDelete(csr(), T0 + 25 * H)).toBe(true);
    expect(shouldDelete(csr([{ type: 'Approved', lastUpdateTime: at }], 'cert'), T0 + 60_000, T0)).toBe(true);
  });
});

describe('signer rules', () => {
  const node: CsrFacts = { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [], rsa: false };
  it('kubelet client certificates: system:nodes, system:node:*, no SANs, client auth (key encipherment only for RSA)', () => {
    expect(signerRefusal('kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth'], node)).toBeUndefined();
    expect(signerRefusal('kubernetes.io/kube-apiserver-client-kubelet', ['key encipherment', 'client auth'], node)).toBe('invalid usage for client certificate: key encipherment');
    expect(signerRefusal('kubernetes.io/kube-apiserver-client-kubelet', ['client auth'], { ...node, organizations: ['x'] })).toBe('subject organization is not system:nodes');
    expect(signerRefusal('kubernetes.io/kube-apiserver-client-kubelet', ['client auth'], { ...node, dnsNames: ['a'] })).toBe('DNS, email, IP and URI subjectAltNames are not allowed');
  });
  it('kubelet serving certificates need a DNS or IP name and server auth', () => {
    expect(signerRefusal('kubernetes.io/kubelet-serving', ['digital signature', 'server auth'], { ...node, ipAddresses: ['10.0.0.1'] })).toBeUndefined();
    expect(signerRefusal('kubernetes.io/kubelet-serving', ['server auth'], node)).toBe('DNS or IP subjectAltName is required');
    expect(signerRefusal('kubernetes.io/kubelet-serving', ['digital signature'], { ...node, dnsNames: ['n1'] })).toBe('missing required usage: server auth');
  });
});
