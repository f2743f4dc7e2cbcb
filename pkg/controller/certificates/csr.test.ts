import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { approvalMessage, shouldDelete } from './csr.js';
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
  const node: CsrFacts = { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [] };
  const CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
  const SERVING = 'kubernetes.io/kubelet-serving';
  it('kubelet client certificates: exactly digital signature and client auth, key encipherment optional whatever the key', () => {
    expect(signerRefusal(CLIENT, ['digital signature', 'client auth'], node)).toBeUndefined();
    expect(signerRefusal(CLIENT, ['client auth', 'key encipherment', 'digital signature'], node)).toBeUndefined();
    expect(signerRefusal(CLIENT, ['client auth'], node)).toBe('usages did not match [client auth digital signature key encipherment]');
    expect(signerRefusal(CLIENT, ['client auth'], { ...node, organizations: ['x'] })).toBe('subject organization is not system:nodes');
    expect(signerRefusal(CLIENT, ['client auth'], { ...node, ipAddresses: ['10.0.0.1'], uris: ['spiffe://x'] })).toBe('IP subjectAltNames are not allowed');
    expect(signerRefusal(CLIENT, ['client auth'], { ...node, emailAddresses: ['a@b'], dnsNames: ['a'] })).toBe('DNS subjectAltNames are not allowed');
    // the common name before the usages
    expect(signerRefusal(CLIENT, ['client auth'], { ...node, commonName: 'jane' })).toBe('subject common name does not begin with system:node:');
  });
  it('kubelet serving certificates: a DNS or IP name, then the usages, then the common name', () => {
    expect(signerRefusal(SERVING, ['digital signature', 'server auth'], { ...node, ipAddresses: ['10.0.0.1'] })).toBeUndefined();
    expect(signerRefusal(SERVING, ['digital signature', 'key encipherment', 'server auth'], { ...node, dnsNames: ['n1'] })).toBeUndefined();
    expect(signerRefusal(SERVING, ['server auth'], node)).toBe('DNS or IP subjectAltName is required');
    expect(signerRefusal(SERVING, ['server auth'], { ...node, dnsNames: ['n1'], uris: ['spiffe://x'] })).toBe('URI subjectAltNames are not allowed');
    expect(signerRefusal(SERVING, ['server auth'], { ...node, dnsNames: ['n1'], commonName: 'x' })).toBe('usages did not match [digital signature key encipherment server auth]');
    expect(signerRefusal(SERVING, ['digital signature', 'server auth'], { ...node, dnsNames: ['n1'], commonName: 'x' })).toBe('subject common name does not begin with system:node:');
  });
  it('kube-apiserver-client: client auth required, digital signature and key encipherment optional', () => {
    expect(signerRefusal('kubernetes.io/kube-apiserver-client', ['key encipherment', 'client auth'], node)).toBeUndefined();
    expect(signerRefusal('kubernetes.io/kube-apiserver-client', ['digital signature'], node)).toBe('missing required usage for client certificate: client auth');
    expect(signerRefusal('kubernetes.io/kube-apiserver-client', ['client auth', 'server auth'], node)).toBe('invalid usage for client certificate: server auth');
  });
});

describe('csrapproving', () => {
  const csrBy = (username: string): KubeObject => ({ metadata: { name: 'c' }, spec: { username } });
  it('approves a node\'s request for its own name as selfnodeclient first, any other through nodeclient', async () => {
    const asked: string[] = [];
    const allow = (subs: string[]) => async (_c: KubeObject, sub: string): Promise<boolean> => { asked.push(sub); return subs.includes(sub); };
    expect(await approvalMessage(csrBy('system:node:n1'), 'system:node:n1', allow(['selfnodeclient', 'nodeclient']))).toBe('Auto approving self kubelet client certificate after SubjectAccessReview.');
    expect(asked).toEqual(['selfnodeclient']);
    expect(await approvalMessage(csrBy('system:node:n1'), 'system:node:n1', allow(['nodeclient']))).toBe('Auto approving kubelet client certificate after SubjectAccessReview.');
    expect(await approvalMessage(csrBy('system:bootstrap:abc'), 'system:node:n1', allow(['selfnodeclient']))).toBeUndefined();
  });
});
