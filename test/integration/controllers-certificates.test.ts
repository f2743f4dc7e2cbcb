// CertificateSigningRequests with the real kubectl: a client certificate requested for kubernetes.io/kube-apiserver-
// client, `kubectl certificate approve`, issued by csrsigning with the cluster CA and then accepted by the apiserver
// as that user (kubectl auth whoami); deny; upstream's admission refusals (approving without `approve` on the signer,
// system:masters); Failed for a request the signer's rules refuse; kubelet client requests auto-approved.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resources, type KubeObject } from '../../pkg/client/index.js';
import { generateKey, privateKeyPem } from '../../pkg/pki/keys.js';
import { x509 } from '../../pkg/pki/x509.js';
import { kubeconfigYaml } from '../../pkg/pki/index.js';
import { eventually, startHarness, type Harness } from './workloads-harness.js';

let h: Harness;
let dir = '';

/** A key and a PEM CSR for that subject. */
async function request(commonName: string, organizations: string[] = [], dns: string[] = []): Promise<{ csrPem: string; keyPem: string }> {
  const k = await generateKey();
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [...organizations.map((o) => ({ O: [o] })), { CN: [commonName] }],
    keys: k.keys, signingAlgorithm: k.algorithm,
    extensions: dns.length ? [new x509.SubjectAlternativeNameExtension(dns.map((value) => ({ type: 'dns' as const, value })))] : [],
  });
  return { csrPem: csr.toString('pem'), keyPem: await privateKeyPem(k.keys.privateKey) };
}

const manifest = (name: string, csrPem: string, signerName: string, usages: string[]): string => JSON.stringify({
  apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request: Buffer.from(csrPem).toString('base64'), signerName, usages, expirationSeconds: 3600 },
});

const csrOf = (name: string): Promise<KubeObject> => h.c.resource(Resources.certificateSigningRequests).get(name);
const conditionTypes = (o: KubeObject): string[] => (o.status?.conditions ?? []).map((c: { type: string }) => c.type);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mini-kube-csr-'));
  h = await startHarness(['csrsigning', 'csrapproving']);
}, 60_000);

afterAll(async () => {
  await h?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('certificate signing requests', () => {
  it('a client certificate: requested, approved with kubectl, issued, and then a user the apiserver believes', async () => {
    const { csrPem, keyPem } = await request('jane', ['devs']);
    expect((await h.s.kubectlWithInput(manifest('jane', csrPem, 'kubernetes.io/kube-apiserver-client', ['client auth']), 'apply', '-f', '-')).stderr).toBe('');
    const created = await csrOf('jane');
    expect(created.spec).toMatchObject({ username: 'kubernetes-admin', groups: expect.arrayContaining(['system:masters', 'system:authenticated']) });
    expect((await h.s.kubectl('get', 'csr', 'jane')).stdout).toMatch(/^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION\njane\s+\S+\s+kubernetes.io\/kube-apiserver-client\s+kubernetes-admin\s+60m\s+Pending\n$/);

    expect((await h.s.kubectl('certificate', 'approve', 'jane')).stdout).toBe('certificatesigningrequest.certificates.k8s.io/jane approved\n');
    const issued = await eventually(() => csrOf('jane'), (o) => !!o.status?.certificate, 'certificate issued');
    expect(issued.status.conditions[0]).toMatchObject({ type: 'Approved', status: 'True', reason: 'KubectlApprove' });
    expect((await h.s.kubectl('get', 'csr', 'jane')).stdout).toContain('Approved,Issued');

    const certPem = Buffer.from(issued.status.certificate, 'base64').toString();
    const cert = new x509.X509Certificate(certPem);
    expect(cert.subject).toBe('O=devs, CN=jane');
    expect(cert.notAfter.getTime() - cert.notBefore.getTime()).toBeLessThanOrEqual((3600 + 300) * 1000);
    const kubeconfig = join(dir, 'jane.kubeconfig');
    await writeFile(kubeconfig, kubeconfigYaml({ server: h.s.url, caPem: await readFile(h.s.pki.ca.cert, 'utf8'), certPem, keyPem, user: 'jane' }));
    const whoami = await h.s.kubectl('--kubeconfig', kubeconfig, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}');
    expect(whoami.stdout).toBe('jane ["devs","system:authenticated"]');
  }, 60_000);

  it('deny, and what admission and validation refuse', async () => {
    const { csrPem } = await request('bob');
    await h.s.kubectlWithInput(manifest('bob', csrPem, 'kubernetes.io/kube-apiserver-client', ['client auth']), 'apply', '-f', '-');
    // approving needs `approve` on the signer: a user with update on the approval subresource only is refused
    await h.s.api('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'csr-approval' }, rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests', 'certificatesigningrequests/approval'], verbs: ['get', 'list', 'update'] }] });
    await h.s.api('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'csr-approval' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'csr-approval' }, subjects: [{ kind: 'User', name: 'approver', apiGroup: 'rbac.authorization.k8s.io' }] });
    const refused = await h.s.kubectl('--as', 'approver', 'certificate', 'approve', 'bob');
    expect(refused.stderr).toContain('user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"');
    expect((await h.s.kubectl('certificate', 'deny', 'bob')).stdout).toBe('certificatesigningrequest.certificates.k8s.io/bob denied\n');
    expect(conditionTypes(await csrOf('bob'))).toEqual(['Denied']);
    expect((await h.s.kubectl('certificate', 'approve', 'bob')).stderr).toContain('certificate signing request "bob" is already Denied');
    const denied = await csrOf('bob');
    const both = { ...denied, status: { conditions: [...denied.status.conditions, { type: 'Approved', status: 'True', reason: 'Mine' }] } };
    const err = await h.c.resource(Resources.certificateSigningRequests).updateSubresource('bob', 'approval', both).then(() => 'accepted', (e: Error) => e.message);
    expect(err).toContain('status.conditions[1].type: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive');

    const masters = await request('root', ['system:masters']);
    const m = await h.s.kubectlWithInput(manifest('root', masters.csrPem, 'kubernetes.io/kube-apiserver-client', ['client auth']), 'apply', '-f', '-');
    expect(m.stderr).toContain('use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
    const bad = await h.s.kubectlWithInput(JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'bad' }, spec: { request: Buffer.from('not a csr').toString('base64'), signerName: 'nope', usages: ['flying'], expirationSeconds: 60 } }), 'apply', '-f', '-');
    expect(bad.stderr).toContain('spec.request: Invalid value: []byte{0x6e, 0x6f, 0x74, 0x20, 0x61, 0x20, 0x63, 0x73, 0x72}: PEM block type must be CERTIFICATE REQUEST');
    expect(bad.stderr).toContain("spec.signerName: Invalid value: \"nope\": must be a fully qualified domain and path of the form 'example.com/signer-name'");
    expect(bad.stderr).toContain('spec.usages[0]: Unsupported value: "flying"');
    expect(bad.stderr).toContain('spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)');
    // the legacy signer was v1beta1's only
    const legacy = await h.s.kubectlWithInput(manifest('legacy', masters.csrPem, 'kubernetes.io/legacy-unknown', ['client auth']), 'apply', '-f', '-');
    expect(legacy.stderr).toContain('spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version');
  }, 60_000);

  it('the signer marks what its rules refuse Failed; kubelet client requests are approved automatically', async () => {
    const serving = await request('web', [], ['web.example.com']);
    await h.s.kubectlWithInput(manifest('serving', serving.csrPem, 'kubernetes.io/kube-apiserver-client', ['server auth']), 'apply', '-f', '-');
    await h.s.kubectl('certificate', 'approve', 'serving');
    const failed = await eventually(() => csrOf('serving'), (o) => conditionTypes(o).includes('Failed'), 'Failed');
    expect(failed.status.conditions.find((c: { type: string }) => c.type === 'Failed')).toMatchObject({ reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth' });
    expect(failed.status.certificate).toBeUndefined();

    const node = await request('system:node:n1', ['system:nodes']);
    await h.s.kubectlWithInput(manifest('node-n1', node.csrPem, 'kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth']), 'apply', '-f', '-');
    const approved = await eventually(() => csrOf('node-n1'), (o) => !!o.status?.certificate, 'kubelet certificate issued');
    expect(approved.status.conditions[0]).toMatchObject({ type: 'Approved', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' });
    expect(new x509.X509Certificate(Buffer.from(approved.status.certificate, 'base64').toString()).subject).toBe('O=system:nodes, CN=system:node:n1');
  }, 60_000);
});
