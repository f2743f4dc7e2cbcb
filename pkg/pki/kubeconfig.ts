// A kubeconfig with everything embedded, as kubeadm writes admin.conf.
import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { stringifyYaml } from '../apimachinery/yaml.js';

export interface KubeconfigOptions {
  server: string;
  caPem: string;
  certPem: string;
  keyPem: string;
  user: string;
  contextName?: string;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

export const kubeconfigYaml = (o: KubeconfigOptions): string => {
  const context = o.contextName ?? 'mini-kube';
  return stringifyYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'mini-kube', cluster: { server: o.server, 'certificate-authority-data': b64(o.caPem) } }],
    contexts: [{ name: context, context: { cluster: 'mini-kube', user: o.user } }],
    'current-context': context,
    preferences: {},
    users: [{ name: o.user, user: { 'client-certificate-data': b64(o.certPem), 'client-key-data': b64(o.keyPem) } }],
  });
};

/** Written to a private temp file and renamed: a reader never sees half a file, and it is 0600 from the start. */
export const writeKubeconfig = async (path: string, o: KubeconfigOptions): Promise<void> => {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, kubeconfigYaml(o), { mode: 0o600 });
  await rename(tmp, path);
};
