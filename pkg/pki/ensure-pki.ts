// The cluster's TLS material under one directory: created where missing, checked for coherence, never overwritten but
// for a certificate near its end, issued again at start with its key (kubeadm renews its certificates at upgrades).
import { X509Certificate as NodeX509, createPublicKey } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
// Issuing and key generation load @peculiar/x509 (~50 ms of a start): only when something must be made.
import type { CertificateAuthority, LeafRequest, Subject } from './certificates.js';

const issuing = (): Promise<typeof import('./certificates.js')> => import('./certificates.js');
const keying = (): Promise<typeof import('./keys.js')> => import('./keys.js');

export interface CertKeyPaths {
  cert: string;
  key: string;
}

export interface PkiPaths {
  dir: string;
  ca: CertKeyPaths;
  apiserver: CertKeyPaths;
  /** kubernetes-admin in system:masters: the admin kubeconfig. */
  admin: CertKeyPaths;
  controllerManager: CertKeyPaths;
  scheduler: CertKeyPaths;
  kubeProxy: CertKeyPaths;
  clusterDns: CertKeyPaths;
  /** The apiserver's identity towards kubelets (logs, exec). */
  apiserverKubeletClient: CertKeyPaths;
  /** system:node:NAME per node, keyed by node name. */
  nodes: Record<string, CertKeyPaths>;
  /** Service-account token signing pair. */
  serviceAccount: { key: string; pub: string };
}

export interface FrontProxyPaths {
  /** The CA of the authenticating front proxy (--requestheader-client-ca-file), apart from the cluster CA as kubeadm has it. */
  ca: CertKeyPaths;
  /** The aggregator's identity towards extension apiservers (--proxy-client-cert-file), signed by the front-proxy CA. */
  client: CertKeyPaths;
}

export interface MetricsServerPaths {
  /** Its identity towards the apiserver and the kubelets (system:metrics-server), signed by the cluster CA. */
  client: CertKeyPaths;
  /** Its serving certificate, for metrics-server.kube-system.svc (the name the aggregator checks). */
  serving: CertKeyPaths;
}

export interface EnsurePkiOptions extends RenewalOptions {
  nodes: string[];
  /** Extra DNS names / IPs for the serving certificate (used when it is created or renewed). */
  serverSans?: string[];
}

export interface RenewalOptions {
  /** Told of each certificate issued again because it had expired or would within RENEW_WITHIN_DAYS. */
  onRenewed?(cert: string, expiry: string): void;
}

/** A leaf certificate with less time than this left is issued again at start (kubeadm warns at 30 days). */
export const RENEW_WITHIN_DAYS = 30;

const caDays = 3650;
const leafDays = 365;
/** Node names become file names and CNs: hold them to a DNS-1123 subdomain as Kubernetes does. */
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const apiserverSans = (extra: string[]): string[] => [...new Set([
  '127.0.0.1', '::1', 'localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local', '10.96.0.1', hostname().toLowerCase(), ...extra,
])];

const pair = (dir: string, base: string): CertKeyPaths => ({ cert: join(dir, `${base}.crt`), key: join(dir, `${base}.key`) });

const readIfExists = async (path: string): Promise<string | undefined> => {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
};

/** 'wx': a file someone else wrote in the meantime is an error, never silently replaced. */
const writeNew = (path: string, data: string, mode: number): Promise<void> => writeFile(path, data, { flag: 'wx', mode });
const writeKey = (path: string, pem: string): Promise<void> => writeNew(path, pem, 0o600);
const writeCert = (path: string, pem: string): Promise<void> => writeNew(path, pem, 0o644);

const orphanError = (have: string, missing: string): Error =>
  new Error(`${have} exists but ${missing} does not; remove ${have} to have both generated again`);

/** The CA as node sees it (to check leaves) and, loaded on first use, as a signer for the leaves still missing. */
interface CaHandle {
  node: NodeX509;
  signer(): Promise<CertificateAuthority>;
}

const ensureCa = async (paths: CertKeyPaths, commonName = 'mini-kube-ca'): Promise<CaHandle> => {
  const [certPem, keyPem] = await Promise.all([readIfExists(paths.cert), readIfExists(paths.key)]);
  if (certPem !== undefined && keyPem !== undefined) {
    let signer: Promise<CertificateAuthority> | undefined;
    const load = async (): Promise<CertificateAuthority> => {
      const [{ x509 }, { loadKey }] = await Promise.all([import('./x509.js'), keying()]);
      return { cert: new x509.X509Certificate(certPem), key: await loadKey(keyPem) };
    };
    return { node: new NodeX509(certPem), signer: () => (signer ??= load()) };
  }
  if (certPem !== undefined) throw orphanError(paths.cert, paths.key);
  const [{ createCa }, { generateKey, loadKey, privateKeyPem }] = await Promise.all([issuing(), keying()]);
  const key = keyPem !== undefined ? await loadKey(keyPem) : await generateKey();
  const ca = await createCa(commonName, caDays, key);
  if (keyPem === undefined) await writeKey(paths.key, await privateKeyPem(key.keys.privateKey));
  await writeCert(paths.cert, ca.cert.toString('pem'));
  return { node: new NodeX509(ca.cert.toString('pem')), signer: () => Promise.resolve(ca) };
};

/** Replaces a file whole (a rename), so that a process starting meanwhile reads the old one or the new one. */
const replaceFile = async (path: string, data: string): Promise<void> => {
  const partial = `${path}.${process.pid}.new`;
  try {
    await writeFile(partial, data, { mode: 0o644 });
    await rename(partial, path);
  } finally {
    await rm(partial, { force: true });
  }
};

const ensureLeaf = async (ca: CaHandle, paths: CertKeyPaths, req: Omit<LeafRequest, 'days' | 'key'>, o: RenewalOptions = {}): Promise<void> => {
  const [certPem, keyPem] = await Promise.all([readIfExists(paths.cert), readIfExists(paths.key)]);
  let expiring = false;
  if (certPem !== undefined && keyPem !== undefined) {
    const leaf = new NodeX509(certPem);
    if (!leaf.checkIssued(ca.node) || !leaf.verify(ca.node.publicKey)) {
      throw new Error(`${paths.cert} was not issued by the cluster CA; remove it and its key to have them generated again`);
    }
    expiring = Date.parse(leaf.validTo) - Date.now() < RENEW_WITHIN_DAYS * 24 * 3600 * 1000;
    if (!expiring) return;
    o.onRenewed?.(paths.cert, new Date(leaf.validTo).toISOString());
  } else if (certPem !== undefined) {
    throw orphanError(paths.cert, paths.key);
  }
  const [{ issueCertificate }, { loadKey }] = await Promise.all([issuing(), keying()]);
  const key = keyPem !== undefined ? await loadKey(keyPem) : undefined;
  const issued = await issueCertificate(await ca.signer(), { ...req, days: leafDays, key });
  if (keyPem === undefined) await writeKey(paths.key, issued.keyPem);
  await (expiring ? replaceFile(paths.cert, issued.certPem) : writeCert(paths.cert, issued.certPem));
};

const ensureServiceAccountKey = async (paths: { key: string; pub: string }): Promise<void> => {
  const [keyPem, pubPem] = await Promise.all([readIfExists(paths.key), readIfExists(paths.pub)]);
  if (keyPem !== undefined && pubPem !== undefined) return;
  if (pubPem !== undefined) throw orphanError(paths.pub, paths.key);
  if (keyPem !== undefined) {
    await writeNew(paths.pub, createPublicKey(keyPem).export({ type: 'spki', format: 'pem' }).toString(), 0o644);
    return;
  }
  const { generateKey, privateKeyPem, publicKeyPem } = await keying();
  const { keys } = await generateKey();
  await writeKey(paths.key, await privateKeyPem(keys.privateKey));
  await writeNew(paths.pub, await publicKeyPem(keys.publicKey), 0o644);
};

const client = (commonName: string, ...organizations: string[]): { subject: Subject; usage: 'client' } =>
  ({ subject: { commonName, organizations }, usage: 'client' });

/** Creates what is missing under `dir` and returns where everything is. */
export const ensurePki = async (dir: string, opts: EnsurePkiOptions): Promise<PkiPaths> => {
  for (const n of opts.nodes) {
    if (n.length > 253 || !dns1123Subdomain.test(n)) throw new Error(`invalid node name "${n}": must be a DNS-1123 subdomain`);
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const paths: PkiPaths = {
    dir,
    ca: pair(dir, 'ca'),
    apiserver: pair(dir, 'apiserver'),
    admin: pair(dir, 'admin'),
    controllerManager: pair(dir, 'controller-manager'),
    scheduler: pair(dir, 'scheduler'),
    kubeProxy: pair(dir, 'kube-proxy'),
    clusterDns: pair(dir, 'cluster-dns'),
    apiserverKubeletClient: pair(dir, 'apiserver-kubelet-client'),
    nodes: Object.fromEntries(opts.nodes.map((n) => [n, pair(dir, `kubelet-${n}`)])),
    serviceAccount: { key: join(dir, 'sa.key'), pub: join(dir, 'sa.pub') },
  };
  const ca = await ensureCa(paths.ca);
  const leaves: [CertKeyPaths, Omit<LeafRequest, 'days' | 'key'>][] = [
    [paths.apiserver, { subject: { commonName: 'kube-apiserver' }, usage: 'server', sans: apiserverSans(opts.serverSans ?? []) }],
    [paths.admin, client('kubernetes-admin', 'system:masters')],
    [paths.controllerManager, client('system:kube-controller-manager')],
    [paths.scheduler, client('system:kube-scheduler')],
    [paths.kubeProxy, client('system:kube-proxy')],
    [paths.clusterDns, client('system:cluster-dns')],
    [paths.apiserverKubeletClient, client('kube-apiserver-kubelet-client', 'system:masters')],
    ...opts.nodes.map((n): [CertKeyPaths, Omit<LeafRequest, 'days' | 'key'>] =>
      [paths.nodes[n] as CertKeyPaths, client(`system:node:${n}`, 'system:nodes')]),
  ];
  await Promise.all([
    ...leaves.map(([p, req]) => ensureLeaf(ca, p, req, opts)),
    ensureServiceAccountKey(paths.serviceAccount),
  ]);
  return paths;
};

/** The front-proxy CA and the aggregator's client certificate under `dir` (only the apiserver needs them). */
export const ensureFrontProxyPki = async (dir: string, o: RenewalOptions = {}): Promise<FrontProxyPaths> => {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const paths: FrontProxyPaths = { ca: pair(dir, 'front-proxy-ca'), client: pair(dir, 'front-proxy-client') };
  const ca = await ensureCa(paths.ca, 'front-proxy-ca');
  await ensureLeaf(ca, paths.client, client('front-proxy-client'), o);
  return paths;
};

/** metrics-server's client and serving certificates under `dir`, signed by the cluster CA (only `up` runs it). */
export const ensureMetricsServerPki = async (dir: string, o: RenewalOptions = {}): Promise<MetricsServerPaths> => {
  const paths: MetricsServerPaths = { client: pair(dir, 'metrics-server'), serving: pair(dir, 'metrics-server-serving') };
  const ca = await ensureCa(pair(dir, 'ca'));
  await Promise.all([
    ensureLeaf(ca, paths.client, client('system:metrics-server'), o),
    ensureLeaf(ca, paths.serving, { subject: { commonName: 'metrics-server' }, usage: 'server', sans: ['metrics-server.kube-system.svc', 'localhost', '127.0.0.1'] }, o),
  ]);
  return paths;
};
