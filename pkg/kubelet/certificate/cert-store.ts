// The kubelet's client certificate on disk as upstream's certificate.FileStore("kubelet-client", --cert-dir) keeps it:
// each issued pair in kubelet-client-<YYYY-MM-DD-HH-MM-SS>.pem (certificate, then key), and kubelet-client-current.pem a
// symlink to the newest, swapped atomically; the kubeconfig the kubelet runs with names the symlink.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const PAIR_PREFIX = 'kubelet-client';
export const CURRENT_PAIR = `${PAIR_PREFIX}-current.pem`;

const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----\n?/g;

/** The PEM blocks of a text, by type (CERTIFICATE, EC PRIVATE KEY, ...), in order. */
export const pemBlocks = (text: string): { type: string; pem: string }[] =>
  [...text.matchAll(PEM_BLOCK)].map((m) => ({ type: m[1]!, pem: m[0].endsWith('\n') ? m[0] : `${m[0]}\n` }));

/** Every certificate of a PEM text, parsed; throws on one that does not parse. */
export const certificatesOf = (text: string): X509Certificate[] =>
  pemBlocks(text).filter((b) => b.type === 'CERTIFICATE').map((b) => new X509Certificate(b.pem));

const isKeyBlock = (type: string): boolean => type === 'PRIVATE KEY' || type.endsWith(' PRIVATE KEY');

/** The private key PEM of a text when it holds one Node can read, else undefined (upstream's verifyKeyData). */
export const privateKeyOf = (text: string): string | undefined => {
  const block = pemBlocks(text).find((b) => isKeyBlock(b.type));
  if (!block) return undefined;
  try {
    createPrivateKey(block.pem);
    return block.pem;
  } catch {
    return undefined;
  }
};

const withNewline = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

const pad = (n: number): string => String(n).padStart(2, '0');

/** Go's "2006-01-02-15-04-05" in local time, as upstream names the files. */
export const pairTimestamp = (d: Date): string =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}-${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;

export class CertificateFileStore {
  constructor(readonly dir: string) {}

  /** The path the kubeconfig names: the symlink to the newest pair. */
  currentPath(): string { return join(this.dir, CURRENT_PAIR); }

  /** The current pair's text, or undefined when there is none. */
  async current(): Promise<string | undefined> {
    return readFile(this.currentPath(), 'utf8').catch(() => undefined);
  }

  /** Writes the pair (0600) and points the current symlink at it; returns the current path. */
  async update(certPem: string, keyPem: string, now = new Date()): Promise<string> {
    const file = `${PAIR_PREFIX}-${pairTimestamp(now)}.pem`;
    await writeFile(join(this.dir, file), withNewline(certPem) + withNewline(keyPem), { mode: 0o600 });
    const updated = join(this.dir, `${PAIR_PREFIX}-updated.pem`);
    await rm(updated, { force: true });
    await symlink(file, updated);
    await rename(updated, this.currentPath());
    return this.currentPath();
  }
}
