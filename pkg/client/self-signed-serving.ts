// A server's own serving certificate when none is given, as upstream's components make one
// (MaybeDefaultWithSelfSignedCerts, and the kubelet's kubelet.crt): a CA of its own and a leaf for localhost. With a
// directory the pair is written there as <pair>.crt (leaf, then CA) and <pair>.key, and a later start that can read
// both uses them as they are, as upstream does: no X.509 library is loaded and no key made then.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ServingPair {
  cert: string;
  key: string;
  /** Where it was written, when this call made it in a directory. */
  generatedIn?: { cert: string; key: string };
}

export interface SelfSignedOptions {
  commonName?: string;
  /** Names and addresses besides localhost and 127.0.0.1. */
  sans?: string[];
  /** Keep the pair in this directory as <pairName>.crt and .key. */
  certDir?: string;
  pairName?: string;
}

async function readPair(cert: string, key: string): Promise<ServingPair | undefined> {
  try {
    return { cert: await readFile(cert, 'utf8'), key: await readFile(key, 'utf8') };
  } catch {
    return undefined;
  }
}

/** Written whole or not at all; the key readable by its owner only (upstream's keyutil.WriteKey). */
async function writeAtomically(path: string, text: string, mode: number): Promise<void> {
  const partial = `${path}.${process.pid}.tmp`;
  await writeFile(partial, text, { mode });
  await rename(partial, path);
}

export async function selfSignedServingPair(o: SelfSignedOptions = {}): Promise<ServingPair> {
  const base = o.certDir && join(o.certDir, o.pairName ?? 'serving');
  const files = base ? { cert: `${base}.crt`, key: `${base}.key` } : undefined;
  const kept = files && await readPair(files.cert, files.key);
  if (kept) return kept;
  const commonName = o.commonName ?? 'localhost';
  const { createCa, issueCertificate } = await import('../pki/certificates.js');
  const ca = await createCa(`${commonName}-ca@${Math.floor(Date.now() / 1000)}`, 365);
  const leaf = await issueCertificate(ca, { subject: { commonName }, usage: 'server', sans: ['localhost', '127.0.0.1', ...(o.sans ?? [])], days: 365 });
  const pair = { cert: `${leaf.certPem.trimEnd()}\n${ca.cert.toString('pem').trimEnd()}\n`, key: leaf.keyPem };
  if (!files) return pair;
  await mkdir(o.certDir!, { recursive: true, mode: 0o755 });
  await writeAtomically(files.key, pair.key, 0o600);
  await writeAtomically(files.cert, pair.cert, 0o644);
  return { ...pair, generatedIn: files };
}
