// Bootstrap tokens and kubelet TLS bootstrapping as `kubeadm join` uses them: an apiserver with
// --enable-bootstrap-token-auth, the controller-manager's csrapproving, csrsigning, bootstrapsigner and tokencleaner
// (its own service accounts, no RBAC refusal allowed), the cluster-info ConfigMap and kubeadm's bindings as `up`
// applies them, and a `mini-kube kubelet` process (process runtime) given only a bootstrap kubeconfig with a token:
// its request is approved and issued, the Node registers Ready under system:node:<name> (the audit log says who wrote
// it), the real kubectl sees the token as system:bootstrap:<id>; an expired token is refused and then deleted; the
// cluster-info kubeconfig, readable anonymously, carries the token's signature.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyClusterInfoObjects } from '../../cmd/cluster-info-addon.js';
import { bundledMain } from '../../cmd/package-info.js';
import { detachedSignature } from '../../pkg/apimachinery/bootstrap-token.js';
import { stringifyYaml } from '../../pkg/apimachinery/yaml.js';
import { Client, Resources, type KubeObject } from '../../pkg/client/index.js';
import { x509 } from '../../pkg/pki/x509.js';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { controllerManagerKubeconfig, startInProcess } from './controllers-support.js';
import { condition, eventually } from './kubelet-support.js';

const NODE = 'joined-node';
const ID = 'abcdef';
const SECRET = '0123456789abcdef';
const TOKEN = `${ID}.${SECRET}`;
const GROUP = 'system:bootstrappers:kubeadm:default-node-token';

/** A token Secret as `kubeadm token create` writes it (expiration optional). */
const tokenManifest = (id: string, secret: string, expiration?: string): string => JSON.stringify({
  apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.kubernetes.io/token', metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
  stringData: {
    'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', 'usage-bootstrap-signing': 'true', 'auth-extra-groups': GROUP,
    ...(expiration ? { expiration } : {}),
  },
});

describe.skipIf(!existsSync(bundledMain))('bootstrap tokens and kubelet TLS bootstrapping', () => {
  let s: TestApiServer;
  let admin: Client;
  let cm: { stop(): Promise<void> };
  let dir = '';
  let caPem = '';
  let kubelet: ChildProcess | undefined;
  let kubeletLog = '';

  /** A kubeconfig with the CA (its data, or `caFile`) and a bearer token, as kubeadm join's bootstrap-kubelet.conf. */
  const tokenKubeconfig = async (name: string, token: string, caFile?: string): Promise<string> => {
    const path = join(dir, name);
    const ca = caFile ? { 'certificate-authority': caFile } : { 'certificate-authority-data': Buffer.from(caPem).toString('base64') };
    await writeFile(path, stringifyYaml({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'tls-bootstrap-token-user@kubernetes',
      clusters: [{ name: 'kubernetes', cluster: { server: s.url, ...ca } }],
      contexts: [{ name: 'tls-bootstrap-token-user@kubernetes', context: { cluster: 'kubernetes', user: 'tls-bootstrap-token-user' } }],
      users: [{ name: 'tls-bootstrap-token-user', user: { token } }],
    }));
    return path;
  };
  /** eventually(), failing with the kubelet's log so far. */
  const kubeletEventually = <T>(fn: () => Promise<T | undefined>, ms: number, what: string): Promise<T> =>
    eventually(fn, ms, what).catch((e: Error) => { throw new Error(`${e.message}\nkubelet log:\n${kubeletLog.slice(-4000)}`); });
  const whoami = (kubeconfig: string) => s.kubectl('--kubeconfig', kubeconfig, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mk-bootstrap-'));
    s = await startTestApiServer({ enableBootstrapTokenAuth: true, auditLogPath: join(dir, 'audit.log') });
    admin = await Client.fromKubeconfig(s.kubeconfig, { qps: 0 });
    [caPem] = await Promise.all([readFile(s.pki.ca.cert, 'utf8')]);
    const clusterSigningKeyPem = await readFile(s.pki.ca.key, 'utf8');
    cm = await startInProcess(await controllerManagerKubeconfig(s), {
      controllers: ['csrapproving', 'csrsigning', 'bootstrapsigner', 'tokencleaner'], config: { clusterSigningCertPem: caPem, clusterSigningKeyPem },
    });
    // what `mini-kube up` (as kubeadm init) applies: cluster-info, its anonymous reader, the node bootstrap bindings
    await applyClusterInfoObjects(admin, s.url, caPem);
    expect((await s.kubectlWithInput(tokenManifest(ID, SECRET), 'apply', '-f', '-')).stderr).toBe('');
  }, 60_000);

  afterAll(async () => {
    if (kubelet && kubelet.exitCode === null && kubelet.signalCode === null) {
      kubelet.kill('SIGTERM');
      await new Promise((r) => kubelet!.once('exit', r));
    }
    await cm?.stop();
    await admin?.close();
    await s?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('kubectl sees the token as system:bootstrap:<id> in its groups', async () => {
    const r = await whoami(await tokenKubeconfig('token.kubeconfig', TOKEN));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`system:bootstrap:${ID} ["system:bootstrappers","${GROUP}","system:authenticated"]`);
    const wrong = await whoami(await tokenKubeconfig('wrong.kubeconfig', `${ID}.0123456789abcdee`));
    expect(wrong.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
    // a bootstrap token may request certificates, not read the cluster
    expect((await s.kubectl('--kubeconfig', join(dir, 'token.kubeconfig'), 'get', 'nodes')).stderr)
      .toContain(`User "system:bootstrap:${ID}" cannot list resource "nodes" in API group "" at the cluster scope`);
  }, 30_000);

  it('a kubelet with only the bootstrap kubeconfig gets its certificate and runs as system:node:<name>', async () => {
    const rootDir = join(dir, 'kubelet');
    const kubeconfig = join(dir, 'kubelet.conf');
    /** `mini-kube kubelet` on the process runtime, as kubeadm join runs it: the bootstrap kubeconfig and where to write its own. */
    const startKubelet = async (bootstrapConf: string): Promise<void> => {
      kubeletLog = '';
      kubelet = spawn(process.execPath, [bundledMain, 'kubelet', '--bootstrap-kubeconfig', bootstrapConf, '--kubeconfig', kubeconfig,
        '--node-name', NODE, '--runtime', 'process', '--pod-sandbox', 'host', '--root-dir', rootDir,
        '--address', '127.0.0.1', '--node-ip', '127.0.0.1', '--port', '0', '--anonymous-auth=false', '--authentication-token-webhook'], { stdio: ['ignore', 'ignore', 'pipe'] });
      kubelet.stderr!.on('data', (d: Buffer) => { kubeletLog += d.toString(); });
    };
    await startKubelet(await tokenKubeconfig('bootstrap-kubelet.conf', TOKEN, s.pki.ca.cert));

    const csrs = admin.resource(Resources.certificateSigningRequests);
    const issued = await kubeletEventually(async () => (await csrs.list()).items.find((c) => c.spec?.username === `system:bootstrap:${ID}` && c.status?.certificate), 30_000, 'the kubelet\'s request issued');
    expect(issued.metadata!.name).toMatch(/^node-csr-[A-Za-z0-9_-]{43}$/);
    expect(issued.spec).toMatchObject({ signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'], groups: expect.arrayContaining([GROUP, 'system:bootstrappers']) });
    expect(issued.status.conditions[0]).toMatchObject({ type: 'Approved', reason: 'AutoApproved' });
    const request = new x509.Pkcs10CertificateRequest(Buffer.from(issued.spec.request, 'base64').toString());
    expect(request.subject).toBe(`O=system:nodes, CN=system:node:${NODE}`);
    expect(request.publicKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });

    const node = await kubeletEventually(async () => {
      const n = await admin.nodes().get(NODE);
      return condition(n, 'Ready')?.status === 'True' ? n : undefined;
    }, 30_000, 'node Ready');
    expect(node.metadata!.labels!['kubernetes.io/hostname']).toBe(NODE);

    // the pair in --cert-dir (default <root-dir>/pki) behind the current symlink, and the kubeconfig naming it
    const current = join(rootDir, 'pki', 'kubelet-client-current.pem');
    expect((await lstat(current)).isSymbolicLink()).toBe(true);
    expect(await readlink(current)).toMatch(/^kubelet-client-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.pem$/);
    const pair = await readFile(current, 'utf8');
    expect(pair).toContain(Buffer.from(issued.status.certificate, 'base64').toString().trim());
    expect(pair).toContain('-----BEGIN EC PRIVATE KEY-----');
    expect(existsSync(join(rootDir, 'pki', 'kubelet-client.key.tmp'))).toBe(false);
    const written = await readFile(kubeconfig, 'utf8');
    expect(written).toContain(`client-certificate: ${current}`);
    expect(written).toContain(`client-key: ${current}`);
    // the CA as the bootstrap kubeconfig named it: the file, not a copy of its data
    expect(written).toContain(`certificate-authority: ${s.pki.ca.cert}`);
    expect(written).not.toContain('certificate-authority-data');
    expect(written).not.toContain(SECRET);
    expect((await whoami(kubeconfig)).stdout).toBe(`system:node:${NODE} ["system:nodes","system:authenticated"]`);

    // who wrote the Node and its Lease: the node, never the bootstrap user
    await eventually(() => admin.resource(Resources.leases, 'kube-node-lease').get(NODE), 10_000, 'the node Lease');
    const events = (await readFile(join(dir, 'audit.log'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    const writers = (resource: string) => new Set(events.filter((e) => e.stage === 'ResponseComplete' && e.objectRef?.resource === resource && e.objectRef?.name === NODE
      && ['create', 'update', 'patch'].includes(e.verb) && e.responseStatus?.code < 300).map((e) => e.user.username));
    expect([...writers('nodes')]).toEqual([`system:node:${NODE}`]);
    expect([...writers('leases')]).toEqual([`system:node:${NODE}`]);
    expect(events.some((e) => e.user?.username === `system:bootstrap:${ID}` && e.objectRef?.resource === 'certificatesigningrequests' && e.verb === 'create')).toBe(true);

    // started again, it keeps the kubeconfig it wrote: the bootstrap kubeconfig (a token that no longer works) is unused
    kubelet!.kill('SIGTERM');
    await new Promise((r) => kubelet!.once('exit', r));
    const renewed = (await admin.resource(Resources.leases, 'kube-node-lease').get(NODE)).spec!.renewTime as string;
    await startKubelet(await tokenKubeconfig('stale-bootstrap.conf', 'zzzzzz.0123456789abcdef'));
    await kubeletEventually(async () => (await admin.resource(Resources.leases, 'kube-node-lease').get(NODE)).spec!.renewTime !== renewed, 20_000, 'the Lease renewed after the restart');
    expect(kubeletLog).toContain('Kubeconfig exists and is valid, skipping bootstrap');
    expect((await csrs.list()).items.filter((c) => c.spec?.username === `system:bootstrap:${ID}`)).toHaveLength(1);
  }, 90_000);

  it('refuses --bootstrap-kubeconfig with simulated nodes or without --kubeconfig (exit 2)', async () => {
    const run = (...args: string[]): Promise<{ code: number | null; stderr: string }> => new Promise((done) => {
      const child = spawn(process.execPath, [bundledMain, 'kubelet', '--bootstrap-kubeconfig', join(dir, 'token.kubeconfig'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
      child.once('exit', (code) => done({ code, stderr }));
    });
    const many = await run('--kubeconfig', join(dir, 'unused.conf'), '--runtime', 'fake', '--nodes', '3');
    expect(many).toMatchObject({ code: 2 });
    expect(many.stderr).toContain('--bootstrap-kubeconfig needs a single node (--nodes 1): simulated nodes share one identity');
    const alone = await run();
    expect(alone).toMatchObject({ code: 2 });
    expect(alone.stderr).toContain('--bootstrap-kubeconfig needs --kubeconfig: the file the kubelet writes its credentials to');
  }, 30_000);

  it('cluster-info is readable without credentials and signed with the token', async () => {
    const signed = await eventually(() => admin.configMaps('kube-public').get('cluster-info'), 10_000, 'cluster-info').then(async (first) =>
      first.data?.[`jws-kubeconfig-${ID}`] ? first : eventually(async () => {
        const cmap = await admin.configMaps('kube-public').get('cluster-info');
        return cmap.data?.[`jws-kubeconfig-${ID}`] ? cmap : undefined;
      }, 10_000, 'cluster-info signed'));
    // as `kubeadm join --discovery-token` reads it: anonymously, then checks the signature with the token
    const res = await request(`${s.url}/api/v1/namespaces/kube-public/configmaps/cluster-info`, { dispatcher: new (await import('undici')).Agent({ connect: { ca: caPem } }) });
    expect(res.statusCode).toBe(200);
    const anonymous = await res.body.json() as KubeObject;
    const content = anonymous.data!.kubeconfig as string;
    expect(content).toContain(`server: ${s.url}`);
    expect(content).toContain(`certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`);
    expect(content).not.toContain('users: [');
    expect(anonymous.data![`jws-kubeconfig-${ID}`]).toBe(detachedSignature(content, ID, SECRET));
    expect(signed.data![`jws-kubeconfig-${ID}`]).toBe(detachedSignature(content, ID, SECRET));
  }, 30_000);

  it('an expired token is refused, deleted by the token cleaner, and its signature removed', async () => {
    const id = 'expire';
    const expiration = new Date(Date.now() + 3_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await s.kubectlWithInput(tokenManifest(id, SECRET, expiration), 'apply', '-f', '-');
    const config = await tokenKubeconfig('expiring.kubeconfig', `${id}.${SECRET}`);
    await eventually(async () => (await admin.configMaps('kube-public').get('cluster-info')).data?.[`jws-kubeconfig-${id}`], 10_000, 'signed with the new token');
    // valid until its expiration (a second boundary away at least) ...
    const before = await whoami(config);
    if (Date.now() < Date.parse(expiration)) expect(before.stdout).toBe(`system:bootstrap:${id} ["system:bootstrappers","${GROUP}","system:authenticated"]`);
    // ... refused after it, then removed, and cluster-info no longer carries its signature
    await eventually(async () => Date.now() > Date.parse(expiration) && (await whoami(config)).stderr.includes('(Unauthorized)'), 15_000, 'the expired token refused');
    await eventually(() => admin.secrets('kube-system').get(`bootstrap-token-${id}`).then(() => false, () => true), 15_000, 'the expired token deleted');
    await eventually(async () => !(await admin.configMaps('kube-public').get('cluster-info')).data?.[`jws-kubeconfig-${id}`], 10_000, 'its signature removed');
    expect((await admin.configMaps('kube-public').get('cluster-info')).data?.[`jws-kubeconfig-${ID}`]).toBeTruthy();
  }, 60_000);
});
