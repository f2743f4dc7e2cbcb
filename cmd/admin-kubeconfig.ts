// DIR/admin.kubeconfig, the cluster-admin's kubeconfig that `up` and `apiserver` write for the generated PKI (as
// kubeadm's admin.conf): the one place its name, user and server URL are decided.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CertKeyPaths } from '../pkg/pki/ensure-pki.js';
import { writeKubeconfig } from '../pkg/pki/kubeconfig.js';

/** Clients reach a wildcard listener over loopback, which the serving certificate names. */
export const clientHost = (bind: string): string =>
  bind === '0.0.0.0' ? '127.0.0.1' : bind === '::' ? '[::1]' : bind.includes(':') ? `[${bind}]` : bind;

/** The URL clients of an apiserver listening on `bind`:`port` use. */
export const serverUrl = (bind: string, port: number): string => `https://${clientHost(bind)}:${port}`;

export interface AdminCredentials { caPem: string; certPem: string; keyPem: string }

export const readAdminCredentials = async (caCert: string, admin: CertKeyPaths): Promise<AdminCredentials> => {
  const [caPem, certPem, keyPem] = await Promise.all([readFile(caCert, 'utf8'), readFile(admin.cert, 'utf8'), readFile(admin.key, 'utf8')]);
  return { caPem, certPem, keyPem };
};

/** Writes DIR/admin.kubeconfig (0600, replaced whole) and returns its path. */
export const writeAdminKubeconfig = async (dataDir: string, server: string, c: AdminCredentials): Promise<string> => {
  const path = join(dataDir, 'admin.kubeconfig');
  await writeKubeconfig(path, { server, ...c, user: 'kubernetes-admin' });
  return path;
};
