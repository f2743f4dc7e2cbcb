// Kubelet TLS bootstrapping (upstream pkg/kubelet/certificate/bootstrap, LoadClientCert): with --bootstrap-kubeconfig,
// a --kubeconfig that is missing or holds no valid client certificate is made here. The bootstrap credentials (a
// bootstrap token, as kubeadm join writes them) create a CertificateSigningRequest for kubernetes.io/kube-apiserver-
// client-kubelet with subject O=system:nodes, CN=system:node:<node>, an ECDSA P-256 key (RSA keys also ask for key
// encipherment, as upstream since 1.27) and usages digital signature and client auth; once the controller-manager has
// approved and signed it, the key and certificate go to --cert-dir/kubelet-client-current.pem and the kubeconfig is
// written naming that file, so the kubelet runs as system:node:<node>. The request is named after a digest of the key,
// subject and usages (node-csr-...): a kubelet that restarts while waiting finds its request again and keeps its key.
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { KubeObject } from '../../../api/types.js';
import { stringifyYaml } from '../../apimachinery/yaml.js';
import { Client, isAlreadyExists, loadKubeconfig, Resources, type RestConfig } from '../../client/index.js';
import { certificateRequestPem } from '../../pki/index.js';
import { parseCsr } from '../../pki/csr-signing.js';
import { loadKey } from '../../pki/keys.js';
import { CertificateFileStore, certificatesOf, privateKeyOf } from './cert-store.js';

export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
const TMP_PRIVATE_KEY = 'kubelet-client.key.tmp';

export interface ClientCertBootstrapOptions {
  /** --kubeconfig: kept when it holds a valid client certificate, else written here. */
  kubeconfigPath: string;
  /** --bootstrap-kubeconfig: the credentials that may request a node certificate. */
  bootstrapKubeconfigPath: string;
  /** --cert-dir. */
  certDir: string;
  nodeName: string;
  logger: Logger;
  signal?: AbortSignal;
  userAgent?: string;
  /** How long to wait for the apiserver's /healthz before trying anyway (upstream: a minute). */
  serverWaitMs?: number;
  /** How long to wait for the certificate (upstream: an hour). */
  certificateTimeoutMs?: number;
}

/** Whether the kubeconfig exists with a client certificate and key, no certificate expired (upstream isClientConfigStillValid). */
export async function clientConfigStillValid(path: string, logger: Logger, now = Date.now()): Promise<boolean> {
  try {
    await stat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new Error(`error reading existing bootstrap kubeconfig ${path}: ${(e as Error).message}`);
  }
  const unusable = (why: string): false => { logger.warn(`unable to use the existing client config in ${path}: ${why}`); return false; };
  let config: RestConfig;
  try {
    config = await loadKubeconfig(path);
  } catch (e) {
    return unusable((e as Error).message);
  }
  if (!config.certData || !config.keyData) return unusable('it has no client certificate and key');
  let certs;
  try {
    certs = certificatesOf(config.certData);
  } catch (e) {
    return unusable(`its client certificate does not parse: ${(e as Error).message}`);
  }
  if (!certs.length) return unusable('it has no client certificate');
  const expired = certs.find((c) => Date.parse(c.validTo) < now);
  if (expired) return unusable(`part of the existing client certificate is expired: ${expired.validTo}`);
  return true;
}

/** Makes sure --kubeconfig holds a node client certificate, requesting one with the bootstrap kubeconfig when not. */
export async function loadClientCert(o: ClientCertBootstrapOptions): Promise<void> {
  const log = o.logger;
  if (await clientConfigStillValid(o.kubeconfigPath, log)) {
    log.info({ path: o.kubeconfigPath }, 'Kubeconfig exists and is valid, skipping bootstrap');
    return;
  }
  log.info('Using bootstrap kubeconfig to generate TLS client cert, key and kubeconfig file');
  const loaded = await loadKubeconfig(o.bootstrapKubeconfigPath).catch((e: Error) => { throw new Error(`unable to load bootstrap kubeconfig: ${e.message}`); });
  const { namespace: _ns, ...bootstrap } = loaded;
  await mkdir(o.certDir, { recursive: true, mode: 0o700 });
  const store = new CertificateFileStore(o.certDir);
  // the current pair's key is kept (a renewal), else the one a failed attempt left, else a new one
  const tmpKeyPath = join(o.certDir, TMP_PRIVATE_KEY);
  let keyPem = privateKeyOf((await store.current()) ?? '');
  if (!keyPem) {
    log.info('No valid private key and/or certificate found, reusing existing private key or creating a new one');
    keyPem = await loadOrGenerateKey(tmpKeyPath);
  }
  const client = new Client({ ...bootstrap, qps: 0, userAgent: o.userAgent });
  try {
    await waitForServer(client, o.serverWaitMs ?? 60_000, log, o.signal);
    const certPem = await requestNodeCertificate(client, keyPem, o.nodeName, log, o.signal, o.certificateTimeoutMs ?? 3_600_000);
    const pemPath = await store.update(certPem, keyPem);
    await rm(tmpKeyPath, { force: true });
    await writeKubeconfigFromBootstrapping(bootstrap, o.kubeconfigPath, pemPath);
    log.info({ kubeconfig: o.kubeconfigPath, certificate: pemPath }, 'client certificate issued; kubeconfig written');
  } finally {
    await client.close();
  }
}

const ecdsaKeyPem = (): string =>
  generateKeyPairSync('ec', { namedCurve: 'prime256v1', privateKeyEncoding: { type: 'sec1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;

/** keyutil.LoadOrGenerateKeyFile: the key in the file, or a new ECDSA P-256 key written there (0600). */
async function loadOrGenerateKey(path: string): Promise<string> {
  const existing = privateKeyOf(await readFile(path, 'utf8').catch(() => ''));
  if (existing) return existing;
  const pem = ecdsaKeyPem();
  await writeFile(path, pem, { mode: 0o600 });
  return pem;
}

/** Polls /healthz every 2 s until it answers or the time is up (then the request is tried anyway, as upstream). */
async function waitForServer(client: Client, ms: number, log: Logger, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await client.rest.requestText({ method: 'GET', path: '/healthz', signal: AbortSignal.any([AbortSignal.timeout(1_000), ...(signal ? [signal] : [])]) });
      return;
    } catch (err) {
      if (signal?.aborted) throw err;
      log.info({ err }, 'Failed to connect to apiserver');
    }
    if (Date.now() + 2_000 > deadline) { log.info('timed out waiting to connect to apiserver'); return; }
    await new Promise((r) => setTimeout(r, 2_000));
  }
}

/** upstream digestedName: node-csr-<base64url(SHA-512/256 of the key, subject and usages, each base64url + "|")>. */
export function digestedName(spkiDer: Buffer, commonName: string, organizations: string[], usages: string[]): string {
  const hash = createHash('sha512-256');
  for (const part of [spkiDer, commonName, ...organizations, ...usages]) hash.update(Buffer.from(part).toString('base64url')).update('|');
  return `node-csr-${hash.digest('base64url')}`;
}

/** Creates (or finds again) the node's request and waits for its certificate (PEM). */
async function requestNodeCertificate(client: Client, keyPem: string, nodeName: string, log: Logger, signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
  const subject = { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'] };
  const key = await loadKey(keyPem);
  const csrPem = await certificateRequestPem(key, subject);
  const usages = ['digital signature', 'client auth', ...(key.algorithm.name.startsWith('RSA') ? ['key encipherment'] : [])];
  const spki = createPublicKey(keyPem).export({ type: 'spki', format: 'der' });
  const name = digestedName(spki, subject.commonName, subject.organizations, usages);
  const api = client.resource(Resources.certificateSigningRequests);
  let req: KubeObject;
  try {
    req = await api.create({
      apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
      spec: { request: Buffer.from(csrPem).toString('base64'), signerName: KUBELET_CLIENT_SIGNER, usages },
    }, { signal });
  } catch (e) {
    if (!isAlreadyExists(e)) throw new Error(`cannot create certificate signing request: ${(e as Error).message}`);
    log.info('csr for this node already exists, reusing');
    req = await api.get(name, { signal });
    const problem = incompatibility(req, subject.commonName, spki);
    if (problem) throw new Error(`retrieved csr is not compatible: ${problem}`);
    log.info('csr for this node is still valid');
  }
  log.info({ csr: name }, 'Waiting for client certificate to be issued');
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    return await waitForCertificate(client, req, AbortSignal.any([deadline, ...(signal ? [signal] : [])]), log);
  } catch (e) {
    if (deadline.aborted && !signal?.aborted) throw new Error('timed out waiting for the condition');
    throw e;
  }
}

/** Why an existing request is not ours to reuse (upstream ensureCompatible), or undefined. */
function incompatibility(req: KubeObject, commonName: string, spki: Buffer): string | undefined {
  if (req.spec?.signerName !== KUBELET_CLIENT_SIGNER) return `csr signerNames differ: new "${String(req.spec?.signerName)}", orig: "${KUBELET_CLIENT_SIGNER}"`;
  let theirs;
  try {
    theirs = parseCsr(Buffer.from(String(req.spec?.request ?? ''), 'base64').toString('latin1'));
  } catch (e) {
    return `unable to parse new csr: ${(e as Error).message}`;
  }
  const cn = theirs.subjectName.getField('CN')[0];
  const orgs = theirs.subjectName.getField('O');
  if (cn !== commonName || orgs.length !== 1 || orgs[0] !== 'system:nodes') return `csr subjects differ: new: ${theirs.subject}, orig: O=system:nodes, CN=${commonName}`;
  if (!Buffer.from(theirs.publicKey.rawData).equals(spki)) return 'error validating signature new CSR against old key';
  const issued = req.status?.certificate ? certificatesOf(Buffer.from(String(req.status.certificate), 'base64').toString()) : [];
  const expired = issued.find((c) => Date.parse(c.validTo) < Date.now());
  return expired ? `one of the certificates for the CSR has expired: ${expired.validTo}` : undefined;
}

/** The certificate once the request is approved and issued; throws when it is denied, failed or deleted. */
async function waitForCertificate(client: Client, req: KubeObject, signal: AbortSignal, log: Logger): Promise<string> {
  const name = req.metadata!.name!;
  const api = client.resource(Resources.certificateSigningRequests);
  const fieldSelector = `metadata.name=${name}`;
  const verdict = (csr: KubeObject): string | undefined => {
    if (csr.metadata?.uid !== req.metadata?.uid) throw new Error(`csr "${name}" changed UIDs`);
    let approved = false;
    for (const c of (csr.status?.conditions ?? []) as { type: string; reason?: string; message?: string }[]) {
      if (c.type === 'Denied') throw new Error(`certificate signing request is denied, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`);
      if (c.type === 'Failed') throw new Error(`certificate signing request failed, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`);
      if (c.type === 'Approved') approved = true;
    }
    if (!approved) return undefined;
    if (csr.status?.certificate) return Buffer.from(String(csr.status.certificate), 'base64').toString('utf8');
    log.debug({ csr: name }, 'certificate signing request is approved, waiting to be issued');
    return undefined;
  };
  for (;;) {
    const list = await api.list({ fieldSelector, signal });
    const current = list.items[0];
    if (!current) throw new Error(`csr "${name}" was deleted`);
    const found = verdict(current);
    if (found) return found;
    const watch = await api.watch({ fieldSelector, resourceVersion: list.metadata?.resourceVersion, signal });
    for await (const ev of watch) {
      if (ev.type === 'DELETED') throw new Error(`csr "${name}" was deleted`);
      if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED') break; // an ERROR (e.g. expired resourceVersion): list again
      const got = verdict(ev.object);
      if (got) { watch.stop(); return got; }
    }
    signal.throwIfAborted();
  }
}

/** The kubeconfig the kubelet runs with: the bootstrap kubeconfig's cluster, the issued pair as its credentials. */
async function writeKubeconfigFromBootstrapping(bootstrap: RestConfig, path: string, pemPath: string): Promise<void> {
  const cluster: Record<string, unknown> = { server: bootstrap.host };
  // the CA as the bootstrap kubeconfig gave it: a file stays a file (a rotated CA bundle is read again), else its data
  if (bootstrap.caFile) cluster['certificate-authority'] = bootstrap.caFile;
  else if (bootstrap.caData) cluster['certificate-authority-data'] = Buffer.from(bootstrap.caData).toString('base64');
  if (bootstrap.insecureSkipTLSVerify) cluster['insecure-skip-tls-verify'] = true;
  if (bootstrap.tlsServerName) cluster['tls-server-name'] = bootstrap.tlsServerName;
  const text = stringifyYaml({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'default-cluster', cluster }],
    contexts: [{ name: 'default-context', context: { cluster: 'default-cluster', namespace: 'default', user: 'default-auth' } }],
    'current-context': 'default-context',
    preferences: {},
    users: [{ name: 'default-auth', user: { 'client-certificate': pemPath, 'client-key': pemPath } }],
  });
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await rename(tmp, path);
}
