// mini-kube as controller-runtime's envtest runs kube-apiserver: a link named kube-apiserver (what
// $KUBEBUILDER_ASSETS or $TEST_ASSET_KUBE_APISERVER name), started with envtest's own command line on envtest's
// certificates (RSA keys of a "TinyCA", PKCS#8 PEM; the service-account key given as a CA certificate) and etcd.
// envtest reads `--help` for --insecure-port, polls /healthz without credentials, then works as a system:masters user
// with a client certificate, and stops the server with SIGTERM.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueCertificate, type CertificateAuthority } from '../../pkg/pki/certificates.js';
import { loadKey } from '../../pkg/pki/keys.js';
import { writeKubeconfig } from '../../pkg/pki/index.js';
import { freePort } from '../bench/processes.js';
import { bundleMain } from '../support/binary.js';
import { haveEtcd, startEtcd, type EtcdServer } from '../support/etcd.js';
import { kubectl } from '../support/apiserver.js';
import { succeeded } from '../support/kubectl-run.js';

/** An RSA 2048 key as PKCS#8 PEM, as envtest's TinyCA makes them. */
const rsaKeyPem = (): string => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const tinyCa = async (): Promise<CertificateAuthority & { certPem: string; keyPem: string }> => {
  const keyPem = rsaKeyPem();
  const ca = await createCa('envtest-environment', 7, await loadKey(keyPem));
  return { ...ca, certPem: ca.cert.toString('pem'), keyPem };
};

let bin: { main: string; cleanup(): Promise<void> } | undefined;
let etcd: EtcdServer | undefined;
let work: string;
let server: ChildProcess | undefined;

describe.skipIf(!haveEtcd())('envtest runs mini-kube as its kube-apiserver', () => {
  beforeAll(async () => {
    [bin, etcd] = await Promise.all([bundleMain('mini-kube-envtest-'), startEtcd()]);
    work = await mkdtemp(join(tmpdir(), 'mini-kube-envtest-'));
    await symlink(bin.main, join(work, 'kube-apiserver'));
  }, 120_000);

  afterAll(async () => {
    server?.kill('SIGKILL');
    await Promise.all([etcd?.stop(), bin?.cleanup(), work && rm(work, { recursive: true, force: true })]);
  });

  it('offers no --insecure-port in its help, as kube-apiserver 1.24+', () => {
    const help = spawnSync(join(work, 'kube-apiserver'), ['--help'], { encoding: 'utf8' }); // run as envtest runs it: the file itself
    expect(help.status).toBe(0);
    expect(help.stdout).not.toMatch(/^\s*--insecure-port\b/m);
    expect(help.stdout).toMatch(/^\s*--cert-dir\b/m);
    expect(help.stdout).toContain('Usage:\n  kube-apiserver [flags]\n'); // the name it was run by, as upstream's
  });

  it('serves envtest\'s command line from its certificate directory and etcd, and stops on SIGTERM', async () => {
    const certDir = join(work, 'k8s_test_framework_1');
    const cwd = join(work, 'operator');
    await Promise.all([mkdir(certDir), mkdir(cwd)]);
    const serving = await tinyCa();
    const leaf = await issueCertificate(serving, { subject: { commonName: 'localhost', organizations: ['envtest'] }, usage: 'server', sans: ['localhost', '127.0.0.1'], days: 7, key: await loadKey(rsaKeyPem()) });
    const sa = await tinyCa();
    const clients = await tinyCa();
    const admin = await issueCertificate(clients, { subject: { commonName: 'envtest-admin', organizations: ['system:masters'] }, usage: 'client', days: 7 });
    await Promise.all([
      writeFile(join(certDir, 'apiserver.crt'), leaf.certPem), writeFile(join(certDir, 'apiserver.key'), leaf.keyPem),
      writeFile(join(certDir, 'sa-signer.crt'), sa.certPem), writeFile(join(certDir, 'sa-signer.key'), sa.keyPem),
      writeFile(join(certDir, 'client-cert-auth-ca.crt'), clients.certPem),
    ]);
    const port = await freePort();
    // controller-runtime's APIServer.defaultArgs with its CertAuthn's --client-ca-file
    const args = [
      `--etcd-servers=${etcd!.url}`, `--cert-dir=${certDir}`, '--service-cluster-ip-range=10.0.0.0/24', '--allow-privileged=true',
      '--disable-admission-plugins=ServiceAccount', '--authorization-mode=RBAC', `--secure-port=${port}`, '--bind-address=127.0.0.1',
      `--service-account-issuer=https://127.0.0.1:${port}/`, `--service-account-key-file=${join(certDir, 'sa-signer.crt')}`,
      `--service-account-signing-key-file=${join(certDir, 'sa-signer.key')}`, '--advertise-address=127.0.0.1',
      `--client-ca-file=${join(certDir, 'client-cert-auth-ca.crt')}`,
    ];
    server = spawn(join(work, 'kube-apiserver'), args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });

    // envtest's health check: no client certificate, the serving certificate not verified, until 200
    const insecure = new Agent({ connect: { rejectUnauthorized: false } });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const status = await request(`https://127.0.0.1:${port}/healthz`, { dispatcher: insecure }).then(async (r) => { await r.body.dump(); return r.statusCode; }, () => 0);
      if (status === 200) break;
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`no /healthz 200 (last ${status}): ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await insecure.close();

    const kubeconfig = join(work, 'admin.kubeconfig');
    await writeKubeconfig(kubeconfig, { server: `https://127.0.0.1:${port}`, caPem: serving.certPem, certPem: admin.certPem, keyPem: admin.keyPem, user: 'envtest-admin' });
    const run = (...a: string[]) => succeeded(kubectl(kubeconfig, a), a);
    expect((await run('auth', 'whoami', '-o', 'jsonpath={.status.userInfo.groups}')).stdout).toContain('system:masters');
    expect((await run('get', 'endpoints', 'kubernetes', '-o', 'jsonpath={.subsets[0].addresses[0].ip}:{.subsets[0].ports[0].port}')).stdout).toBe(`127.0.0.1:${port}`);
    // what an operator's suite does first: install its CRDs and wait for them to be served
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      },
    };
    expect((await kubectl(kubeconfig, ['apply', '-f', '-'], JSON.stringify(crd))).code).toBe(0);
    await run('wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=20s');
    expect((await kubectl(kubeconfig, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { size: 3 } }))).code).toBe(0);
    expect((await run('get', 'widget', 'w', '-o', 'jsonpath={.spec.size}')).stdout).toBe('3');
    // a service-account token signed with envtest's key verifies against its certificate
    await run('create', 'serviceaccount', 'operator');
    const token = (await run('create', 'token', 'operator')).stdout.trim();
    const review = await kubectl(kubeconfig, ['create', '-o', 'jsonpath={.status.user.username}', '-f', '-'],
      JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } }));
    expect(review.stdout).toBe('system:serviceaccount:default:operator');

    // the objects are etcd's (under /registry, as upstream lays them out), and nothing was written to the cwd
    const res = await fetch(`${etcd!.url}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: Buffer.from('/registry/example.com/widgets/default/w').toString('base64') }) });
    expect(((await res.json()) as { kvs?: unknown[] }).kvs).toHaveLength(1);
    expect(await readdir(cwd)).toEqual([]);
    // its certificates are envtest's: a kubeconfig of the generated CA's admin would not work, so none is written
    expect(existsSync(join(certDir, 'admin.kubeconfig'))).toBe(false);

    server.kill('SIGTERM');
    const [code] = await once(server, 'exit') as [number | null];
    expect(code).toBe(0);
    server = undefined;
  }, 90_000);
});
